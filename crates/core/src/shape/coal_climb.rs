//! Coal's hill climb (`getShapeSupportLog` of Coal 3, `support_functions.cpp`) replayed
//! exactly, for the supports whose answer depends on the path: a top of several vertices
//! of exactly equal value (an edge or a face orthogonal to the direction). Elsewhere the
//! top is unique and [`super::polytope::Polytope`]'s own faster climb finds the same
//! vertex. Matching Coal there keeps a solver's supports, and so its iteration counts,
//! equal to Coal's on hulls with ties.
//!
//! What decides Coal's path, and is reproduced here:
//! - the neighbour lists, which Coal keeps in `std::set`s: ascending vertex index (the
//!   polytope sorts its lists the same way, and keeps the input's vertex order);
//! - the hint: the last support vertex, or, when the direction turned by more than
//!   `acos 0.9` from the last one, the best of 14 warm starts that Coal computes once per
//!   hull (`ConvexBase::buildSupportWarmStart`) by climbing along ±x, ±y, ±z and the
//!   eight diagonals in turn.

use glam::DVec3;

/// Coal's `use_warm_start_threshold`: the cosine between the last and the new direction
/// below which the climb restarts from a warm start.
pub const WARM_START_COSINE: f64 = 0.9;

/// Coal's 14 warm starts of one hull: support vertices along fixed directions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoalWarmStarts {
    points: Vec<DVec3>,
    indices: Vec<u32>,
}

/// The vertex graph Coal climbs on: points and ascending neighbour lists.
pub trait VertexGraph {
    fn point(&self, vertex: usize) -> DVec3;
    fn neighbours(&self, vertex: usize) -> &[u32];
    fn vertex_count(&self) -> usize;
}

impl CoalWarmStarts {
    /// The warm starts as Coal builds them: one support state carried through the 14
    /// climbs, each starting from the previous answer, and the warm starts found so far
    /// already in use (Coal pushes each before the next climb).
    pub fn build(graph: &impl VertexGraph) -> Self {
        let mut starts = Self::default();
        let mut last_direction = DVec3::ZERO;
        let mut hint = 0usize;
        let mut directions = Vec::with_capacity(14);
        for axis in 0..3 {
            directions.push(DVec3::AXES[axis]);
            directions.push(-DVec3::AXES[axis]);
        }
        for diagonal in [
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(-1.0, 1.0, 1.0),
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(1.0, -1.0, 1.0),
        ] {
            directions.push(diagonal);
            directions.push(-diagonal);
        }
        for dir in directions {
            let normalised = dir.normalize();
            if last_direction != DVec3::ZERO && last_direction.dot(normalised) < WARM_START_COSINE {
                hint = starts.best(dir).unwrap_or(hint);
            }
            last_direction = normalised;
            hint = climb(graph, dir, hint).0;
            starts.points.push(graph.point(hint));
            starts.indices.push(hint as u32);
        }
        starts
    }

    /// Coal's choice of warm start along `dir`: the first of the largest `⟨p, dir⟩`.
    pub fn best(&self, dir: DVec3) -> Option<usize> {
        let (first, rest) = self.points.split_first()?;
        let mut best = first.dot(dir);
        let mut index = self.indices[0];
        for (p, &i) in rest.iter().zip(&self.indices[1..]) {
            let d = p.dot(dir);
            if d > best {
                best = d;
                index = i;
            }
        }
        Some(index as usize)
    }
}

/// Coal's climb from `hint`: each round scans the current vertex's unvisited neighbours
/// (ascending), moving to every one above the best so far, and, until the first strict
/// rise, to one of equal value too. Returns the support vertex and the vertices read.
pub fn climb(graph: &impl VertexGraph, dir: DVec3, hint: usize) -> (usize, u64) {
    let mut current = if hint < graph.vertex_count() { hint } else { 0 };
    let mut best = graph.point(current).dot(dir);
    let mut visited = vec![false; graph.vertex_count()];
    visited[current] = true;
    let (mut found, mut loose, mut visits) = (true, true, 1u64);
    while found {
        found = false;
        for &n in graph.neighbours(current) {
            let n = n as usize;
            if visited[n] {
                continue;
            }
            visited[n] = true;
            visits += 1;
            let d = graph.point(n).dot(dir);
            let better = if d > best {
                loose = false;
                true
            } else {
                loose && d == best
            };
            if better {
                best = d;
                current = n;
                found = true;
            }
        }
    }
    (current, visits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square pyramid's graph (apex 4 over the square 0..4 in z = 0).
    struct Pyramid {
        points: Vec<DVec3>,
        lists: Vec<Vec<u32>>,
    }

    impl VertexGraph for Pyramid {
        fn point(&self, vertex: usize) -> DVec3 {
            self.points[vertex]
        }
        fn neighbours(&self, vertex: usize) -> &[u32] {
            &self.lists[vertex]
        }
        fn vertex_count(&self) -> usize {
            self.points.len()
        }
    }

    fn pyramid() -> Pyramid {
        Pyramid {
            points: vec![
                DVec3::new(1.0, 1.0, 0.0),
                DVec3::new(-1.0, 1.0, 0.0),
                DVec3::new(-1.0, -1.0, 0.0),
                DVec3::new(1.0, -1.0, 0.0),
                DVec3::new(0.0, 0.0, 1.0),
            ],
            lists: vec![
                vec![1, 3, 4],
                vec![0, 2, 4],
                vec![1, 3, 4],
                vec![0, 2, 4],
                vec![0, 1, 2, 3],
            ],
        }
    }

    /// The answer on a tied top depends on where the climb comes from, as in Coal: from
    /// the apex it stops at the first base vertex of the top edge it reads; from a top
    /// vertex it walks along the tie before any strict rise.
    #[test]
    fn ties_resolve_by_path_like_coal() {
        let graph = pyramid();
        let down_x = DVec3::new(1.0, 0.0, -1.0); // top: the edge 0–3 (x = 1)
        assert_eq!(climb(&graph, down_x, 4).0, 0);
        assert_eq!(climb(&graph, down_x, 3).0, 0);
        assert_eq!(climb(&graph, down_x, 2).0, 3);
        assert_eq!(climb(&graph, DVec3::Z, 0).0, 4);
    }

    #[test]
    fn warm_starts_are_supports_along_their_directions() {
        let graph = pyramid();
        let starts = CoalWarmStarts::build(&graph);
        assert_eq!(starts.indices.len(), 14);
        assert_eq!(starts.best(DVec3::Z), Some(4));
        for (p, &i) in starts.points.iter().zip(&starts.indices) {
            assert_eq!(*p, graph.points[i as usize]);
        }
    }
}
