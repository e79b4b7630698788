//! parry3d-f64's 3-D hull (`parry3d_f64::transformation::try_convex_hull`, version
//! 0.31.1, Apache-2.0), ported step for step so that it returns the very same vertices
//! and triangles, bit for bit, in the same order, only faster.
//!
//! Why a port: parry allocates and zeroes a table as long as the input
//! (`fix_silhouette_topology`'s workspace) for every point it adds to the hull, so its
//! hull costs O(n) per added point on top of the real work: on 50 000 points on a
//! sphere (every point a vertex) that zeroing was half of parry's 0.32 s, on the
//! Stanford bunny a fifth. Here the table is allocated once and only the entries a
//! silhouette touched are reset. Every floating-point operation is parry's own, in the
//! same order, on parry's own vector type (its glam), and its helpers (covariance,
//! eigen decomposition, triangle area and degeneracy, bounding box) are called, not
//! copied. Sets that parry finds flat (its covariance has a zero eigenvalue) are handed
//! to parry itself. `tests/hull_parry_port.rs` compares the two on clouds, meshes and
//! degenerate sets.
//!
//! The hull matters beyond its shape: support ties and Coal's climb depend on which
//! triangles a coplanar face is cut into, and lessons and tests were written against
//! parry's triangulation.

use parry3d_f64::bounding_volume::details::local_point_cloud_aabb_ref;
use parry3d_f64::math::{MatExt, Real, Vector};
use parry3d_f64::shape::Triangle;
use parry3d_f64::transformation::ConvexHullError;

/// `parry3d_f64::math::DEFAULT_EPSILON`.
const DEFAULT_EPSILON: Real = Real::EPSILON;

/// What `parry3d_f64::transformation::try_convex_hull(points)` returns, computed the
/// same way: the hull's used points (parry's renumbering) and its triangles.
pub fn try_convex_hull(points: &[Vector]) -> Result<(Vec<Vector>, Vec<[u32; 3]>), ConvexHullError> {
    match hull(points)? {
        Hull::OverInput(mut idx) => {
            let mut vertices = points.to_vec();
            parry3d_f64::utils::remove_unused_points(&mut vertices, &mut idx[..]);
            Ok((vertices, idx))
        }
        Hull::Parry(vertices, idx) => Ok((vertices, idx)),
    }
}

/// parry's hull before it renumbers the used points.
pub enum Hull {
    /// Triangles over indices into the input (parry's hull of a set it sees as solid).
    OverInput(Vec<[u32; 3]>),
    /// parry's own answer for a set it sees as flat: its points and triangles.
    Parry(Vec<Vector>, Vec<[u32; 3]>),
}

/// [`try_convex_hull`] without the renumbering: a caller that wants input indices
/// (the check does) needs no search for its vertices among the input.
pub fn hull(points: &[Vector]) -> Result<Hull, ConvexHullError> {
    if points.len() < 3 {
        return Err(ConvexHullError::IncompleteInput);
    }
    let mut normalized_points = points.to_vec();
    normalize(&mut normalized_points);

    let mut undecidable_points = Vec::new();
    let mut triangles = match initial_mesh(&mut normalized_points, &mut undecidable_points)? {
        Some(facets) => facets,
        None => {
            // Flat to parry's eye: its own 0-, 1- or 2-D answer.
            return parry3d_f64::transformation::try_convex_hull(points)
                .map(|(vertices, idx)| Hull::Parry(vertices, idx));
        }
    };
    let points = &normalized_points[..];
    let mut silhouette = Vec::new();
    let mut removed_facets = Vec::new();
    let mut workspace = vec![0u32; points.len()];

    let mut i = 0;
    while i != triangles.len() {
        silhouette.clear();
        if !triangles[i].valid || triangles[i].affinely_dependent {
            i += 1;
            continue;
        }
        let pt_id = indexed_support_point_id(
            triangles[i].normal,
            points,
            triangles[i].visible_points.iter().copied(),
        );
        if let Some(point) = pt_id {
            triangles[i].valid = false;
            removed_facets.clear();
            removed_facets.push(i);
            for j in 0usize..3 {
                compute_silhouette(
                    triangles[i].adj[j],
                    triangles[i].indirect_adj_id[j],
                    point,
                    &mut silhouette,
                    points,
                    &mut removed_facets,
                    &mut triangles,
                );
            }
            fix_silhouette_topology(
                points,
                &mut silhouette,
                &mut removed_facets,
                &mut triangles,
                &mut workspace,
            )?;
            if silhouette.is_empty() {
                let any_valid = triangles[i + 1..]
                    .iter()
                    .any(|t| t.valid && !t.affinely_dependent);
                if any_valid {
                    return Err(ConvexHullError::InternalError(
                        "Internal error: exiting an unfinished work.",
                    ));
                }
                triangles[i].valid = true;
                break;
            }
            attach_and_push_facets(
                &silhouette,
                point,
                points,
                &mut triangles,
                &removed_facets,
                &mut undecidable_points,
            );
        }
        i += 1;
    }
    Ok(Hull::OverInput(
        triangles
            .iter()
            .filter(|f| f.valid)
            .map(|f| f.pts.map(|p| p as u32))
            .collect(),
    ))
}

/// parry's `convex_hull_utils::normalize`: centred on the bounding box, divided by its
/// diagonal.
fn normalize(coords: &mut [Vector]) {
    let aabb = local_point_cloud_aabb_ref(&*coords);
    let diag = aabb.mins.distance(aabb.maxs);
    let center = aabb.center();
    for c in coords.iter_mut() {
        *c = (*c - center) / diag;
    }
}

/// `approx::relative_eq!(x, 0.0, epsilon = epsilon)` with its default relative bound.
fn relative_eq_zero(x: Real, epsilon: Real) -> bool {
    if x == 0.0 {
        return true;
    }
    if x.is_infinite() {
        return false;
    }
    let diff = x.abs();
    diff <= epsilon || diff <= diff * Real::EPSILON
}

/// parry's `try_get_initial_mesh` for sets it sees as solid (`None`: parry sees the set
/// as flat, and answers with a 0-, 1- or 2-D hull).
fn initial_mesh(
    normalized_points: &mut [Vector],
    undecidable: &mut Vec<usize>,
) -> Result<Option<Vec<Facet>>, ConvexHullError> {
    let cov_mat = parry3d_f64::utils::cov(normalized_points);
    let eig = cov_mat.symmetric_eigen();
    let (eigvec, eigval) = (eig.eigenvectors, eig.eigenvalues);
    let mut eigpairs = [
        (eigvec.x_axis, eigval[0]),
        (eigvec.y_axis, eigval[1]),
        (eigvec.z_axis, eigval[2]),
    ];
    // Decreasing eigenvalues, parry's comparison (NaNs compare equal), stable.
    eigpairs.sort_by(|a, b| {
        if a.1 > b.1 {
            std::cmp::Ordering::Less
        } else if a.1 < b.1 {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    let mut dimension = 0;
    while dimension < 3 {
        if relative_eq_zero(eigpairs[dimension].1, 1.0e-7) {
            break;
        }
        dimension += 1;
    }
    if dimension != 3 {
        return Ok(None);
    }
    let center = parry3d_f64::utils::center(normalized_points);
    let max_eigval = eigval.x.abs().max(eigval.y.abs()).max(eigval.z.abs());
    for point in normalized_points.iter_mut() {
        *point = (*point - center) / max_eigval;
    }
    let points = &*normalized_points;
    let p1 = support_point_id(eigpairs[0].0, points).ok_or(ConvexHullError::MissingSupportPoint)?;
    let p2 =
        support_point_id(-eigpairs[0].0, points).ok_or(ConvexHullError::MissingSupportPoint)?;
    let mut max_area = 0.0;
    let mut p3 = usize::MAX;
    for (i, point) in points.iter().enumerate() {
        let area = Triangle::new(points[p1], points[p2], *point).area();
        if area > max_area {
            max_area = area;
            p3 = i;
        }
    }
    if p3 == usize::MAX {
        return Err(ConvexHullError::InternalError("no triangle found."));
    }
    let mut f1 = Facet::new(p1, p2, p3, points);
    let mut f2 = Facet::new(p2, p1, p3, points);
    f1.set_facets_adjacency(1, 1, 1, 0, 2, 1);
    f2.set_facets_adjacency(0, 0, 0, 0, 2, 1);
    let mut facets = vec![f1, f2];
    for point in 0..points.len() {
        if points[point] == points[p1] || points[point] == points[p2] || points[point] == points[p3]
        {
            continue;
        }
        let mut furthest = usize::MAX;
        let mut furthest_dist = 0.0;
        for (i, facet) in facets.iter().enumerate() {
            // `can_see_point` then `distance_to_point`: one distance (the two round
            // alike); a NaN one, which parry's test lets see, is never the furthest.
            if !facet.affinely_dependent {
                let distance = facet.distance_to_point(point, points);
                if distance >= DEFAULT_EPSILON * 100.0 && distance > furthest_dist {
                    furthest = i;
                    furthest_dist = distance;
                }
            }
        }
        if furthest != usize::MAX {
            // `add_visible_point`'s assertion holds: the distance is at least 100ε.
            facets[furthest].visible_points.push(point);
        } else {
            undecidable.push(point);
        }
    }
    check_facet_links(0, &facets);
    check_facet_links(1, &facets);
    Ok(Some(facets))
}

/// parry's `validation::check_facet_links` (its asserts, kept: they run in release).
fn check_facet_links(ifacet: usize, facets: &[Facet]) {
    let facet = &facets[ifacet];
    for i in 0..3 {
        assert!(facets[facet.adj[i]].valid);
    }
    for i in 0..3 {
        let adj_facet = &facets[facet.adj[i]];
        assert_eq!(adj_facet.adj[facet.indirect_adj_id[i]], ifacet);
        assert_eq!(adj_facet.indirect_adj_id[facet.indirect_adj_id[i]], i);
        assert_eq!(
            adj_facet.first_point_from_edge(facet.indirect_adj_id[i]),
            facet.second_point_from_edge(i)
        );
        assert_eq!(
            adj_facet.second_point_from_edge(facet.indirect_adj_id[i]),
            facet.first_point_from_edge(i)
        );
    }
}

fn support_point_id(direction: Vector, points: &[Vector]) -> Option<usize> {
    indexed_support_point_id(direction, points, 0..points.len())
}

fn indexed_support_point_id(
    direction: Vector,
    points: &[Vector],
    idx: impl Iterator<Item = usize>,
) -> Option<usize> {
    let mut argmax = None;
    let mut max = -Real::MAX;
    for i in idx {
        let dot = direction.dot(points[i]);
        if dot > max {
            argmax = Some(i);
            max = dot;
        }
    }
    argmax
}

fn indexed_support_point_nth(
    direction: Vector,
    points: &[Vector],
    idx: impl Iterator<Item = usize>,
) -> Option<usize> {
    let mut argmax = None;
    let mut max = -Real::MAX;
    for (k, i) in idx.enumerate() {
        let dot = direction.dot(points[i]);
        if dot > max {
            argmax = Some(k);
            max = dot;
        }
    }
    argmax
}

/// parry's `TriangleFacet`.
#[derive(Debug)]
struct Facet {
    valid: bool,
    affinely_dependent: bool,
    normal: Vector,
    adj: [usize; 3],
    indirect_adj_id: [usize; 3],
    pts: [usize; 3],
    visible_points: Vec<usize>,
}

impl Facet {
    fn new(p1: usize, p2: usize, p3: usize, points: &[Vector]) -> Self {
        let p1p2 = points[p2] - points[p1];
        let p1p3 = points[p3] - points[p1];
        let normal = p1p2.cross(p1p3).normalize();
        Self {
            valid: true,
            affinely_dependent: Triangle::new(points[p1], points[p2], points[p3])
                .is_affinely_dependent(),
            normal,
            adj: [0, 0, 0],
            indirect_adj_id: [0, 0, 0],
            pts: [p1, p2, p3],
            visible_points: Vec::new(),
        }
    }

    fn add_visible_point(&mut self, pid: usize, points: &[Vector]) {
        let distance = self.distance_to_point(pid, points);
        assert!(distance > DEFAULT_EPSILON);
        self.visible_points.push(pid);
    }

    #[inline]
    fn distance_to_point(&self, point: usize, points: &[Vector]) -> Real {
        self.normal.dot(points[point] - points[self.pts[0]])
    }

    fn set_facets_adjacency(
        &mut self,
        adj1: usize,
        adj2: usize,
        adj3: usize,
        id_adj1: usize,
        id_adj2: usize,
        id_adj3: usize,
    ) {
        self.indirect_adj_id = [id_adj1, id_adj2, id_adj3];
        self.adj = [adj1, adj2, adj3];
    }

    fn first_point_from_edge(&self, id: usize) -> usize {
        self.pts[id]
    }

    fn second_point_from_edge(&self, id: usize) -> usize {
        self.pts[(id + 1) % 3]
    }

    #[inline]
    fn can_see_point(&self, point: usize, points: &[Vector]) -> bool {
        if self.affinely_dependent {
            return false;
        }
        let p0 = points[self.pts[0]];
        let pt = points[point];
        // Not `>=`: a NaN distance sees the point, as in parry.
        let distance = (pt - p0).dot(self.normal);
        distance.is_nan() || distance >= DEFAULT_EPSILON * 100.0
    }

    fn order_independent_can_be_seen_by_point(&self, point: usize, points: &[Vector]) -> bool {
        if self.affinely_dependent {
            return true;
        }
        (0..3).any(|i| (points[point] - points[self.pts[i]]).dot(self.normal) >= 0.0)
    }
}

fn compute_silhouette(
    facet: usize,
    indirect_id: usize,
    point: usize,
    out_facets_and_idx: &mut Vec<(usize, usize)>,
    points: &[Vector],
    removed_facets: &mut Vec<usize>,
    triangles: &mut [Facet],
) {
    if !triangles[facet].valid {
        return;
    }
    if !triangles[facet].order_independent_can_be_seen_by_point(point, points) {
        out_facets_and_idx.push((facet, indirect_id));
        return;
    }
    triangles[facet].valid = false;
    removed_facets.push(facet);
    for k in [1, 2] {
        let next = triangles[facet].adj[(indirect_id + k) % 3];
        let next_id = triangles[facet].indirect_adj_id[(indirect_id + k) % 3];
        compute_silhouette(
            next,
            next_id,
            point,
            out_facets_and_idx,
            points,
            removed_facets,
            triangles,
        );
    }
}

/// parry's `fix_silhouette_topology`, with `workspace` (zero on entry, as long as the
/// input) left zero on return instead of allocated per call.
fn fix_silhouette_topology(
    points: &[Vector],
    out_facets_and_idx: &mut Vec<(usize, usize)>,
    removed_facets: &mut Vec<usize>,
    triangles: &mut [Facet],
    workspace: &mut [u32],
) -> Result<(), ConvexHullError> {
    let mut needs_fixing = false;
    for &(facet, adj_id) in out_facets_and_idx.iter() {
        let p = triangles[facet].second_point_from_edge(adj_id);
        workspace[p] += 1;
        if workspace[p] > 1 {
            needs_fixing = true;
        }
    }
    // The entries to reset: the silhouette is rewritten below.
    let touched: Vec<usize> = if needs_fixing {
        out_facets_and_idx
            .iter()
            .map(|&(f, a)| triangles[f].second_point_from_edge(a))
            .collect()
    } else {
        Vec::new()
    };
    let result = if needs_fixing {
        fix_loops(
            points,
            out_facets_and_idx,
            removed_facets,
            triangles,
            workspace,
        )
    } else {
        Ok(())
    };
    if needs_fixing {
        for p in touched {
            workspace[p] = 0;
        }
    } else {
        for &(facet, adj_id) in out_facets_and_idx.iter() {
            workspace[triangles[facet].second_point_from_edge(adj_id)] = 0;
        }
    }
    result
}

fn fix_loops(
    points: &[Vector],
    out_facets_and_idx: &mut Vec<(usize, usize)>,
    removed_facets: &mut Vec<usize>,
    triangles: &mut [Facet],
    workspace: &[u32],
) -> Result<(), ConvexHullError> {
    let mut loop_start = 0;
    for &(facet, adj_id) in out_facets_and_idx.iter() {
        let p1 = points[triangles[facet].second_point_from_edge(adj_id)];
        let p2 = points[triangles[facet].first_point_from_edge(adj_id)];
        let supp = indexed_support_point_nth(
            p2 - p1,
            points,
            out_facets_and_idx
                .iter()
                .map(|(f, ai)| triangles[*f].second_point_from_edge(*ai)),
        )
        .ok_or(ConvexHullError::MissingSupportPoint)?;
        let selected = &out_facets_and_idx[supp];
        if workspace[triangles[selected.0].second_point_from_edge(selected.1)] == 1 {
            loop_start = supp;
            break;
        }
    }
    let mut removing = None;
    let old_facets_and_idx = std::mem::take(out_facets_and_idx);
    for i in 0..old_facets_and_idx.len() {
        let facet_id = (loop_start + i) % old_facets_and_idx.len();
        let (facet, adj_id) = old_facets_and_idx[facet_id];
        let p1 = triangles[facet].second_point_from_edge(adj_id);
        match removing {
            Some(p) => {
                if p == p1 {
                    removing = None;
                }
            }
            _ => {
                if workspace[p1] > 1 {
                    removing = Some(p1);
                }
            }
        }
        if removing.is_some() {
            if triangles[facet].valid {
                triangles[facet].valid = false;
                removed_facets.push(facet);
            }
        } else {
            out_facets_and_idx.push((facet, adj_id));
        }
    }
    Ok(())
}

fn attach_and_push_facets(
    silhouette: &[(usize, usize)],
    point: usize,
    points: &[Vector],
    triangles: &mut Vec<Facet>,
    removed_facets: &[usize],
    undecidable: &mut Vec<usize>,
) {
    let mut new_facets = Vec::with_capacity(silhouette.len());
    for &(adj_facet, indirect_id) in silhouette {
        new_facets.push(Facet::new(
            point,
            triangles[adj_facet].second_point_from_edge(indirect_id),
            triangles[adj_facet].first_point_from_edge(indirect_id),
            points,
        ));
    }
    let n = triangles.len();
    for i in 0..silhouette.len() {
        let prev_facet = if i == 0 {
            n + silhouette.len() - 1
        } else {
            n + i - 1
        };
        let (middle_facet, middle_id) = silhouette[i];
        let next_facet = n + (i + 1) % silhouette.len();
        new_facets[i].set_facets_adjacency(prev_facet, middle_facet, next_facet, 2, middle_id, 0);
        assert!(!triangles[triangles[middle_facet].adj[middle_id]].valid);
        triangles[middle_facet].adj[middle_id] = n + i;
        triangles[middle_facet].indirect_adj_id[middle_id] = 1;
    }
    // The new facets' planes side by side (`None`: affinely dependent, skipped), read
    // once per reassigned point.
    let planes: Vec<Option<(Vector, Vector)>> = new_facets
        .iter()
        .map(|f| (!f.affinely_dependent).then(|| (f.normal, points[f.pts[0]])))
        .collect();
    for &removed in removed_facets {
        // A removed facet's points are not read again.
        let visible = std::mem::take(&mut triangles[removed].visible_points);
        for &visible_point in &visible {
            let p = points[visible_point];
            if p == points[point] {
                continue;
            }
            let mut furthest = usize::MAX;
            let mut furthest_dist = 0.0;
            for (i, plane) in planes.iter().enumerate() {
                if let Some((normal, p0)) = plane {
                    // `distance_to_point`, the same products in the same order.
                    let distance = normal.dot(p - *p0);
                    if distance > furthest_dist {
                        furthest = i;
                        furthest_dist = distance;
                    }
                }
            }
            // parry's `can_see_point` and `add_visible_point` recompute this distance
            // (bit for bit: `(p − p0)·n` and `n·(p − p0)` round alike), positive here,
            // so its test is the threshold alone and the assertion holds.
            if furthest != usize::MAX && furthest_dist >= DEFAULT_EPSILON * 100.0 {
                new_facets[furthest].visible_points.push(visible_point);
            }
        }
    }
    let mut i = 0;
    while i != undecidable.len() {
        let mut furthest = usize::MAX;
        let mut furthest_dist = 0.0;
        let undecidable_point = undecidable[i];
        for (j, facet) in new_facets.iter().enumerate() {
            if facet.can_see_point(undecidable_point, points) {
                let distance = facet.distance_to_point(undecidable_point, points);
                if distance > furthest_dist {
                    furthest = j;
                    furthest_dist = distance;
                }
            }
        }
        if furthest != usize::MAX {
            new_facets[furthest].add_visible_point(undecidable_point, points);
            let _ = undecidable.swap_remove(i);
        } else {
            i += 1;
        }
    }
    triangles.append(&mut new_facets);
}
