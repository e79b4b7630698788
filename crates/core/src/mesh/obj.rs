//! OBJ meshes (through `tobj`): the points a hull needs (a file of vertices without
//! faces is a point cloud, its hull the shape), the triangles a robot's visual draws,
//! and the line of a file tobj refuses (it names none).

use std::path::Path;

use glam::DVec3;

use super::{report, ImportedMesh, MeshError};
use crate::shape::{Polytope, ShapeError};

/// Loads an OBJ file and builds its convex hull.
pub fn load_obj(path: &Path) -> Result<ImportedMesh, MeshError> {
    super::require_file(path)?;
    let bytes = std::fs::read(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    import_obj_bytes(path, &bytes)
}

/// Imports OBJ text already in memory (`path` names it in messages).
pub fn import_obj_bytes(path: &Path, bytes: &[u8]) -> Result<ImportedMesh, MeshError> {
    let (points, faces) = parse_obj(path, bytes)?;
    let polytope = Polytope::from_points(&points).map_err(|source| MeshError::Shape {
        path: path.to_path_buf(),
        place: match &source {
            ShapeError::NonFinitePoint { x, y, z, .. }
            | ShapeError::CoordinateTooLarge { x, y, z, .. } => {
                obj_vertex_line(bytes, [*x, *y, *z])
            }
            _ => String::new(),
        },
        source,
    })?;
    let mut report = report(path, &points, faces, &polytope);
    if faces > 0 {
        let vertex_lines = String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| l.trim_start().starts_with("v "))
            .count();
        report.unused_vertices = vertex_lines.saturating_sub(points.len());
    }
    Ok(ImportedMesh { polytope, report })
}

/// An OBJ file's triangles as drawn (a robot's visual mesh): its polygons triangulated,
/// a face whose index is past the points left out.
pub(super) fn triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, String> {
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ..Default::default()
    };
    let (models, _) =
        tobj::load_obj(path, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for m in models {
        let p = &m.mesh.positions;
        let at = |i: u32| {
            let i = i as usize * 3;
            DVec3::new(p[i], p[i + 1], p[i + 2])
        };
        for t in m.mesh.indices.chunks_exact(3) {
            if t.iter().all(|i| (*i as usize) * 3 + 2 < p.len()) {
                out.push([at(t[0]), at(t[1]), at(t[2])]);
            }
        }
    }
    Ok(out)
}

/// Where an OBJ file tobj refused goes wrong (tobj names no line): the first byte that
/// is not UTF-8, or the first line tobj refuses: a vertex without three numbers (or
/// with a `w` that is not a nonzero number, or colours that are not three), a `vt` or
/// `vn` without its numbers, a `usemtl` without a name, a face index that is not a
/// number, is 0, or lies beyond the vertices, texture coordinates or normals (1-based;
/// negative counts back from the last so far).
fn obj_fault(bytes: &[u8]) -> Option<(usize, &'static str, String)> {
    if let Err(e) = std::str::from_utf8(bytes) {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        return Some((line, "not UTF-8", format!("byte {at}")));
    }
    let text = String::from_utf8_lossy(bytes);
    let count = |key: &str| {
        text.lines()
            .filter(|l| l.split_whitespace().next() == Some(key))
            .count() as i64
    };
    let totals = [count("v"), count("vt"), count("vn")];
    let mut seen = [0i64; 3];
    let number = |w: &str| w.parse::<f64>().is_ok();
    for (number_of_line, line) in text.lines().enumerate() {
        let at = number_of_line + 1;
        let mut words = line.split_whitespace();
        let key = words.next();
        let rest: Vec<&str> = words.collect();
        match key {
            Some("v") => {
                seen[0] += 1;
                if rest.len() < 3 || !rest[..3].iter().all(|w| number(w)) {
                    return Some((at, "a vertex needs three numbers", line.into()));
                }
                match rest.len() {
                    4 => match rest[3].parse::<f64>() {
                        Ok(0.0) => return Some((at, "a vertex's w (its scale) is 0", line.into())),
                        Ok(_) => {}
                        Err(_) => return Some((at, "a vertex's w is not a number", line.into())),
                    },
                    5 | 7.. => {
                        let what = "a vertex is x y z, x y z w or x y z r g b";
                        return Some((at, what, line.into()));
                    }
                    _ => {}
                }
            }
            Some(kind @ ("vt" | "vn")) => {
                let (slot, needs, what) = if kind == "vt" {
                    (1, 2, "a texture coordinate needs two numbers")
                } else {
                    (2, 3, "a normal needs three numbers")
                };
                seen[slot] += 1;
                if rest.len() < needs || !rest[..needs].iter().all(|w| number(w)) {
                    return Some((at, what, line.into()));
                }
            }
            Some("usemtl") if rest.is_empty() => {
                return Some((at, "`usemtl` needs a material name", line.into()));
            }
            Some(kind @ ("f" | "l")) => {
                if kind == "f" && rest.len() < 3 {
                    return Some((at, "a face needs three corners", line.into()));
                }
                for corner in rest {
                    let parts: Vec<&str> = corner.split('/').collect();
                    if parts.len() > 3 {
                        let what = "a corner is v, v/vt, v//vn or v/vt/vn";
                        return Some((at, what, line.into()));
                    }
                    for (slot, index) in parts.iter().enumerate() {
                        if index.is_empty() && slot > 0 {
                            continue;
                        }
                        let Ok(i) = index.parse::<i64>() else {
                            return Some((at, "a face index is not a number", line.into()));
                        };
                        let valid = if i > 0 {
                            i <= totals[slot]
                        } else {
                            i < 0 && -i <= seen[slot]
                        };
                        if !valid {
                            let what = [
                                "a face index is 0 or beyond the vertices",
                                "a face's texture index is 0 or beyond the texture coordinates",
                                "a face's normal index is 0 or beyond the normals",
                            ][slot];
                            return Some((at, what, line.into()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn parse_obj(path: &Path, bytes: &[u8]) -> Result<(Vec<DVec3>, usize), MeshError> {
    let options = tobj::LoadOptions {
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    let mut reader = std::io::BufReader::new(bytes);
    let (models, _materials) = tobj::load_obj_buf(&mut reader, &options, |_| {
        Err(tobj::LoadError::GenericFailure)
    })
    .map_err(|e| MeshError::Parse {
        path: path.to_path_buf(),
        format: "OBJ",
        reason: match obj_fault(bytes) {
            Some((line, what, text)) => format!("{e}: line {line}: {what}: `{text}`"),
            None => format!(
                "{e}, at a line this reader cannot find (line 1 to {})",
                String::from_utf8_lossy(bytes).lines().count().max(1)
            ),
        },
    })?;
    let mut points = Vec::new();
    let mut faces = 0;
    for model in &models {
        points.extend(
            model
                .mesh
                .positions
                .chunks_exact(3)
                .map(|c| DVec3::new(c[0], c[1], c[2])),
        );
        faces += model.mesh.indices.len() / 3;
    }
    if faces == 0 {
        points = point_cloud(path, bytes)?;
    }
    if points.is_empty() {
        let lines = String::from_utf8_lossy(bytes).lines().count();
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
            place: match lines {
                0 => "the file is empty".to_string(),
                n => format!("lines 1 to {n} hold no `v` line"),
            },
        });
    }
    Ok((points, faces))
}

/// The line of the OBJ vertex whose coordinates are `p` (tobj orders a mesh's points by
/// their first use, not by their lines): `line N: `, or the first `v` line whose
/// coordinates are not finite or beyond the points' limit.
fn obj_vertex_line(bytes: &[u8], p: [f64; 3]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let vertices = text.lines().enumerate().filter_map(|(n, l)| {
        let mut words = l.split_whitespace();
        (words.next() == Some("v")).then(|| {
            let c: Vec<f64> = words
                .take(3)
                .map(|w| w.parse().unwrap_or(f64::NAN))
                .collect();
            (n + 1, c)
        })
    });
    let same = |c: &[f64]| {
        c.len() == 3
            && c.iter()
                .zip(p)
                .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
    };
    // NaN is wild too.
    let wild = |c: &[f64]| {
        c.iter()
            .any(|x| x.is_nan() || x.abs() > crate::shape::MAX_COORDINATE)
    };
    let found = vertices
        .clone()
        .find(|(_, c)| same(c))
        .or_else(|| vertices.clone().find(|(_, c)| wild(c)));
    found.map_or(String::new(), |(n, _)| format!("line {n}: "))
}

/// The `v x y z` lines of a file without faces (a point cloud, common as hull input).
fn point_cloud(path: &Path, bytes: &[u8]) -> Result<Vec<DVec3>, MeshError> {
    let text = String::from_utf8_lossy(bytes);
    let mut points = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        if words.next() != Some("v") {
            continue;
        }
        let values: Vec<f64> = words.take(3).filter_map(|w| w.parse().ok()).collect();
        if values.len() < 3 {
            return Err(MeshError::BadVertex {
                path: path.to_path_buf(),
                line: number + 1,
                text: line.trim().to_string(),
            });
        }
        points.push(DVec3::new(values[0], values[1], values[2]));
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::AffineDimension;

    fn import(text: &str) -> Result<ImportedMesh, MeshError> {
        import_obj_bytes(Path::new("test.obj"), text.as_bytes())
    }

    const CUBE: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
        f 1 2 3 4\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

    /// tobj's "face parse error" and "face vertex index out of bounds" name no
    /// line; the refusal does.
    #[test]
    fn a_bad_face_is_refused_with_its_line() {
        for (text, line) in [
            (format!("{CUBE}f 1 2 x\n"), 15),
            (format!("{CUBE}f 1 2 99\n"), 15),
        ] {
            let err = import(&text).unwrap_err().to_string();
            assert!(err.contains(&format!("line {line}")), "{err}");
        }
    }

    #[test]
    fn cube_is_convex_with_eight_hull_vertices() {
        let m = import(CUBE).unwrap();
        assert_eq!(m.report.hull_vertices, 8);
        assert_eq!(m.report.input_faces, 12);
        assert_eq!(m.report.convex, Some(true));
        assert!(!m.report.is_flat());
    }

    #[test]
    fn interior_vertex_makes_it_non_convex() {
        let text = format!("{CUBE}v 0.5 0.5 0.5\nf 1 2 9\n");
        let m = import(&text).unwrap();
        assert_eq!(m.report.convex, Some(false));
        assert_eq!(m.report.hull_vertices, 8);
    }

    #[test]
    fn bad_inputs_give_clear_errors() {
        assert!(matches!(import(""), Err(MeshError::Empty { .. })));
        let short = import("v 0 0 0\nv 1 0\n");
        assert!(
            matches!(
                short,
                Err(MeshError::BadVertex { line: 2, .. }) | Err(MeshError::Parse { .. })
            ),
            "{short:?}"
        );
        let nan = import("v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
        assert!(
            matches!(
                nan,
                Err(MeshError::Shape { .. }) | Err(MeshError::Parse { .. })
            ),
            "{nan:?}"
        );
        assert!(import("this is not an obj\nf 1 2 3\n").is_err());
        assert!(matches!(
            load_obj(Path::new("/no/such/file.obj")),
            Err(MeshError::Missing { .. })
        ));
    }

    /// A box with the given corner coordinates along x, y and z, as OBJ text.
    fn box_obj(x: f64, y: f64, z: f64) -> String {
        let mut text = String::new();
        for i in 0..8 {
            let c = |bit: usize, v: f64| if i & bit == 0 { 0.0 } else { v };
            text += &format!("v {} {} {}\n", c(1, x), c(2, y), c(4, z));
        }
        text + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n"
    }

    #[test]
    fn needle_boxes_keep_eight_vertices_and_six_faces() {
        for length in [100.0, 1e4, 1e6] {
            let m = import(&box_obj(length, 0.01, 0.01)).unwrap();
            let r = &m.report;
            assert_eq!(
                (r.hull_vertices, r.hull_faces, r.hull_triangles),
                (8, 6, 12)
            );
            assert_eq!(r.convex, Some(true), "{r}");
            assert_eq!(r.dimension, AffineDimension::Solid);
            let text = r.to_string();
            assert!(
                text.contains("8 vertices, 6 faces (12 triangles)"),
                "{text}"
            );
            assert!(text.contains("thin"), "{text}");
            assert!(text.contains("hull path"), "{text}");
        }
    }

    #[test]
    fn a_point_cloud_is_the_hull_of_its_points() {
        let m = import("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.1 0.1 0.1\n").unwrap();
        assert_eq!(m.report.input_faces, 0);
        assert_eq!(m.report.hull_vertices, 4);
        assert_eq!(m.report.hull_faces, 4);
        assert!(m.report.to_string().contains("point cloud"));
    }

    #[test]
    fn coordinates_that_overflow_are_refused_with_the_file_and_point() {
        let e =
            import("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1e308 1e308 1e308\nf 1 2 5\nf 3 4 5\n")
                .unwrap_err()
                .to_string();
        assert!(
            e.contains("test.obj") && e.contains("1e308") && e.contains("overflow"),
            "{e}"
        );
    }

    #[test]
    fn flat_mesh_is_a_polygon() {
        let m =
            import("v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nv 1 0.5 0\nf 1 2 3\nf 1 3 4\nf 2 3 5\n")
                .unwrap();
        assert!(m.report.is_flat());
        assert_eq!(m.report.hull_vertices, 4);
        assert_eq!(m.report.dimension, AffineDimension::Polygon);
    }
}
