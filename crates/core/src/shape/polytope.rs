//! Convex polytopes from any finite point set: hull, vertex adjacency, and two support
//! strategies (brute-force scan and warm-started hill climbing).

use std::collections::{HashMap, HashSet};

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::coal_climb::{self, CoalWarmStarts, VertexGraph};
use super::direction_table::DirectionTable;
use super::error::ShapeError;
use super::hull::check::{bits, BitsHash};
use super::hull::span::{self, Span};
use super::hull::{self, HullSource};
use super::{SupportCache, SupportMap};

/// How many dimensions the point set really spans. Lower-dimensional sets are valid
/// convex shapes (docs/algorithms.md, "Hulls: thin, huge and far-away shapes"): a polygon,
/// a segment, a point.
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
    /// `vertices[adjacent[k]]` for every `k`: a climb step reads its neighbours'
    /// points in one contiguous run instead of one scattered load each.
    adjacent_points: Vec<DVec3>,
    dimension: AffineDimension,
    strategy: SupportStrategy,
    /// Which builder's hull passed the check, or why support scans the points.
    hull_source: HullSource,
    /// Centre of the vertices' bounding box, computed once (every query's first guess).
    centre: DVec3,
    /// Support vertices by direction cell, computed once: a climb whose direction
    /// turned far from the last one starts from its cell's vertex instead of the far
    /// side of the hull (empty below the hill-climbing threshold).
    direction_table: DirectionTable,
    /// Coal's own warm starts, read only where ties make Coal's answer depend on its
    /// path ([`coal_climb`]); empty below the hill-climbing threshold.
    coal_warm_starts: CoalWarmStarts,
    /// `8ε · max ‖v‖₁`: times `‖dir‖∞`, more than the rounding of a comparison of two
    /// `⟨v, dir⟩` (the climb's near ties).
    rounding_scale: f64,
}

/// Largest coordinate magnitude accepted. The simplex projection forms fourth powers of
/// lengths (`‖AB × AC‖²`), which must stay finite in f64: (2·√3·1e75)⁴ ≈ 2e303.
pub const MAX_COORDINATE: f64 = 1e75;

impl Polytope {
    /// Above this many vertices `SupportStrategy::Auto` hill-climbs.
    pub const HILL_CLIMB_THRESHOLD: usize = 32;

    /// The convex hull of `points`. Refuses only empty input, non-finite coordinates and
    /// coordinates beyond [`MAX_COORDINATE`], where f64 arithmetic would overflow.
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
        if let Some((index, p)) = points
            .iter()
            .enumerate()
            .find(|(_, p)| p.abs().max_element() > MAX_COORDINATE)
        {
            return Err(ShapeError::CoordinateTooLarge {
                index,
                x: p.x,
                y: p.y,
                z: p.z,
                limit: MAX_COORDINATE,
            });
        }
        let unique = unique_in_order(points);
        Ok(match span::affine_span(&unique) {
            Span::Point => Self::point(unique[0]),
            Span::Line { axis } => Self::segment(&unique, axis),
            Span::Plane { dropped } => Self::polygon(&unique, dropped),
            Span::Space => Self::solid(&unique),
        })
    }

    /// The triangle `corners` as [`Self::from_points`] builds it, to the bit, without the
    /// general path's hashing and sorting when the corners are finite, distinct and not
    /// collinear (a mesh query builds one per sub-pair it runs); other input takes the
    /// general path.
    pub fn triangle(corners: [DVec3; 3]) -> Result<Self, ShapeError> {
        let [a, b, c] = corners;
        let proper = corners
            .iter()
            .all(|p| p.is_finite() && p.abs().max_element() <= MAX_COORDINATE)
            && a != b
            && b != c
            && a != c
            && !span::collinear(a, b, c);
        if !proper {
            return Self::from_points(&corners);
        }
        // As `affine_span` chooses the projection: the normal's largest component (the
        // cross product of any two edges from a corner is the same up to an exact sign).
        let normal = (b - a).cross(c - a);
        let ring = span::triangle_ring(&corners, normal.abs().max_position()).map(|k| k as u32);
        Ok(Self::assemble(
            corners.to_vec(),
            vec![[ring[0], ring[1], ring[2]], [ring[0], ring[2], ring[1]]],
            (vec![0, 2, 4, 6], vec![1, 2, 0, 2, 0, 1]),
            AffineDimension::Polygon,
            HullSource::LowDimension,
        ))
    }

    /// A polytope from its vertices, faces and adjacency (compressed: the neighbours
    /// of `v` are `adjacent[offsets[v]..offsets[v + 1]]`, ascending, as Coal's
    /// `std::set`s keep them: where ties leave the climb a choice, the order decides it).
    fn assemble(
        vertices: Vec<DVec3>,
        faces: Vec<[u32; 3]>,
        (offsets, adjacent): (Vec<u32>, Vec<u32>),
        dimension: AffineDimension,
        hull_source: HullSource,
    ) -> Self {
        let (min, max) = vertices.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), v| (lo.min(*v), hi.max(*v)),
        );
        let adjacent_points = adjacent.iter().map(|&n| vertices[n as usize]).collect();
        let largest = vertices
            .iter()
            .map(|v| v.abs().element_sum())
            .fold(0.0, f64::max);
        let mut polytope = Self {
            vertices,
            faces,
            offsets,
            adjacent,
            adjacent_points,
            dimension,
            strategy: SupportStrategy::Auto,
            hull_source,
            centre: (min + max) * 0.5,
            direction_table: DirectionTable::default(),
            coal_warm_starts: CoalWarmStarts::default(),
            rounding_scale: 8.0 * f64::EPSILON * largest,
        };
        if polytope.has_adjacency() && polytope.vertices.len() > Self::HILL_CLIMB_THRESHOLD {
            // Each cell's guess is the climb from the previous cell's answer.
            let blocks = Blocks::of(&polytope.vertices);
            let mut last = 0;
            polytope.direction_table = DirectionTable::build(|dir| {
                let guess = polytope.support_index_hill_climb(dir, last).0;
                last = blocks.first_max(&polytope.vertices, dir, guess);
                last
            });
            polytope.coal_warm_starts = CoalWarmStarts::build(&polytope);
        }
        polytope
    }

    /// Where a climb along `dir` starts: the last support vertex when `dir` is close to
    /// the last direction, else the vertex of its direction cell. Also where Coal's
    /// climb would start ([`CoalStart`]), for the rare supports that need it.
    #[inline(always)]
    fn climb_start(&self, dir: DVec3, cache: &mut SupportCache) -> (usize, CoalStart) {
        let last = cache.last_direction;
        let cosine_bound = coal_climb::WARM_START_COSINE * coal_climb::WARM_START_COSINE;
        let dot = last.dot(dir);
        let (close, coal) = if last == DVec3::ZERO {
            (cache.hinted, CoalStart::LastVertex)
        } else {
            let close = dot > 0.0
                && dot * dot >= cosine_bound * last.length_squared() * dir.length_squared();
            (
                close,
                if close {
                    CoalStart::LastVertex
                } else {
                    CoalStart::WarmStart
                },
            )
        };
        cache.last_direction = dir;
        if close {
            return (cache.last_vertex, coal);
        }
        let start = self
            .direction_table
            .start_for(dir)
            .unwrap_or(cache.last_vertex);
        (start, coal)
    }

    fn point(p: DVec3) -> Self {
        Self::assemble(
            vec![p],
            vec![],
            lists_to_offsets(vec![vec![]]),
            AffineDimension::Point,
            HullSource::LowDimension,
        )
    }

    fn segment(points: &[DVec3], axis: usize) -> Self {
        let (lo, hi) = span::segment_ends(points, axis);
        let (first, second) = (lo.min(hi), lo.max(hi));
        let vertices = vec![points[first], points[second]];
        Self::assemble(
            vertices,
            vec![],
            lists_to_offsets(vec![vec![1], vec![0]]),
            AffineDimension::Segment,
            HullSource::LowDimension,
        )
    }

    fn polygon(points: &[DVec3], dropped: usize) -> Self {
        let cycle = span::planar_hull_indices(points, dropped);
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
        Self::assemble(
            vertices,
            faces,
            lists_to_offsets(neighbours),
            AffineDimension::Polygon,
            HullSource::LowDimension,
        )
    }

    fn solid(points: &[DVec3]) -> Self {
        let hull = hull::solid_hull(points);
        if hull.triangles.is_empty() {
            // No hull could be trusted: scanning the points still answers exactly.
            return Self::assemble(
                points.to_vec(),
                vec![],
                (vec![0; points.len() + 1], Vec::new()),
                AffineDimension::Solid,
                hull.source,
            );
        }
        // Hull vertices renumbered in input order (the brute-force tie rule): marked,
        // then read in order (a sort of every corner cost 5 ms on 50 000 vertices).
        let mut renumber = vec![u32::MAX; points.len()];
        for &i in hull.triangles.iter().flatten() {
            renumber[i] = 0;
        }
        let mut vertices = Vec::new();
        for (i, slot) in renumber.iter_mut().enumerate() {
            if *slot == 0 {
                *slot = vertices.len() as u32;
                vertices.push(points[i]);
            }
        }
        let faces: Vec<[u32; 3]> = hull
            .triangles
            .iter()
            .map(|t| t.map(|i| renumber[i]))
            .collect();
        let adjacency = face_adjacency(vertices.len(), &faces);
        Self::assemble(
            vertices,
            faces,
            adjacency,
            AffineDimension::Solid,
            hull.source,
        )
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

    /// True when no hull passed the check and support scans every point.
    pub fn is_hull_fallback(&self) -> bool {
        matches!(self.hull_source, HullSource::Scan { .. })
    }

    /// Which hull builder's answer this polytope uses, or why it scans its points.
    pub fn hull_source(&self) -> &HullSource {
        &self.hull_source
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

    /// First-improvement walk over the vertex graph from `start`: it moves to the first
    /// neighbour (in adjacency order) higher than the current vertex, as Coal's climb
    /// does. On a convex polytope every vertex below the top has a higher neighbour, so
    /// the walk ends at the top whichever higher neighbour it takes; evaluating all
    /// neighbours to take the steepest cost 12–17 % of a mesh-hull query for no fewer
    /// steps. On a plateau (neighbours of exactly equal value, a face orthogonal to
    /// `dir`) it searches the whole plateau for an exit before stopping, and at the top
    /// it returns the lowest-index vertex of the top face, the same vertex a brute-force
    /// scan picks. A neighbour lower by no more than the comparison's rounding counts as
    /// a tie: where points lie a rounding apart (a vertex found several times), the
    /// rounded values can make one of them look like a top while the top is further on.
    #[inline(always)]
    pub fn support_index_hill_climb(&self, dir: DVec3, start: usize) -> (usize, u64) {
        let (index, visits, _) = self.climb(dir, start);
        (index, visits)
    }

    /// [`Polytope::support_index_hill_climb`], and how many vertices share the top's
    /// exact value (2: an edge orthogonal to `dir`; more: a face).
    #[inline(always)]
    fn climb(&self, dir: DVec3, start: usize) -> (usize, u64, usize) {
        if !self.has_adjacency() {
            let (index, visits) = self.support_index_brute_force(dir);
            return (index, visits, 1);
        }
        let rounding = self.rounding_scale * dir.abs().max_element();
        let mut current = start.min(self.vertices.len() - 1);
        let mut value = self.vertices[current].dot(dir);
        let mut visits = 1u64;
        loop {
            let range = self.offsets[current] as usize..self.offsets[current + 1] as usize;
            let (neighbours, points) =
                (&self.adjacent[range.clone()], &self.adjacent_points[range]);
            let (mut best, mut best_value, mut tied) = (current, value, false);
            for (&n, point) in neighbours.iter().zip(points) {
                let d = point.dot(dir);
                visits += 1;
                if d > best_value {
                    best = n as usize;
                    best_value = d;
                    break;
                }
                tied |= d >= value - rounding;
            }
            if best != current {
                current = best;
                value = best_value;
                continue;
            }
            if !tied {
                return (current, visits, 1);
            }
            match self.search_plateau(dir, current, value, rounding, &mut visits) {
                PlateauExit::Higher(n, d) => {
                    current = n;
                    value = d;
                }
                PlateauExit::Top(lowest, exact_ties) => return (lowest, visits, exact_ties),
            }
        }
    }

    /// The vertices around `start` within `rounding` below its `value` (its plateau):
    /// the first neighbour of one of them higher than `value`, or, if none, the
    /// lowest-index plateau vertex of exactly `value` (the scan's choice).
    #[cold]
    #[inline(never)]
    fn search_plateau(
        &self,
        dir: DVec3,
        start: usize,
        value: f64,
        rounding: f64,
        visits: &mut u64,
    ) -> PlateauExit {
        let mut plateau = vec![start];
        // Membership by bitmap: a flat face of a CAD mesh holds hundreds of vertices,
        // and a linear `contains` made the search quadratic in them.
        let mut on_plateau = vec![0u64; self.vertices.len().div_ceil(64)];
        on_plateau[start / 64] |= 1 << (start % 64);
        let mut top = start;
        let mut exact_ties = 1;
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
                let bit = 1u64 << (n % 64);
                if d >= value - rounding && on_plateau[n / 64] & bit == 0 {
                    on_plateau[n / 64] |= bit;
                    plateau.push(n);
                    if d == value {
                        top = top.min(n);
                        exact_ties += 1;
                    }
                }
            }
        }
        PlateauExit::Top(top, exact_ties)
    }

    /// Centre of the vertices' bounding box.
    pub fn local_centre(&self) -> DVec3 {
        self.centre
    }

    /// A bound on every vertex's distance from the shape's origin (the largest 1-norm,
    /// kept for the climb's tie rounding): the size a run's round-off is measured by.
    pub fn extent(&self) -> f64 {
        self.rounding_scale / (8.0 * f64::EPSILON)
    }
}

/// Where Coal's climb starts: its last support vertex (the direction is close to the
/// last one, or the first of a query: the caller's hint), or its best warm start.
#[derive(Clone, Copy)]
enum CoalStart {
    LastVertex,
    WarmStart,
}

impl VertexGraph for Polytope {
    fn point(&self, vertex: usize) -> DVec3 {
        self.vertices[vertex]
    }
    fn neighbours(&self, vertex: usize) -> &[u32] {
        Polytope::neighbours(self, vertex)
    }
    fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
}

enum PlateauExit {
    Higher(usize, f64),
    /// The lowest-index vertex of the top's exact value, and how many share it.
    Top(usize, usize),
}

impl SupportMap for Polytope {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        self.vertices[self.support_index_brute_force(dir).0]
    }

    /// Inlined into the solver's loop: called, it would take `dir` through memory, and
    /// reading that back across the halves of the caller's store stalls the core.
    #[inline(always)]
    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        let (index, visits) = if self.uses_hill_climbing() {
            let (start, coal_start) = self.climb_start(dir, cache);
            match self.climb(dir, start) {
                // Tied vertices at the top (an edge or a face orthogonal to `dir`):
                // Coal's answer depends on its path, so its climb is replayed.
                (_, visits, ties) if ties >= 2 => {
                    let hint = match coal_start {
                        CoalStart::LastVertex => cache.last_vertex,
                        CoalStart::WarmStart => {
                            self.coal_warm_starts.best(dir).unwrap_or(cache.last_vertex)
                        }
                    };
                    let (coal, more) = coal_climb::climb(self, dir, hint);
                    (coal, visits + more)
                }
                (index, visits, _) => (index, visits),
            }
        } else {
            self.support_index_brute_force(dir)
        };
        cache.last_vertex = index;
        cache.vertex_visits += visits;
        self.vertices[index]
    }
}

/// Neighbour lists, each sorted ascending, as the compressed adjacency.
fn lists_to_offsets(lists: Vec<Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = Vec::with_capacity(lists.len() + 1);
    let mut adjacent = Vec::new();
    offsets.push(0);
    for mut list in lists {
        list.sort_unstable();
        adjacent.extend_from_slice(&list);
        offsets.push(adjacent.len() as u32);
    }
    (offsets, adjacent)
}

/// The vertex adjacency of triangles over `vertex_count` vertices, compressed, each
/// vertex's neighbours ascending and distinct: both ends of every edge listed by
/// counting, then each vertex's short run sorted and deduplicated in place. (Lists
/// grown with a `contains` test took 17 ms on a 50 000-vertex hull.)
fn face_adjacency(vertex_count: usize, faces: &[[u32; 3]]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; vertex_count + 1];
    for f in faces {
        for &v in f {
            start[v as usize + 1] += 2;
        }
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut listed = vec![0u32; start[vertex_count] as usize];
    for f in faces {
        for (a, b) in [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])] {
            listed[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            listed[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
    }
    let mut offsets = Vec::with_capacity(vertex_count + 1);
    offsets.push(0u32);
    let mut kept = 0usize;
    for v in 0..vertex_count {
        let (from, to) = (start[v] as usize, start[v + 1] as usize);
        listed[from..to].sort_unstable();
        let mut last = None;
        for k in from..to {
            let n = listed[k];
            if last != Some(n) {
                listed[kept] = n;
                kept += 1;
                last = Some(n);
            }
        }
        offsets.push(kept as u32);
    }
    listed.truncate(kept);
    (offsets, listed)
}

/// The vertices grouped by a coarse grid cell, each group with its bounding box: the
/// direction table's 384 scans skip every group whose box cannot reach the best value
/// found so far, so they read a few groups near the top instead of every vertex (a
/// plain scan of 50 000 vertices per direction took 20–30 ms).
struct Blocks {
    /// Vertex indices, grouped; `x`, `y`, `z` are their coordinates in that order.
    order: Vec<u32>,
    x: Vec<f64>,
    y: Vec<f64>,
    z: Vec<f64>,
    /// Group `g` is `order[start[g]..start[g + 1]]`, inside `[lo[g], hi[g]]`.
    start: Vec<u32>,
    lo: Vec<DVec3>,
    hi: Vec<DVec3>,
}

impl Blocks {
    fn of(vertices: &[DVec3]) -> Self {
        let (min, max) = vertices.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), v| (lo.min(*v), hi.max(*v)),
        );
        // About eight vertices a cell if they filled the box; a surface fills fewer.
        let per_axis = ((vertices.len() as f64 / 8.0).cbrt().ceil() as usize).clamp(1, 64);
        let extent = max - min;
        let cell_of = |v: DVec3| {
            let axis = |k: usize| {
                if extent[k] > 0.0 {
                    (((v[k] - min[k]) / extent[k] * per_axis as f64) as usize).min(per_axis - 1)
                } else {
                    0
                }
            };
            (axis(0) * per_axis + axis(1)) * per_axis + axis(2)
        };
        let cells = per_axis * per_axis * per_axis;
        let cell: Vec<usize> = vertices.iter().map(|v| cell_of(*v)).collect();
        let mut count = vec![0u32; cells + 1];
        for &c in &cell {
            count[c + 1] += 1;
        }
        for c in 0..cells {
            count[c + 1] += count[c];
        }
        let mut fill = count.clone();
        let mut order = vec![0u32; vertices.len()];
        for (i, &c) in cell.iter().enumerate() {
            order[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        let mut blocks = Self {
            x: order.iter().map(|&i| vertices[i as usize].x).collect(),
            y: order.iter().map(|&i| vertices[i as usize].y).collect(),
            z: order.iter().map(|&i| vertices[i as usize].z).collect(),
            order,
            start: vec![0],
            lo: Vec::new(),
            hi: Vec::new(),
        };
        for c in 0..cells {
            let (from, to) = (count[c] as usize, count[c + 1] as usize);
            if from == to {
                continue;
            }
            let (lo, hi) = blocks.order[from..to].iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), &i| (lo.min(vertices[i as usize]), hi.max(vertices[i as usize])),
            );
            blocks.lo.push(lo);
            blocks.hi.push(hi);
            blocks.start.push(to as u32);
        }
        blocks
    }

    /// [`Polytope::support_index_brute_force`]'s answer, the first vertex of the
    /// largest `⟨v, dir⟩`, starting from `guess` (any vertex; a good one skips more).
    /// The values are the scan's own (the same products summed in the same order), and
    /// a group is skipped only when its box's bound, summed the same way from the
    /// larger end product per axis, is below the best: rounding is monotonic, so no
    /// vertex's rounded value exceeds its box's rounded bound. A tie goes to the lower
    /// index, as the scan's first-found rule.
    fn first_max(&self, vertices: &[DVec3], dir: DVec3, guess: usize) -> usize {
        let mut best = vertices[guess].dot(dir);
        let mut at = guess as u32;
        for g in 0..self.lo.len() {
            let (lo, hi) = (self.lo[g], self.hi[g]);
            let reach = (lo.x * dir.x).max(hi.x * dir.x)
                + (lo.y * dir.y).max(hi.y * dir.y)
                + (lo.z * dir.z).max(hi.z * dir.z);
            if reach < best {
                continue;
            }
            for k in self.start[g] as usize..self.start[g + 1] as usize {
                let d = self.x[k] * dir.x + self.y[k] * dir.y + self.z[k] * dir.z;
                let i = self.order[k];
                if d > best || (d == best && i < at) {
                    best = d;
                    at = i;
                }
            }
        }
        at as usize
    }
}

/// The points without exact repeats (−0 and +0 are one coordinate), first occurrences
/// kept in order: an open-addressing table of indices (linear probing, the top bits
/// of a multiplicative hash of the bits), twice as many slots as points. The
/// standard (SipHash) map, queried twice per point, was 3 ms of the bunny's 36 000
/// points.
fn unique_in_order(points: &[DVec3]) -> Vec<DVec3> {
    if points.len() >= u32::MAX as usize / 4 {
        let mut seen: HashSet<[u64; 3], BitsHash> =
            HashSet::with_capacity_and_hasher(points.len(), BitsHash);
        return points
            .iter()
            .filter(|p| seen.insert(bits(**p)))
            .copied()
            .collect();
    }
    let slots_log2 = (2 * points.len())
        .max(16)
        .next_power_of_two()
        .trailing_zeros();
    let mask = (1usize << slots_log2) - 1;
    let mut slots = vec![u32::MAX; mask + 1];
    let mut unique: Vec<DVec3> = Vec::with_capacity(points.len());
    let mut keys: Vec<[u64; 3]> = Vec::with_capacity(points.len());
    for p in points {
        let key = bits(*p);
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = key[0].wrapping_mul(K);
        h = (h.rotate_left(26) ^ key[1]).wrapping_mul(K);
        h = (h.rotate_left(26) ^ key[2]).wrapping_mul(K);
        let mut slot = (h >> (64 - slots_log2)) as usize;
        loop {
            match slots[slot] {
                u32::MAX => {
                    slots[slot] = unique.len() as u32;
                    unique.push(*p);
                    keys.push(key);
                    break;
                }
                k if keys[k as usize] == key => break,
                _ => slot = (slot + 1) & mask,
            }
        }
    }
    unique
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triangle fast path builds what the general hull builds, to the bit: random
    /// triangles, triangles on a small integer grid (ties in the projection's order),
    /// and the degenerate ones (repeated, collinear, non-finite) it hands over.
    #[test]
    fn a_triangle_is_built_as_the_general_path_builds_it() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let grid = |rng: &mut crate::rng::SplitMix64| {
            DVec3::new(
                rng.range(-2.0, 2.0).round(),
                rng.range(-2.0, 2.0).round(),
                rng.range(-2.0, 2.0).round(),
            )
        };
        for k in 0..4000 {
            let corners: [DVec3; 3] = if k % 2 == 0 {
                std::array::from_fn(|_| {
                    DVec3::new(
                        rng.range(-1.0, 1.0),
                        rng.range(-1.0, 1.0),
                        rng.range(-1.0, 1.0),
                    ) * 10f64.powi(k % 7 - 3)
                })
            } else {
                std::array::from_fn(|_| grid(&mut rng))
            };
            let general = Polytope::from_points(&corners).unwrap();
            assert_eq!(Polytope::triangle(corners).unwrap(), general, "{corners:?}");
        }
        let p = DVec3::new(1.0, 2.0, 3.0);
        for corners in [
            [p, p, DVec3::ZERO],
            [DVec3::ZERO, p, 2.0 * p],
            [p, p, p],
            [DVec3::ZERO, DVec3::X, DVec3::new(f64::NAN, 0.0, 0.0)],
        ] {
            let general = Polytope::from_points(&corners);
            let fast = Polytope::triangle(corners);
            assert_eq!(format!("{fast:?}"), format!("{general:?}"));
        }
    }
    use crate::rng::SplitMix64;

    /// Lattice points: many vertices share the top along axis-aligned and diagonal
    /// directions, so the first-index rule is exercised.
    fn lattice(rng: &mut SplitMix64, n: usize) -> Vec<DVec3> {
        (0..n)
            .map(|_| rng.vector(1.0).map(|c| (c * 4.0).round()))
            .collect()
    }

    #[test]
    fn block_scans_pick_the_brute_force_vertex_from_any_guess() {
        let mut rng = SplitMix64::new(5);
        for n in [33, 40, 41, 100, 1001] {
            for set in [
                lattice(&mut rng, n),
                (0..n).map(|_| rng.unit_vector()).collect(),
            ] {
                let polytope = Polytope::assemble(
                    set.clone(),
                    vec![],
                    (vec![0; set.len() + 1], Vec::new()),
                    AffineDimension::Solid,
                    HullSource::Scan { why: String::new() },
                );
                let blocks = Blocks::of(&set);
                let mut directions: Vec<DVec3> = (0..200).map(|_| rng.vector(1.0)).collect();
                directions.extend((0..27).map(|k| {
                    DVec3::new(
                        (k % 3) as f64 - 1.0,
                        ((k / 3) % 3) as f64 - 1.0,
                        (k / 9) as f64 - 1.0,
                    )
                }));
                for dir in directions.into_iter().filter(|d| *d != DVec3::ZERO) {
                    assert_eq!(
                        blocks.first_max(&set, dir, rng.index(set.len())),
                        polytope.support_index_brute_force(dir).0,
                        "{n} points along {dir}"
                    );
                }
            }
        }
    }

    #[test]
    fn face_adjacency_lists_each_neighbour_once_ascending() {
        let faces = [[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]];
        let (offsets, adjacent) = face_adjacency(4, &faces);
        assert_eq!(offsets, [0, 3, 6, 9, 12]);
        assert_eq!(adjacent, [1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2]);
        let (offsets, adjacent) = face_adjacency(5, &faces[..1]);
        assert_eq!(offsets, [0, 2, 4, 6, 6, 6]);
        assert_eq!(adjacent, [1, 2, 0, 2, 0, 1]);
    }

    #[test]
    fn repeats_are_dropped_in_order_with_signed_zeros_as_one() {
        let a = DVec3::new(0.0, 1.0, 2.0);
        let b = DVec3::new(-0.0, 1.0, 2.0);
        let c = DVec3::new(3.0, -0.0, 1e-300);
        assert_eq!(unique_in_order(&[c, a, c, b, a, c]), vec![c, a]);
        let mut rng = SplitMix64::new(6);
        let points: Vec<DVec3> = (0..20_000)
            .map(|_| rng.vector(1.0).map(|c| (c * 8.0).round() * 1e-3))
            .collect();
        let mut seen = std::collections::HashSet::new();
        let expected: Vec<DVec3> = points
            .iter()
            .filter(|p| seen.insert(bits(**p)))
            .copied()
            .collect();
        assert!(expected.len() < 5000);
        assert_eq!(unique_in_order(&points), expected);
    }
}
