//! Convex polytopes from any finite point set: hull, vertex adjacency, and two support
//! strategies (brute-force scan and warm-started hill climbing).

use std::collections::HashMap;

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::error::ShapeError;
use super::{SupportCache, SupportMap};
use crate::parry_bridge;

/// How many dimensions the point set really spans. Lower-dimensional sets are valid
/// convex shapes (ALGORITHMS.md §8): a polygon, a segment, a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AffineDimension {
    Point,
    Segment,
    Polygon,
    Solid,
}

/// Which support routine answers for a polytope.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SupportStrategy {
    /// Scan every vertex; ties go to the first vertex in input order.
    BruteForce,
    /// Walk the vertex adjacency from the previous answer.
    HillClimb,
    /// Hill climbing above [`Polytope::HILL_CLIMB_THRESHOLD`] vertices (as Coal does).
    #[default]
    Auto,
}

/// A convex polytope stored by its extreme vertices (kept in input order, so that ties
/// in the support resolve like a brute-force scan of the input would).
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope {
    vertices: Vec<DVec3>,
    /// Triangles over `vertices` for drawing (a flat polygon is fanned).
    faces: Vec<[u32; 3]>,
    /// Compressed adjacency: neighbours of `v` are `adjacent[offsets[v]..offsets[v + 1]]`.
    offsets: Vec<u32>,
    adjacent: Vec<u32>,
    dimension: AffineDimension,
    strategy: SupportStrategy,
    /// Set when the hull builder refused a 3-D set and the shape scans its points.
    hull_fallback: bool,
}

/// Relative size below which an extent counts as zero when finding the dimension.
const FLATNESS_TOLERANCE: f64 = 1e-9;

impl Polytope {
    /// Above this many vertices `SupportStrategy::Auto` hill-climbs.
    pub const HILL_CLIMB_THRESHOLD: usize = 32;

    /// The convex hull of `points`. Refuses only empty input and non-finite coordinates.
    pub fn from_points(points: &[DVec3]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        if let Some((index, p)) = points.iter().enumerate().find(|(_, p)| !p.is_finite()) {
            return Err(ShapeError::NonFinitePoint {
                index,
                x: p.x,
                y: p.y,
                z: p.z,
            });
        }
        let unique = unique_in_order(points);
        Ok(match affine_frame(&unique) {
            Frame::Point => Self::point(unique[0]),
            Frame::Line { origin, axis } => Self::segment(&unique, origin, axis),
            Frame::Plane { origin, u, v } => Self::polygon(&unique, origin, u, v),
            Frame::Space => Self::solid(&unique),
        })
    }

    fn assemble(
        vertices: Vec<DVec3>,
        faces: Vec<[u32; 3]>,
        neighbour_lists: Vec<Vec<u32>>,
        dimension: AffineDimension,
        hull_fallback: bool,
    ) -> Self {
        let mut offsets = Vec::with_capacity(vertices.len() + 1);
        let mut adjacent = Vec::new();
        offsets.push(0);
        for list in &neighbour_lists {
            adjacent.extend_from_slice(list);
            offsets.push(adjacent.len() as u32);
        }
        Self {
            vertices,
            faces,
            offsets,
            adjacent,
            dimension,
            strategy: SupportStrategy::Auto,
            hull_fallback,
        }
    }

    fn point(p: DVec3) -> Self {
        Self::assemble(vec![p], vec![], vec![vec![]], AffineDimension::Point, false)
    }

    fn segment(points: &[DVec3], origin: DVec3, axis: DVec3) -> Self {
        let t = |p: &DVec3| (*p - origin).dot(axis);
        let (mut lo, mut hi) = (0, 0);
        for (i, p) in points.iter().enumerate() {
            if t(p) < t(&points[lo]) {
                lo = i;
            }
            if t(p) > t(&points[hi]) {
                hi = i;
            }
        }
        let (first, second) = (lo.min(hi), lo.max(hi));
        let vertices = vec![points[first], points[second]];
        Self::assemble(
            vertices,
            vec![],
            vec![vec![1], vec![0]],
            AffineDimension::Segment,
            false,
        )
    }

    fn polygon(points: &[DVec3], origin: DVec3, u: DVec3, v: DVec3) -> Self {
        let planar: Vec<[f64; 2]> = points
            .iter()
            .map(|p| [(*p - origin).dot(u), (*p - origin).dot(v)])
            .collect();
        let cycle = convex_hull_2d_indices(&planar);
        // Vertices in input order; the cycle gives adjacency and the fan for drawing.
        let mut sorted = cycle.clone();
        sorted.sort_unstable();
        let new_index: HashMap<usize, u32> = sorted
            .iter()
            .enumerate()
            .map(|(n, &i)| (i, n as u32))
            .collect();
        let vertices: Vec<DVec3> = sorted.iter().map(|&i| points[i]).collect();
        let ring: Vec<u32> = cycle.iter().map(|i| new_index[i]).collect();
        let m = ring.len();
        let mut neighbours = vec![Vec::new(); m];
        for (k, &a) in ring.iter().enumerate() {
            let b = ring[(k + 1) % m];
            if a != b && !neighbours[a as usize].contains(&b) {
                neighbours[a as usize].push(b);
                neighbours[b as usize].push(a);
            }
        }
        let mut faces = Vec::new();
        for k in 1..m.saturating_sub(1) {
            faces.push([ring[0], ring[k], ring[k + 1]]);
            faces.push([ring[0], ring[k + 1], ring[k]]);
        }
        Self::assemble(vertices, faces, neighbours, AffineDimension::Polygon, false)
    }

    fn solid(points: &[DVec3]) -> Self {
        let Ok((hull_points, triangles)) = parry_bridge::convex_hull(points) else {
            // The hull builder refused a thin but 3-D set: scanning still answers.
            return Self::assemble(
                points.to_vec(),
                vec![],
                vec![vec![]; points.len()],
                AffineDimension::Solid,
                true,
            );
        };
        let input_index = first_index_by_bits(points);
        // Map each hull vertex to its input position, then renumber in input order.
        let mut order: Vec<(usize, usize)> = hull_points
            .iter()
            .enumerate()
            .map(|(h, p)| (input_index.get(&bits(p)).copied().unwrap_or(usize::MAX), h))
            .collect();
        order.sort_unstable();
        let mut renumber = vec![0u32; hull_points.len()];
        for (n, &(_, h)) in order.iter().enumerate() {
            renumber[h] = n as u32;
        }
        let vertices: Vec<DVec3> = order.iter().map(|&(_, h)| hull_points[h]).collect();
        let faces: Vec<[u32; 3]> = triangles
            .iter()
            .map(|t| {
                [
                    renumber[t[0] as usize],
                    renumber[t[1] as usize],
                    renumber[t[2] as usize],
                ]
            })
            .collect();
        let mut neighbours = vec![Vec::new(); vertices.len()];
        for f in &faces {
            for (a, b) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
                if !neighbours[a as usize].contains(&b) {
                    neighbours[a as usize].push(b);
                }
                if !neighbours[b as usize].contains(&a) {
                    neighbours[b as usize].push(a);
                }
            }
        }
        Self::assemble(vertices, faces, neighbours, AffineDimension::Solid, false)
    }

    pub fn with_strategy(mut self, strategy: SupportStrategy) -> Self {
        self.strategy = strategy;
        self
    }

    pub fn set_strategy(&mut self, strategy: SupportStrategy) {
        self.strategy = strategy;
    }

    pub fn strategy(&self) -> SupportStrategy {
        self.strategy
    }

    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    pub fn dimension(&self) -> AffineDimension {
        self.dimension
    }

    /// True when the hull builder refused the set and support falls back to scanning.
    pub fn is_hull_fallback(&self) -> bool {
        self.hull_fallback
    }

    pub fn neighbours(&self, vertex: usize) -> &[u32] {
        &self.adjacent[self.offsets[vertex] as usize..self.offsets[vertex + 1] as usize]
    }

    /// Whether hill climbing is available (an adjacency graph exists).
    pub fn has_adjacency(&self) -> bool {
        !self.adjacent.is_empty()
    }

    fn uses_hill_climbing(&self) -> bool {
        self.has_adjacency()
            && match self.strategy {
                SupportStrategy::BruteForce => false,
                SupportStrategy::HillClimb => true,
                SupportStrategy::Auto => self.vertices.len() > Self::HILL_CLIMB_THRESHOLD,
            }
    }

    /// Index of the first vertex (in order) with the largest `⟨v, dir⟩`, and the
    /// number of vertices visited.
    pub fn support_index_brute_force(&self, dir: DVec3) -> (usize, u64) {
        let mut best = 0;
        let mut best_dot = self.vertices[0].dot(dir);
        for (i, v) in self.vertices.iter().enumerate().skip(1) {
            let d = v.dot(dir);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        (best, self.vertices.len() as u64)
    }

    /// Steepest-ascent walk over the vertex graph from `start`. On a plateau (neighbours
    /// of exactly equal value, a face orthogonal to `dir`) it searches the whole plateau
    /// for an exit before stopping, and at the top it returns the lowest-index vertex of
    /// the top face, the same vertex a brute-force scan picks.
    pub fn support_index_hill_climb(&self, dir: DVec3, start: usize) -> (usize, u64) {
        if !self.has_adjacency() {
            return self.support_index_brute_force(dir);
        }
        let mut current = start.min(self.vertices.len() - 1);
        let mut value = self.vertices[current].dot(dir);
        let mut visits = 1u64;
        loop {
            let mut next = None;
            let mut tied = false;
            for &n in self.neighbours(current) {
                visits += 1;
                let d = self.vertices[n as usize].dot(dir);
                if d > value {
                    value = d;
                    next = Some(n as usize);
                } else if d == value {
                    tied = true;
                }
            }
            if let Some(n) = next {
                current = n;
                continue;
            }
            if !tied {
                return (current, visits);
            }
            match self.search_plateau(dir, current, value, &mut visits) {
                PlateauExit::Higher(n, d) => {
                    current = n;
                    value = d;
                }
                PlateauExit::Top(lowest) => return (lowest, visits),
            }
        }
    }

    fn search_plateau(
        &self,
        dir: DVec3,
        start: usize,
        value: f64,
        visits: &mut u64,
    ) -> PlateauExit {
        let mut plateau = vec![start];
        let mut i = 0;
        while i < plateau.len() {
            let p = plateau[i];
            i += 1;
            for &n in self.neighbours(p) {
                let n = n as usize;
                *visits += 1;
                let d = self.vertices[n].dot(dir);
                if d > value {
                    return PlateauExit::Higher(n, d);
                }
                if d == value && !plateau.contains(&n) {
                    plateau.push(n);
                }
            }
        }
        PlateauExit::Top(plateau.into_iter().min().unwrap_or(start))
    }

    /// Centre of the vertices' bounding box.
    pub fn local_centre(&self) -> DVec3 {
        let (min, max) = self.vertices.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), v| (lo.min(*v), hi.max(*v)),
        );
        (min + max) * 0.5
    }
}

enum PlateauExit {
    Higher(usize, f64),
    Top(usize),
}

impl SupportMap for Polytope {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        self.vertices[self.support_index_brute_force(dir).0]
    }

    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        let (index, visits) = if self.uses_hill_climbing() {
            self.support_index_hill_climb(dir, cache.last_vertex)
        } else {
            self.support_index_brute_force(dir)
        };
        cache.last_vertex = index;
        cache.vertex_visits += visits;
        self.vertices[index]
    }
}

fn bits(p: &DVec3) -> [u64; 3] {
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

fn first_index_by_bits(points: &[DVec3]) -> HashMap<[u64; 3], usize> {
    let mut map = HashMap::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        map.entry(bits(p)).or_insert(i);
    }
    map
}

/// The points without exact repeats, first occurrences kept in order.
fn unique_in_order(points: &[DVec3]) -> Vec<DVec3> {
    let first = first_index_by_bits(points);
    points
        .iter()
        .enumerate()
        .filter(|(i, p)| first[&bits(p)] == *i)
        .map(|(_, p)| *p)
        .collect()
}

enum Frame {
    Point,
    Line { origin: DVec3, axis: DVec3 },
    Plane { origin: DVec3, u: DVec3, v: DVec3 },
    Space,
}

/// Finds the affine span of the points by furthest-point steps, with a tolerance
/// relative to the set's size.
fn affine_frame(points: &[DVec3]) -> Frame {
    let origin = points[0];
    let far = points
        .iter()
        .copied()
        .max_by(|a, b| {
            (*a - origin)
                .length_squared()
                .total_cmp(&(*b - origin).length_squared())
        })
        .unwrap_or(origin);
    let size = (far - origin).length();
    let tol = size * FLATNESS_TOLERANCE;
    if size == 0.0 {
        return Frame::Point;
    }
    let axis = (far - origin) / size;
    let off_line = |p: DVec3| {
        let d = p - origin;
        d - axis * d.dot(axis)
    };
    let side = points
        .iter()
        .map(|p| off_line(*p))
        .max_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))
        .unwrap_or(DVec3::ZERO);
    if side.length() <= tol {
        return Frame::Line { origin, axis };
    }
    let u = axis;
    let v = side.normalize();
    let normal = u.cross(v).normalize();
    let height = points
        .iter()
        .map(|p| (*p - origin).dot(normal).abs())
        .fold(0.0, f64::max);
    if height <= tol {
        return Frame::Plane { origin, u, v };
    }
    Frame::Space
}

/// Andrew's monotone chain: indices of the 2-D hull in counter-clockwise order, without
/// collinear points. Never empty for non-empty input.
fn convex_hull_2d_indices(points: &[[f64; 2]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        points[i][0]
            .total_cmp(&points[j][0])
            .then(points[i][1].total_cmp(&points[j][1]))
    });
    let cross = |o: usize, a: usize, b: usize| {
        let (o, a, b) = (points[o], points[a], points[b]);
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<usize> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(order.iter())
        } else {
            Box::new(order.iter().rev())
        };
        for &i in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], i) <= 0.0
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop();
    }
    if hull.is_empty() {
        hull.push(order[0]);
    }
    hull
}
