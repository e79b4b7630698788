//! A convex polyhedron grown one point at a time, with exact visibility tests: the
//! common core of the Quickhull builder and of EPA (whose polytope is the incremental
//! hull of its support points). Faces are triangles over indices into a point list the
//! caller owns and may append to; a face's neighbours are kept per edge, so adding a
//! point is: find the faces it sees, walk their horizon, fan new faces to it.

use glam::DVec3;

use super::orientation::height;

/// A triangle of the hull, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullFace {
    pub v: [usize; 3],
    /// The face across edge `i` (from `v[i]` to `v[(i + 1) % 3]`).
    pub across: [usize; 3],
    /// False once a later point has replaced it.
    pub alive: bool,
}

impl HullFace {
    pub fn edge(&self, i: usize) -> (usize, usize) {
        (self.v[i], self.v[(i + 1) % 3])
    }

    /// Exact sign of how far `p` lies outside this face's plane.
    pub fn height(&self, points: &[DVec3], p: DVec3) -> f64 {
        height(points[self.v[0]], points[self.v[1]], points[self.v[2]], p)
    }
}

/// What adding one point changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expansion {
    /// Faces the point saw (now dead).
    pub removed: Vec<usize>,
    /// The new faces, one per horizon edge, in horizon order.
    pub added: Vec<usize>,
    /// The horizon: edges (from, to) between a removed and a kept face.
    pub horizon: Vec<(usize, usize)>,
}

/// The faces of a convex polyhedron, dead ones included (indices stay valid).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IncrementalHull {
    pub faces: Vec<HullFace>,
    /// Work space of the visibility walk and the horizon, kept between points so that
    /// growing the hull does not allocate (EPA adds a point per expansion).
    seen: Vec<usize>,
    edges: Vec<(usize, usize, usize)>,
    ordered: Vec<(usize, usize, usize)>,
}

impl IncrementalHull {
    /// The tetrahedron on four points that span a volume, faces outward.
    pub fn tetrahedron(points: &[DVec3], seed: [usize; 4]) -> Self {
        let mut hull = Self::default();
        hull.reset_to_tetrahedron(points, seed);
        hull
    }

    /// This hull made the tetrahedron on `seed` again, its buffers kept (EPA reuses one
    /// hull from query to query: no allocation once they have grown).
    pub fn reset_to_tetrahedron(&mut self, points: &[DVec3], seed: [usize; 4]) {
        let [a, b, c, d] = seed;
        // Orient ABC so that D is inside (below it).
        let (b, c) = if height(points[a], points[b], points[c], points[d]) > 0.0 {
            (c, b)
        } else {
            (b, c)
        };
        let triangles = [[a, b, c], [a, d, b], [b, d, c], [c, d, a]];
        // Each face's neighbour across each of its edges, for these four triangles
        // (face 0's edge a→b is face 1's b→a, and so on; checked in the tests).
        const ACROSS: [[usize; 3]; 4] = [[1, 2, 3], [3, 2, 0], [1, 3, 0], [2, 1, 0]];
        self.faces.clear();
        // Room for a few dozen points' expansions (EPA's typical run) without regrowing.
        self.faces.reserve(64);
        self.faces
            .extend(triangles.iter().zip(ACROSS).map(|(v, across)| HullFace {
                v: *v,
                across,
                alive: true,
            }));
        for buffer in [&mut self.edges, &mut self.ordered] {
            buffer.clear();
            buffer.reserve(16);
        }
        self.seen.clear();
        self.seen.reserve(16);
    }

    pub fn alive(&self) -> impl Iterator<Item = (usize, &HullFace)> {
        self.faces.iter().enumerate().filter(|(_, f)| f.alive)
    }

    /// Adds `points[apex]`, which must lie strictly outside face `start`. `None` when the
    /// faces it sees do not end in one horizon loop (impossible with exact tests on a
    /// convex hull; the caller treats it as a broken hull).
    pub fn add_point(&mut self, points: &[DVec3], start: usize, apex: usize) -> Option<Expansion> {
        let mut expansion = Expansion::default();
        self.add_point_into(points, start, apex, &mut expansion)
            .then_some(expansion)
    }

    /// [`IncrementalHull::add_point`] writing into `out`'s buffers (reused: no
    /// allocation once they have grown); false when the horizon is broken.
    pub fn add_point_into(
        &mut self,
        points: &[DVec3],
        start: usize,
        apex: usize,
        out: &mut Expansion,
    ) -> bool {
        self.visible_from(points, start, points[apex], &mut out.removed);
        if !self.horizon_loop(&out.removed) {
            return false;
        }
        for &f in &out.removed {
            self.faces[f].alive = false;
        }
        let first = self.faces.len();
        let n = self.ordered.len();
        out.added.clear();
        out.horizon.clear();
        for k in 0..n {
            let (from, to, outer) = self.ordered[k];
            let id = first + k;
            if let Some(j) = (0..3).find(|&j| self.faces[outer].edge(j) == (to, from)) {
                self.faces[outer].across[j] = id;
            }
            self.faces.push(HullFace {
                v: [from, to, apex],
                across: [outer, first + (k + 1) % n, first + (k + n - 1) % n],
                alive: true,
            });
            out.added.push(id);
            out.horizon.push((from, to));
        }
        true
    }

    /// Faces that `p` lies strictly outside of, found by a walk from `start` (they form
    /// one connected patch on a convex surface), into `visible`.
    fn visible_from(&mut self, points: &[DVec3], start: usize, p: DVec3, visible: &mut Vec<usize>) {
        visible.clear();
        visible.push(start);
        self.seen.clear();
        self.seen.push(start);
        let mut i = 0;
        while i < visible.len() {
            let f = visible[i];
            i += 1;
            for &g in &self.faces[f].across {
                if self.seen.contains(&g) {
                    continue;
                }
                self.seen.push(g);
                if self.faces[g].height(points, p) > 0.0 {
                    visible.push(g);
                }
            }
        }
    }

    /// The horizon into `self.ordered`: edges of visible faces whose neighbour is not
    /// visible, ordered into one closed loop (each edge as the visible face orients it,
    /// with the face across). False when they do not close into one loop.
    fn horizon_loop(&mut self, visible: &[usize]) -> bool {
        self.edges.clear();
        for &f in visible {
            for i in 0..3 {
                let g = self.faces[f].across[i];
                if !visible.contains(&g) {
                    let (from, to) = self.faces[f].edge(i);
                    self.edges.push((from, to, g));
                }
            }
        }
        self.ordered.clear();
        if self.edges.len() < 3 {
            return false;
        }
        let first = self.edges.swap_remove(0);
        self.ordered.push(first);
        while !self.edges.is_empty() {
            let end = self.ordered[self.ordered.len() - 1].1;
            let Some(next) = self.edges.iter().position(|e| e.0 == end) else {
                return false;
            };
            let edge = self.edges.swap_remove(next);
            self.ordered.push(edge);
        }
        self.ordered[self.ordered.len() - 1].1 == first.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every face's neighbour across an edge holds that edge reversed, and every face
    /// is outward (the fourth point below it), whichever way the seed is wound.
    #[test]
    fn the_tetrahedrons_neighbours_share_their_edges_reversed() {
        let points = [
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            DVec3::splat(-1.0),
        ];
        for seed in [[0, 1, 2, 3], [0, 2, 1, 3], [4, 3, 1, 2], [1, 0, 3, 4]] {
            let hull = IncrementalHull::tetrahedron(&points, seed);
            assert_eq!(hull.faces.len(), 4);
            for (f, face) in hull.faces.iter().enumerate() {
                let inner = seed.iter().find(|i| !face.v.contains(i)).unwrap();
                assert!(
                    face.height(&points, points[*inner]) < 0.0,
                    "{seed:?} face {f}"
                );
                for i in 0..3 {
                    let (from, to) = face.edge(i);
                    let g = face.across[i];
                    assert_ne!(g, f);
                    let j = (0..3).find(|&j| hull.faces[g].edge(j) == (to, from));
                    assert!(j.is_some(), "{seed:?}: face {f} edge {i} not on face {g}");
                    assert_eq!(hull.faces[g].across[j.unwrap()], f);
                }
            }
        }
    }
}
