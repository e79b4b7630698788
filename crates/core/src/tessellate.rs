//! Triangle meshes of shapes and of `A ⊖ B`, in f64 and without Bevy: hull faces for
//! polytopes, the hull of support points over a subdivided icosahedron for everything
//! else (a tessellation of a smooth shape, or the "sampled" difference).

use std::collections::HashMap;

use glam::DVec3;

use crate::composite::{Composite, Pieces};
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::shape::implicit::ImplicitShape;
use crate::shape::{Polytope, Shape, SupportMap};

/// Above this many vertex pairs the exact difference hull is too slow to follow a drag.
pub const EXACT_DIFFERENCE_LIMIT: usize = 20_000;

/// Icosphere subdivision for sampled meshes (642 directions).
const SAMPLE_LEVEL: u32 = 3;

/// A triangle mesh with its drawable edges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriMesh {
    pub vertices: Vec<DVec3>,
    pub triangles: Vec<[u32; 3]>,
    /// Edges worth drawing: hull edges between faces that bend by more than a few degrees.
    pub edges: Vec<[u32; 2]>,
    /// Built from support samples rather than exactly.
    pub sampled: bool,
}

/// Unit directions at the vertices of an icosahedron subdivided `level` times.
pub fn sphere_directions(level: u32) -> Vec<DVec3> {
    icosphere(level).0
}

/// The subdivided icosahedron: unit vertices and outward triangles.
pub fn icosphere(level: u32) -> (Vec<DVec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<DVec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| DVec3::new(x, y, z).normalize())
    .collect();
    let mut faces: Vec<[usize; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..level {
        let mut midpoint: HashMap<(usize, usize), usize> = HashMap::new();
        let mut mid = |a: usize, b: usize, v: &mut Vec<DVec3>| {
            *midpoint.entry((a.min(b), a.max(b))).or_insert_with(|| {
                v.push(((v[a] + v[b]) * 0.5).normalize());
                v.len() - 1
            })
        };
        let mut next = Vec::with_capacity(faces.len() * 4);
        for [a, b, c] in faces {
            let (ab, bc, ca) = (mid(a, b, &mut v), mid(b, c, &mut v), mid(c, a, &mut v));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        faces = next;
    }
    let triangles = faces.iter().map(|f| f.map(|i| i as u32)).collect();
    (v, triangles)
}

/// Icosphere subdivision for ray-marched implicit bodies (2562 directions).
const MARCH_LEVEL: u32 = 4;

/// An implicit body's boundary, ray-marched from its interior point along icosphere
/// directions with a bisection on the (unsmoothed) constraints: every vertex lies on
/// the boundary (exact for a convex body, which is star-shaped about any interior
/// point). Where an intersection's members meet, the crease is found on every mesh edge
/// whose ends lie on different constraints and drawn as a line through those points.
pub fn implicit_mesh(shape: &ImplicitShape) -> TriMesh {
    let body = shape.body();
    let inside = shape.interior();
    let (lo, hi) = body.bounds();
    let reach = (hi - lo).length() * 1.01 + 1e-300;
    let boundary = |d: DVec3| {
        let (mut t_in, mut t_out) = (0.0, reach);
        for _ in 0..60 {
            let t = 0.5 * (t_in + t_out);
            if body.exact_violation(inside + d * t) <= 0.0 {
                t_in = t;
            } else {
                t_out = t;
            }
        }
        inside + d * t_in
    };
    // The constraint that holds a boundary point (the largest value there).
    let active = |p: DVec3| {
        body.constraints()
            .iter()
            .enumerate()
            .map(|(k, c)| (k, c.exact_value(p)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |(k, _)| k)
    };
    let (directions, triangles) = icosphere(MARCH_LEVEL);
    let mut vertices: Vec<DVec3> = directions.iter().map(|d| boundary(*d)).collect();
    let holds: Vec<usize> = vertices.iter().map(|p| active(*p)).collect();
    let mut edges = Vec::new();
    if body.constraints().len() > 1 {
        let mut crease_at: HashMap<(u32, u32), u32> = HashMap::new();
        let mut crease = |i: u32, j: u32, vertices: &mut Vec<DVec3>| -> Option<u32> {
            let (ki, kj) = (holds[i as usize], holds[j as usize]);
            if ki == kj {
                return None;
            }
            let key = (i.min(j), i.max(j));
            if let Some(v) = crease_at.get(&key) {
                return Some(*v);
            }
            // Along the arc from d_i to d_j, where the two constraints are equal.
            let (di, dj) = (directions[i as usize], directions[j as usize]);
            let gap = |s: f64| {
                let p = boundary((di * (1.0 - s) + dj * s).normalize());
                let (ci, cj) = (&body.constraints()[ki], &body.constraints()[kj]);
                (ci.exact_value(p) - cj.exact_value(p), p)
            };
            let (mut s0, mut s1) = (0.0, 1.0);
            for _ in 0..30 {
                let m = 0.5 * (s0 + s1);
                if gap(m).0 >= 0.0 {
                    s0 = m;
                } else {
                    s1 = m;
                }
            }
            vertices.push(gap(0.5 * (s0 + s1)).1);
            let v = (vertices.len() - 1) as u32;
            crease_at.insert(key, v);
            Some(v)
        };
        for t in &triangles {
            let points: Vec<u32> = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
                .into_iter()
                .filter_map(|(i, j)| crease(i, j, &mut vertices))
                .collect();
            if points.len() >= 2 {
                edges.push([points[0], points[1]]);
            }
        }
    }
    TriMesh {
        vertices,
        triangles,
        edges,
        sampled: true,
    }
}

/// A coarse mesh of a shape in its local frame (42 support samples for a smooth shape,
/// the hull for a polytope): drawn many times over, as in the construction of `A ⊖ B`.
pub fn coarse_mesh(shape: &Shape) -> TriMesh {
    match shape {
        Shape::Polytope(p) => polytope_mesh(p, false),
        _ => {
            let points: Vec<DVec3> = sphere_directions(1)
                .into_iter()
                .map(|d| shape.local_support(d))
                .collect();
            hull_mesh(&points, true)
        }
    }
}

/// The mesh of a shape in its local frame.
pub fn shape_mesh(shape: &Shape) -> TriMesh {
    match shape {
        Shape::Polytope(p) => polytope_mesh(p, false),
        Shape::Implicit(i) => implicit_mesh(i),
        _ => {
            let points: Vec<DVec3> = sphere_directions(SAMPLE_LEVEL)
                .into_iter()
                .map(|d| shape.local_support(d))
                .collect();
            hull_mesh(&points, true)
        }
    }
}

/// Up to this many triangles, a composite is drawn with every triangle's edges (the
/// internal edges a ghost contact catches on are the point); above it, only its rim and
/// creases.
pub const ALL_EDGES_LIMIT: usize = 5_000;

/// At most this many edges of a large composite are drawn (lines are redrawn every
/// frame).
pub const MAX_COMPOSITE_EDGES: usize = 20_000;

/// What a body is drawn as, in its local frame: a composite as what it is (a mesh's or a
/// height field's triangles, a compound's parts each tessellated at its pose), any other
/// body as its convex shape.
pub fn body_mesh(body: &crate::scene::Body) -> TriMesh {
    match &body.composite {
        Some(c) => composite_mesh(c),
        None => shape_mesh(&body.shape),
    }
}

/// A composite's triangles in its own frame: the mesh itself (every edge drawn up to
/// [`ALL_EDGES_LIMIT`] triangles, its rim and creases above), or the parts' meshes
/// placed at their poses.
pub fn composite_mesh(composite: &Composite) -> TriMesh {
    match composite.pieces() {
        Pieces::Triangles(mesh) => {
            let vertices = mesh.vertices().to_vec();
            let triangles = mesh.triangles().to_vec();
            let mut edges = if triangles.len() <= ALL_EDGES_LIMIT {
                let mut all: Vec<[u32; 2]> = triangles
                    .iter()
                    .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
                    .map(|[a, b]| [a.min(b), a.max(b)])
                    .collect();
                all.sort_unstable();
                all.dedup();
                all
            } else {
                feature_edges(&vertices, &triangles, 30.0)
            };
            edges.truncate(MAX_COMPOSITE_EDGES);
            TriMesh {
                vertices,
                triangles,
                edges,
                sampled: false,
            }
        }
        Pieces::Parts(parts) => {
            let mut whole = TriMesh::default();
            for part in parts {
                let mesh = shape_mesh(&part.shape);
                let offset = whole.vertices.len() as u32;
                whole.sampled |= mesh.sampled;
                whole
                    .vertices
                    .extend(mesh.vertices.iter().map(|v| part.pose.transform_point(*v)));
                whole
                    .triangles
                    .extend(mesh.triangles.iter().map(|t| t.map(|i| i + offset)));
                whole
                    .edges
                    .extend(mesh.edges.iter().map(|e| e.map(|i| i + offset)));
            }
            whole
        }
    }
}

/// The region a shape sweeps translating by `shift` from `pose` (world frame): the hull
/// of its mesh at both ends, which is the swept shape `B ⊕ [0, shift]` for a convex B.
pub fn swept_mesh(shape: &Shape, pose: &crate::pose::Pose, shift: DVec3) -> TriMesh {
    let local = shape_mesh(shape);
    let points: Vec<DVec3> = local
        .vertices
        .iter()
        .flat_map(|v| {
            let p = pose.transform_point(*v);
            [p, p + shift]
        })
        .collect();
    hull_mesh(&points, local.sampled)
}

/// The mesh of `A ⊖ B` in A's frame: exact for small polytope pairs, sampled otherwise.
pub fn difference_mesh(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> TriMesh {
    if let (Some(va), Some(vb)) = (a.vertex_points(), b.vertex_points()) {
        if va.len() * vb.len() <= EXACT_DIFFERENCE_LIMIT {
            let mut points = Vec::with_capacity(va.len() * vb.len());
            for pa in &va {
                for pb in &vb {
                    points.push(*pa - b_in_a.transform_point(*pb));
                }
            }
            return hull_mesh(&points, false);
        }
    }
    let mut md = MinkowskiDifference::new(a, b, *b_in_a);
    let points: Vec<DVec3> = sphere_directions(SAMPLE_LEVEL)
        .into_iter()
        .map(|d| md.support(d).w)
        .collect();
    hull_mesh(&points, true)
}

/// `A ⊖ B` of `scene`'s pair swept by `−v` (A's frame): the hull of the difference's
/// points and the same points moved by `−v`. B at `t·v` touches A when `t·v ∈ A ⊖ B`,
/// so this set holds the origin exactly when the shapes touch at some t ∈ [0, 1].
pub fn swept_difference_mesh(scene: &crate::scene::Scene, v: DVec3) -> TriMesh {
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    let tri = difference_mesh(a, b, &scene.b_in_a());
    let points: Vec<DVec3> = tri.vertices.iter().flat_map(|p| [*p, *p - v]).collect();
    hull_mesh(&points, tri.sampled)
}

pub fn hull_mesh(points: &[DVec3], sampled: bool) -> TriMesh {
    match Polytope::from_points(points) {
        Ok(p) => polytope_mesh(&p, sampled),
        Err(_) => TriMesh::default(),
    }
}

fn polytope_mesh(p: &Polytope, sampled: bool) -> TriMesh {
    let vertices = p.vertices().to_vec();
    let triangles = p.faces().to_vec();
    let mut edges = feature_edges(&vertices, &triangles, 10.0);
    if triangles.is_empty() {
        // A segment or a point: draw the segment.
        for v in 0..vertices.len() as u32 {
            for &n in p.neighbours(v as usize) {
                if v < n {
                    edges.push([v, n]);
                }
            }
        }
    }
    TriMesh {
        vertices,
        triangles,
        edges,
        sampled,
    }
}

/// Edges whose two faces differ in normal by more than `angle_degrees` (or that border
/// only one face, as on a flat polygon's rim).
fn feature_edges(vertices: &[DVec3], triangles: &[[u32; 3]], angle_degrees: f64) -> Vec<[u32; 2]> {
    let normal = |t: &[u32; 3]| {
        let (a, b, c) = (
            vertices[t[0] as usize],
            vertices[t[1] as usize],
            vertices[t[2] as usize],
        );
        (b - a).cross(c - a).normalize_or_zero()
    };
    let mut faces_of: HashMap<(u32, u32), Vec<DVec3>> = HashMap::new();
    for t in triangles {
        let n = normal(t);
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            faces_of.entry((a.min(b), a.max(b))).or_default().push(n);
        }
    }
    let cos_limit = angle_degrees.to_radians().cos();
    let mut edges: Vec<[u32; 2]> = faces_of
        .into_iter()
        .filter(|(_, normals)| {
            normals.len() != 2
                || normals[0].dot(normals[1]).abs() < cos_limit
                || normals[0].dot(normals[1]) < 0.0
        })
        .map(|((a, b), _)| [a, b])
        .collect();
    edges.sort_unstable();
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::Pose;
    use crate::shape::{Cuboid, Ellipsoid};

    #[test]
    fn a_lens_is_ray_marched_onto_its_boundary_with_its_crease() {
        use crate::shape::implicit::{Constraint, ImplicitBody, ImplicitShape, Primitive};
        use glam::DMat3;
        let ball = |x: f64| {
            Constraint::placed(
                Primitive::Quadric {
                    q: DMat3::IDENTITY,
                    b: DVec3::ZERO,
                    c: -1.0,
                },
                DMat3::IDENTITY,
                DVec3::new(x, 0.0, 0.0),
            )
        };
        let lens = ImplicitBody::new(vec![ball(0.0), ball(1.2)]).unwrap();
        let shape = ImplicitShape::new(lens, "lens").unwrap();
        let mesh = implicit_mesh(&shape);
        let body = shape.body();
        for p in &mesh.vertices {
            assert!(body.exact_violation(*p).abs() < 1e-9, "{p}");
        }
        // The crease is the circle x = 0.6, radius 0.8: every crease point on both spheres.
        assert!(mesh.edges.len() > 20);
        for [i, j] in &mesh.edges {
            for p in [mesh.vertices[*i as usize], mesh.vertices[*j as usize]] {
                assert!(
                    (p.x - 0.6).abs() < 1e-6 && (p.y.hypot(p.z) - 0.8).abs() < 1e-6,
                    "{p}"
                );
            }
        }
    }

    /// A mesh body is drawn as its triangles (not its hull), with its internal edges; a
    /// compound as its parts at their poses.
    #[test]
    fn composites_are_drawn_as_what_they_are() {
        let text = r#"Scene(version: 2, name: "c", bodies: [
            Body(shape: TriMesh(vertices: [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0.5, 0.5, -1)],
                triangles: [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)])),
            Body(shape: Compound(parts: [
                Member(shape: Box(half_extents: (0.5, 0.5, 0.5)), translation: (3, 0, 0)),
                Member(shape: Box(half_extents: (0.5, 0.5, 0.5)), translation: (-3, 0, 0)),
            ])),
        ], algorithms: ["gjk"])"#;
        let scene = crate::scene::Scene::parse(std::path::Path::new("c.ron"), text).unwrap();
        let bowl = body_mesh(&scene.bodies[0]);
        assert_eq!(bowl.triangles.len(), 4, "the four triangles, not a hull's");
        assert_eq!(bowl.edges.len(), 8, "rim and internal edges");
        let parts = body_mesh(&scene.bodies[1]);
        assert_eq!(parts.triangles.len(), 24);
        assert!(parts.vertices.iter().all(|v| v.x.abs() >= 2.5));
    }

    #[test]
    fn icosphere_has_the_expected_counts() {
        assert_eq!(sphere_directions(0).len(), 12);
        assert_eq!(sphere_directions(3).len(), 642);
    }

    #[test]
    fn box_mesh_has_eight_corners_and_twelve_edges() {
        let m = shape_mesh(&Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap()));
        assert_eq!(m.vertices.len(), 8);
        assert_eq!(m.triangles.len(), 12);
        assert_eq!(m.edges.len(), 12, "diagonals of square faces are not drawn");
    }

    #[test]
    fn difference_of_boxes_is_exact_and_of_ellipsoids_is_sampled() {
        let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let polytope = Shape::Polytope(Polytope::from_points(&shape_mesh(&cube).vertices).unwrap());
        let rel = RelativePose::between(
            &Pose::IDENTITY,
            &Pose::from_translation(DVec3::new(3.0, 0.0, 0.0)),
        );
        let exact = difference_mesh(&polytope, &polytope, &rel);
        assert!(!exact.sampled);
        assert_eq!(exact.vertices.len(), 8, "cube ⊖ cube is a cube of side 2");
        assert!(exact
            .vertices
            .iter()
            .all(|v| (v.x + 3.0).abs() <= 1.0 + 1e-12));
        let e = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(1.0, 0.5, 0.3)).unwrap());
        let sampled = difference_mesh(&e, &e, &rel);
        assert!(sampled.sampled && sampled.vertices.len() > 100);
    }
}
