//! A triangle mesh as engines hold one (parry's `TriMesh`, Coal's and FCL's `BVHModel`,
//! the URDF meshes MoveIt and Pinocchio check): any triangles, convex or not, open or
//! closed, queried as the surface they make (as those engines query it), with the
//! topology the internal-edge analysis reads: which triangle lies across each edge.
//!
//! Vertices at exactly the same position are one vertex for the topology (an STL file
//! repeats every vertex once per triangle), so neighbours are found across soups too.

use std::collections::HashMap;

use glam::DVec3;

use crate::shape::Aabb;

/// What lies across one edge of a triangle. Edge `k` of a triangle runs from its vertex
/// `k` to its vertex `k + 1` (mod 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Across {
    /// Nothing: the edge is on the mesh's rim (an open mesh), or belongs to a triangle
    /// with two corners at one point (collapsed to a segment: it joins nothing).
    Boundary,
    /// The triangle `triangle`, through its edge `edge`.
    Triangle { triangle: u32, edge: u8 },
}

/// Why a list of vertices and triangles is not a mesh; each names the element at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TriMeshError {
    #[error("the mesh has no triangles")]
    NoTriangles,
    #[error("vertex {vertex} is not a finite point: ({}, {}, {})", value[0], value[1], value[2])]
    NonFinite { vertex: usize, value: [f64; 3] },
    #[error("triangle {triangle} names vertex {index}, but the mesh has {count} vertices (0 to {})", count.saturating_sub(1))]
    IndexOutOfRange {
        triangle: usize,
        index: u32,
        count: usize,
    },
    #[error(
        "the edge between vertices {a} and {b} belongs to {} triangles ({}); an edge of a surface belongs to one or two",
        triangles.len(),
        triangles.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
    )]
    NonManifoldEdge { a: u32, b: u32, triangles: Vec<u32> },
}

/// A triangle mesh with its edge topology, in its own frame.
#[derive(Clone, Debug, PartialEq)]
pub struct TriMesh {
    vertices: Vec<DVec3>,
    triangles: Vec<[u32; 3]>,
    /// For each vertex, the first vertex at exactly its position (the topology's vertex).
    welded: Vec<u32>,
    across: Vec<[Across; 3]>,
    /// The triangles around each topology vertex, built the first time a vertex's
    /// ring is asked for (a contact on a vertex of a large mesh).
    rings: Rings,
}

/// The triangles around each topology vertex, compressed: vertex `v`'s are
/// `triangles[offsets[v]..offsets[v + 1]]`, ascending. A cache: meshes compare equal
/// whether or not it is built.
#[derive(Clone, Debug, Default)]
struct Rings(std::sync::OnceLock<(Vec<u32>, Vec<u32>)>);

impl PartialEq for Rings {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl TriMesh {
    /// A mesh of `triangles` over `vertices` (indices into it). Refused: no triangles, a
    /// vertex that is not finite, an index out of range, an edge of three or more
    /// triangles. Open meshes, flat ones, degenerate triangles and repeated vertices are
    /// meshes.
    pub fn new(vertices: Vec<DVec3>, triangles: Vec<[u32; 3]>) -> Result<Self, TriMeshError> {
        let (mesh, mut fins) = Self::allowing_non_manifold_edges(vertices, triangles)?;
        if fins.is_empty() {
            return Ok(mesh);
        }
        Err(fins.swap_remove(0))
    }

    /// A mesh as [`TriMesh::new`] makes it, but an edge of three or more triangles (a
    /// "fin", which real robot meshes can have) is kept: it joins none of them (each
    /// triangle sees no neighbour across it, as on a rim), and it is returned, as the
    /// [`TriMeshError::NonManifoldEdge`] `new` would refuse, for the caller to warn about
    /// (lowest vertices first). The surface, and so every distance, is the same.
    pub fn allowing_non_manifold_edges(
        vertices: Vec<DVec3>,
        triangles: Vec<[u32; 3]>,
    ) -> Result<(Self, Vec<TriMeshError>), TriMeshError> {
        if triangles.is_empty() {
            return Err(TriMeshError::NoTriangles);
        }
        if let Some((vertex, v)) = vertices.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(TriMeshError::NonFinite {
                vertex,
                value: v.to_array(),
            });
        }
        for (triangle, t) in triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(TriMeshError::IndexOutOfRange {
                    triangle,
                    index,
                    count: vertices.len(),
                });
            }
        }
        let welded = weld(&vertices);
        let (across, fins) = topology(&triangles, &welded);
        let mesh = Self {
            vertices,
            triangles,
            welded,
            across,
            rings: Rings::default(),
        };
        Ok((mesh, fins))
    }

    /// The triangles with a corner at vertex `v`'s position (its topology vertex),
    /// ascending; the index is built once, on the first call.
    pub fn triangles_at(&self, v: u32) -> &[u32] {
        let (offsets, ring) = self.rings.0.get_or_init(|| {
            let n = self.vertices.len();
            let keys = |t: &[u32; 3]| {
                let mut k = t.map(|c| self.welded[c as usize]);
                k.sort_unstable();
                k
            };
            let mut counts = vec![0u32; n + 1];
            for t in &self.triangles {
                let k = keys(t);
                for (i, &key) in k.iter().enumerate() {
                    if i == 0 || k[i - 1] != key {
                        counts[key as usize + 1] += 1;
                    }
                }
            }
            for i in 0..n {
                counts[i + 1] += counts[i];
            }
            let mut next = counts.clone();
            let mut ring = vec![0u32; counts[n] as usize];
            for (index, t) in self.triangles.iter().enumerate() {
                let k = keys(t);
                for (i, &key) in k.iter().enumerate() {
                    if i == 0 || k[i - 1] != key {
                        ring[next[key as usize] as usize] = index as u32;
                        next[key as usize] += 1;
                    }
                }
            }
            (counts, ring)
        });
        let key = self.welded[v as usize] as usize;
        &ring[offsets[key] as usize..offsets[key + 1] as usize]
    }

    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The corners of triangle `i`.
    pub fn corners(&self, i: usize) -> [DVec3; 3] {
        self.triangles[i].map(|v| self.vertices[v as usize])
    }

    /// What lies across each edge of triangle `i`.
    pub fn across(&self, i: usize) -> [Across; 3] {
        self.across[i]
    }

    /// The topology's vertex of vertex `v` (the first vertex at its position).
    pub fn welded(&self, v: u32) -> u32 {
        self.welded[v as usize]
    }

    /// Whether every edge has a triangle across it (the surface encloses a volume).
    pub fn is_closed(&self) -> bool {
        self.across
            .iter()
            .flatten()
            .all(|a| matches!(a, Across::Triangle { .. }))
    }

    /// Triangle `i`'s bounding box.
    pub fn triangle_aabb(&self, i: usize) -> Aabb {
        let [p, q, r] = self.corners(i);
        Aabb {
            min: p.min(q).min(r),
            max: p.max(q).max(r),
        }
    }

    /// The unit normal of triangle `i` by the right-hand rule over its corners' order,
    /// or `None` for a degenerate triangle.
    pub fn normal(&self, i: usize) -> Option<DVec3> {
        let [p, q, r] = self.corners(i);
        (q - p).cross(r - p).try_normalize()
    }
}

/// Each vertex's first vertex at exactly its position (−0 and +0 alike).
fn weld(vertices: &[DVec3]) -> Vec<u32> {
    let mut first: HashMap<[u64; 3], u32> = HashMap::with_capacity(vertices.len());
    vertices
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let key = (*v + DVec3::ZERO).to_array().map(f64::to_bits);
            *first.entry(key).or_insert(i as u32)
        })
        .collect()
}

/// The triangle across every edge, pairing edges by their welded ends, and the edges
/// of three or more triangles (left joining nothing), lowest vertices first.
fn topology(triangles: &[[u32; 3]], welded: &[u32]) -> (Vec<[Across; 3]>, Vec<TriMeshError>) {
    let mut edges: HashMap<(u32, u32), Vec<(u32, u8)>> =
        HashMap::with_capacity(triangles.len() * 2);
    for (t, tri) in triangles.iter().enumerate() {
        let w = tri.map(|v| welded[v as usize]);
        if w[0] == w[1] || w[1] == w[2] || w[2] == w[0] {
            // A triangle collapsed to a segment or a point: its edges join nothing.
            continue;
        }
        for k in 0..3 {
            let (a, b) = (w[k], w[(k + 1) % 3]);
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((t as u32, k as u8));
        }
    }
    let mut across = vec![[Across::Boundary; 3]; triangles.len()];
    let mut fins = Vec::new();
    for ((a, b), sides) in edges {
        match sides.as_slice() {
            [_] => {}
            [(t, e), (u, f)] => {
                across[*t as usize][*e as usize] = Across::Triangle {
                    triangle: *u,
                    edge: *f,
                };
                across[*u as usize][*f as usize] = Across::Triangle {
                    triangle: *t,
                    edge: *e,
                };
            }
            _ => {
                let mut triangles: Vec<u32> = sides.iter().map(|(t, _)| *t).collect();
                triangles.sort_unstable();
                fins.push(TriMeshError::NonManifoldEdge { a, b, triangles });
            }
        }
    }
    fins.sort_by_key(|e| match e {
        TriMeshError::NonManifoldEdge { a, b, .. } => (*a, *b),
        _ => (u32::MAX, u32::MAX),
    });
    (across, fins)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron() -> (Vec<DVec3>, Vec<[u32; 3]>) {
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        let t = vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];
        (v, t)
    }

    #[test]
    fn a_closed_tetrahedron_has_a_neighbour_across_every_edge() {
        let (v, t) = tetrahedron();
        let mesh = TriMesh::new(v, t).unwrap();
        assert!(mesh.is_closed());
        // Edge 0 of triangle 1 (vertices 0→1) is edge 2 of triangle 0 (1→0).
        assert_eq!(
            mesh.across(1)[0],
            Across::Triangle {
                triangle: 0,
                edge: 2
            }
        );
    }

    /// The ring index lists, for every vertex, the triangles with a corner at its
    /// position (copies welded), as a search over every triangle does.
    #[test]
    fn the_triangles_around_a_vertex_are_every_triangle_at_its_position() {
        let (mut v, mut t) = tetrahedron();
        // A copy of vertex 0 used by a fifth triangle, as a soup stores it.
        v.push(DVec3::ZERO);
        v.push(DVec3::new(-1.0, 0.0, 0.0));
        v.push(DVec3::new(0.0, -1.0, -1.0));
        t.push([4, 5, 6]);
        let mesh = TriMesh::new(v.clone(), t.clone()).unwrap_or_else(|e| panic!("{e}"));
        for vertex in 0..v.len() as u32 {
            let key = mesh.welded(vertex);
            let every: Vec<u32> = (0..t.len() as u32)
                .filter(|&u| t[u as usize].iter().any(|&c| mesh.welded(c) == key))
                .collect();
            assert_eq!(
                mesh.triangles_at(vertex),
                every.as_slice(),
                "vertex {vertex}"
            );
        }
        assert_eq!(mesh.triangles_at(4), &[0, 1, 3, 4]);
        assert_eq!(
            mesh,
            TriMesh::new(v, t).unwrap(),
            "the index is no part of equality"
        );
    }

    #[test]
    fn a_soup_with_repeated_vertices_finds_its_neighbours() {
        // Two triangles of a square, each with its own copies of the shared corners
        // (as STL stores them), one copy written as −0.
        let v = vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(-0.0, 0.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::Y,
        ];
        let mesh = TriMesh::new(v, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
        assert_eq!(
            mesh.across(0)[2],
            Across::Triangle {
                triangle: 1,
                edge: 0
            }
        );
        assert!(!mesh.is_closed());
        assert_eq!(mesh.across(0)[0], Across::Boundary);
    }

    #[test]
    fn bad_meshes_are_refused_naming_the_element() {
        let (v, t) = tetrahedron();
        assert_eq!(
            TriMesh::new(v.clone(), vec![]),
            Err(TriMeshError::NoTriangles)
        );
        let mut nan = v.clone();
        nan[2].y = f64::NAN;
        let e = TriMesh::new(nan, t.clone()).unwrap_err();
        assert!(
            matches!(e, TriMeshError::NonFinite { vertex: 2, .. }),
            "{e}"
        );
        let mut out = t.clone();
        out[3][1] = 9;
        let e = TriMesh::new(v.clone(), out).unwrap_err();
        assert_eq!(
            e.to_string(),
            "triangle 3 names vertex 9, but the mesh has 4 vertices (0 to 3)"
        );
        // A fin: a third triangle on the edge 0–1.
        let mut fin = v.clone();
        fin.push(DVec3::new(0.5, -1.0, 0.0));
        let mut t3 = t;
        t3.push([0, 1, 4]);
        let e = TriMesh::new(fin, t3).unwrap_err();
        assert_eq!(
            e,
            TriMeshError::NonManifoldEdge {
                a: 0,
                b: 1,
                triangles: vec![0, 1, 4]
            }
        );
    }

    #[test]
    fn a_fin_can_be_kept_joining_nothing_and_is_named() {
        let (mut v, mut t) = tetrahedron();
        v.push(DVec3::new(0.5, -1.0, 0.0));
        t.push([0, 1, 4]);
        let (mesh, fins) = TriMesh::allowing_non_manifold_edges(v, t).unwrap();
        assert_eq!(
            fins,
            vec![TriMeshError::NonManifoldEdge {
                a: 0,
                b: 1,
                triangles: vec![0, 1, 4]
            }]
        );
        // Edge 0→1 is edge 2 of triangle 0, edge 0 of triangles 1 and 4: no neighbour.
        assert_eq!(mesh.across(0)[2], Across::Boundary);
        assert_eq!(mesh.across(1)[0], Across::Boundary);
        assert_eq!(mesh.across(4)[0], Across::Boundary);
        assert!(matches!(mesh.across(1)[1], Across::Triangle { .. }));
    }

    #[test]
    fn degenerate_triangles_are_kept_and_join_nothing() {
        // A collapsed triangle (two corners at x = 1) on the edge of a collinear one.
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::X, DVec3::new(2.0, 0.0, 0.0)];
        let mesh = TriMesh::new(v, vec![[0, 1, 2], [0, 1, 3]]).unwrap();
        assert_eq!(mesh.across(0), [Across::Boundary; 3]);
        assert_eq!(mesh.across(1)[0], Across::Boundary);
        assert_eq!(mesh.normal(1), None);
    }
}
