//! How a robot looks: each link's URDF `<visual>` elements as triangles in the link's
//! frame, with their material colours. Drawing only: the checks use the collision
//! shapes (`model.rs`). A visual whose mesh is missing or unreadable is left out and
//! named, so the viewer can say why a link shows its collision hull instead.

use std::collections::HashMap;
use std::path::Path;

use glam::DVec3;

use super::model::{find_mesh, pose_of};
use crate::pose::Pose;

/// One `<visual>` element of a link.
#[derive(Clone, Debug)]
pub struct LinkVisual {
    /// Index into the robot's links.
    pub link: usize,
    /// The visual's frame in the link's (its `<origin>`).
    pub origin: Pose,
    /// In the visual's frame, scaled.
    pub triangles: Vec<[DVec3; 3]>,
    /// The material's `rgba`, inline or by name from the robot's `<material>`s.
    pub rgba: Option<[f32; 4]>,
}

/// Every link's visuals, and the ones that could not be read (with why).
#[derive(Clone, Debug, Default)]
pub struct Visuals {
    pub parts: Vec<LinkVisual>,
    pub missing: Vec<String>,
}

/// Reads the visuals of `robot` (meshes found as the collision meshes are).
pub fn load_visuals(robot: &urdf_rs::Robot, urdf: &Path, root: Option<&Path>) -> Visuals {
    let named: HashMap<&str, [f32; 4]> = robot
        .materials
        .iter()
        .filter_map(|m| Some((m.name.as_str(), rgba(m.color.as_ref()?))))
        .collect();
    let mut visuals = Visuals::default();
    for (link, l) in robot.links.iter().enumerate() {
        for (k, v) in l.visual.iter().enumerate() {
            let what = || {
                let name = v.name.clone().unwrap_or_else(|| format!("visual {k}"));
                format!("link {}: {name}", l.name)
            };
            match triangles(&v.geometry, urdf, root) {
                Ok(triangles) if !triangles.is_empty() => {
                    let colour = v.material.as_ref().and_then(|m| {
                        m.color
                            .as_ref()
                            .map(rgba)
                            .or_else(|| named.get(m.name.as_str()).copied())
                    });
                    visuals.parts.push(LinkVisual {
                        link,
                        origin: pose_of(&v.origin),
                        triangles,
                        rgba: colour,
                    });
                }
                Ok(_) => visuals.missing.push(format!("{}: no triangles", what())),
                Err(why) => visuals.missing.push(format!("{}: {why}", what())),
            }
        }
    }
    visuals
}

fn rgba(c: &urdf_rs::Color) -> [f32; 4] {
    c.rgba.0.map(|x| x as f32)
}

/// A visual geometry's triangles in its own frame (URDF cylinders and capsules stand
/// along z).
fn triangles(
    geometry: &urdf_rs::Geometry,
    urdf: &Path,
    root: Option<&Path>,
) -> Result<Vec<[DVec3; 3]>, String> {
    Ok(match geometry {
        urdf_rs::Geometry::Box { size } => box_triangles(DVec3::from_array(size.0) * 0.5),
        urdf_rs::Geometry::Sphere { radius } => sphere_triangles(*radius, DVec3::ZERO),
        urdf_rs::Geometry::Cylinder { radius, length } => cylinder_triangles(*radius, *length),
        urdf_rs::Geometry::Capsule { radius, length } => {
            let mut t = cylinder_triangles(*radius, *length);
            for end in [-0.5, 0.5] {
                t.extend(sphere_triangles(*radius, DVec3::Z * length * end));
            }
            t
        }
        urdf_rs::Geometry::Mesh { filename, scale } => {
            let path = find_mesh(filename, urdf, root)?;
            let scale = scale
                .as_ref()
                .map_or(DVec3::ONE, |s| DVec3::from_array(s.0));
            read_mesh_triangles(&path)?
                .into_iter()
                .map(|t| t.map(|p| p * scale))
                .collect()
        }
    })
}

/// A mesh file's triangles: STL, COLLADA and OBJ as drawn; PLY as its hull's faces
/// ([`crate::mesh::triangles`]).
pub fn read_mesh_triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, String> {
    crate::mesh::triangles(path)
}

fn box_triangles(h: DVec3) -> Vec<[DVec3; 3]> {
    let corner = |i: usize| {
        DVec3::new(
            if i & 1 == 0 { -h.x } else { h.x },
            if i & 2 == 0 { -h.y } else { h.y },
            if i & 4 == 0 { -h.z } else { h.z },
        )
    };
    const FACES: [[usize; 4]; 6] = [
        [0, 2, 6, 4],
        [1, 5, 7, 3],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 1, 3, 2],
        [4, 6, 7, 5],
    ];
    FACES
        .iter()
        .flat_map(|f| {
            [
                [corner(f[0]), corner(f[1]), corner(f[2])],
                [corner(f[0]), corner(f[2]), corner(f[3])],
            ]
        })
        .collect()
}

const SEGMENTS: usize = 32;

fn cylinder_triangles(radius: f64, length: f64) -> Vec<[DVec3; 3]> {
    let h = length * 0.5;
    let rim = |k: usize, z: f64| {
        let a = std::f64::consts::TAU * k as f64 / SEGMENTS as f64;
        DVec3::new(radius * a.cos(), radius * a.sin(), z)
    };
    let mut out = Vec::new();
    for k in 0..SEGMENTS {
        let (a0, a1, b0, b1) = (rim(k, -h), rim(k + 1, -h), rim(k, h), rim(k + 1, h));
        out.push([a0, a1, b1]);
        out.push([a0, b1, b0]);
        out.push([DVec3::new(0.0, 0.0, h), b0, b1]);
        out.push([DVec3::new(0.0, 0.0, -h), a1, a0]);
    }
    out
}

fn sphere_triangles(radius: f64, centre: DVec3) -> Vec<[DVec3; 3]> {
    let rings = SEGMENTS / 2;
    let at = |i: usize, k: usize| {
        let (theta, phi) = (
            std::f64::consts::PI * i as f64 / rings as f64,
            std::f64::consts::TAU * k as f64 / SEGMENTS as f64,
        );
        centre
            + radius
                * DVec3::new(
                    theta.sin() * phi.cos(),
                    theta.sin() * phi.sin(),
                    theta.cos(),
                )
    };
    let mut out = Vec::new();
    for i in 0..rings {
        for k in 0..SEGMENTS {
            let (p, q, r, s) = (at(i, k), at(i + 1, k), at(i + 1, k + 1), at(i, k + 1));
            out.push([p, q, r]);
            out.push([p, r, s]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_close_around_their_volume() {
        // Each closed mesh's signed volume (divergence theorem) is the solid's, nearly.
        let volume = |t: &[[DVec3; 3]]| -> f64 {
            t.iter().map(|[a, b, c]| a.dot(b.cross(*c))).sum::<f64>() / 6.0
        };
        let boxed = volume(&box_triangles(DVec3::new(0.5, 1.0, 1.5)));
        assert!((boxed.abs() - 6.0).abs() < 1e-12, "{boxed}");
        let cylinder = volume(&cylinder_triangles(1.0, 2.0)).abs();
        assert!(
            (cylinder - 2.0 * std::f64::consts::PI).abs() < 0.05 * cylinder,
            "{cylinder}"
        );
        let sphere = volume(&sphere_triangles(1.0, DVec3::ZERO)).abs();
        let exact = 4.0 / 3.0 * std::f64::consts::PI;
        assert!((sphere - exact).abs() < 0.05 * exact, "{sphere}");
    }
}
