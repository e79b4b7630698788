//! Internal edges: why a ball or a box catches on a flat triangulated floor ("ghost
//! collisions"). A contact found on one triangle alone has the normal of that triangle's
//! nearest feature; when the feature is an edge or a vertex shared with neighbours, the
//! mesh's true normals there form a cone (spanned by the faces around it), and a contact
//! normal outside that cone points where the surface does not face: a ghost.
//!
//! For each contact this module names the feature (face, edge, vertex), the cone of the
//! feature in the mesh, whether the normal lies in it, and what two engines' corrections
//! report instead: parry's `TriMeshFlags::FIX_INTERNAL_EDGES` (its own pseudo-normal
//! projection, called through parry itself) and Jolt's active edges (`ActiveEdges.h`,
//! `FixNormal`: an edge is active when it is on the rim or convex by more than 5°; a
//! contact on a feature with no active edge takes the triangle's normal). Jolt's
//! enhanced removal over a set of contacts (`InternalEdgeRemovingCollector.h`, after
//! Terdiman's "Contact generation for meshes") is [`jolt_enhanced_removal`].

use glam::DVec3;

use super::trimesh::{Across, TriMesh};

/// The feature of a triangle that holds a point of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Face,
    /// Edge `k`, from corner `k` to corner `k + 1`.
    Edge(u8),
    /// Corner `k`.
    Vertex(u8),
}

/// The normals the mesh has at a feature, on the side the contact is on.
#[derive(Clone, Debug, PartialEq)]
pub enum Cone {
    /// Every positive combination of these (a face: one; a convex edge: its two faces; a
    /// convex vertex: the faces around it; a rim edge: the half-plane out of it).
    Span(Vec<DVec3>),
    /// Only these directions (a concave edge or a saddle vertex: the surface's normals
    /// there are its faces', nothing between them).
    Rays(Vec<DVec3>),
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Feature::Face => write!(f, "face"),
            Feature::Edge(k) => write!(f, "edge {k} (corners {k}–{})", (k + 1) % 3),
            Feature::Vertex(k) => write!(f, "vertex {k}"),
        }
    }
}

impl Cone {
    /// The normals that make the cone.
    pub fn normals(&self) -> &[DVec3] {
        match self {
            Cone::Span(n) | Cone::Rays(n) => n,
        }
    }

    /// "span" (every positive combination) or "rays" (only the normals themselves).
    pub fn kind(&self) -> &'static str {
        match self {
            Cone::Span(_) => "span",
            Cone::Rays(_) => "rays",
        }
    }
}

/// What one contact on a mesh triangle is, and what engines would make of it.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeReport {
    pub triangle: u32,
    pub feature: Feature,
    /// The triangle's normal turned to the contact's side.
    pub face_normal: DVec3,
    /// The contact's normal, as given.
    pub contact_normal: DVec3,
    pub cone: Cone,
    /// Whether the contact normal lies in the cone; `false` is a ghost contact.
    pub in_cone: bool,
    /// The normal parry reports with `FIX_INTERNAL_EDGES` (its projection into the
    /// triangle's pseudo-normal cone); `None` when parry drops the contact.
    pub parry_fixed: Option<DVec3>,
    /// The normal Jolt's active-edge rule reports.
    pub jolt_active_edges: DVec3,
}

impl EdgeReport {
    /// Whether the contact's normal is the triangle's own (within the cone tolerance).
    pub fn normal_is_face(&self) -> bool {
        cone_contains(
            &Cone::Rays(vec![self.face_normal]),
            self.contact_normal,
            CONE_TOLERANCE,
        )
    }
}

/// Angles below this (radians) count as the same direction in the cone test.
pub const CONE_TOLERANCE: f64 = 1e-7;
/// Jolt's `MeshShapeSettings::mActiveEdgeCosThresholdAngle` default, cos 5°.
pub const JOLT_ACTIVE_EDGE_COS: f64 = 0.996195;
/// Jolt's test for "the normal is the triangle's": cos 1°.
const JOLT_FACE_COS: f64 = 0.999848;

/// The feature of triangle `corners` that holds `point` (a point on it), with
/// barycentric coordinates below `tolerance` counted as zero.
pub fn feature_at(corners: [DVec3; 3], point: DVec3, tolerance: f64) -> Feature {
    let b = barycentric(corners, point);
    let zero: Vec<usize> = (0..3).filter(|&i| b[i] <= tolerance).collect();
    match zero.as_slice() {
        [] => Feature::Face,
        // Barycentric i is zero: the point is on the edge opposite corner i, which is edge
        // (i + 1) (from corner i + 1 to corner i + 2).
        [i] => Feature::Edge(((i + 1) % 3) as u8),
        _ => {
            let corner = (0..3).max_by(|&i, &j| b[i].total_cmp(&b[j])).unwrap();
            Feature::Vertex(corner as u8)
        }
    }
}

/// Barycentric coordinates of `p` projected on the triangle's plane (a degenerate
/// triangle: the nearest corner's).
fn barycentric([a, b, c]: [DVec3; 3], p: DVec3) -> [f64; 3] {
    let (v0, v1, v2) = (b - a, c - a, p - a);
    let (d00, d01, d11) = (v0.dot(v0), v0.dot(v1), v1.dot(v1));
    let (d20, d21) = (v2.dot(v0), v2.dot(v1));
    let denom = d00 * d11 - d01 * d01;
    if denom <= f64::EPSILON * d00 * d11 {
        let d = [a, b, c].map(|q| q.distance_squared(p));
        let i = (0..3).min_by(|&i, &j| d[i].total_cmp(&d[j])).unwrap();
        let mut w = [0.0; 3];
        w[i] = 1.0;
        return w;
    }
    let v = (d11 * d20 - d01 * d21) / denom;
    let w = (d00 * d21 - d01 * d20) / denom;
    [1.0 - v - w, v, w]
}

/// The contact at `point` on triangle `triangle` with unit `normal` (from the mesh
/// towards the other shape), explained.
pub fn explain_contact(
    mesh: &TriMesh,
    parry_mesh: Option<&parry3d_f64::shape::TriMesh>,
    triangle: u32,
    point: DVec3,
    normal: DVec3,
) -> EdgeReport {
    let t = triangle as usize;
    let corners = mesh.corners(t);
    let feature = feature_at(corners, point, 1e-9);
    let raw = mesh.normal(t).unwrap_or(normal);
    let side = if raw.dot(normal) < 0.0 { -1.0 } else { 1.0 };
    let face_normal = raw * side;
    let cone = feature_cone(mesh, t, feature, side);
    let in_cone = cone_contains(&cone, normal, CONE_TOLERANCE);
    let parry_fixed = parry_mesh.and_then(|m| parry_fix(m, triangle, normal));
    let jolt_active_edges = jolt_fix_normal(mesh, t, point, normal, face_normal);
    EdgeReport {
        triangle,
        feature,
        face_normal,
        contact_normal: normal,
        cone,
        in_cone,
        parry_fixed,
        jolt_active_edges,
    }
}

/// The normal of triangle `u` oriented as triangle `t` is across their shared edge
/// (a neighbour listed with the edge in the same direction is flipped).
fn neighbour_normal(mesh: &TriMesh, t: usize, edge: u8, u: usize, their_edge: u8) -> Option<DVec3> {
    let tri = mesh.triangles()[t];
    let other = mesh.triangles()[u];
    let w = |v: u32| mesh.welded(v);
    let mine = (w(tri[edge as usize]), w(tri[(edge as usize + 1) % 3]));
    let theirs = (
        w(other[their_edge as usize]),
        w(other[(their_edge as usize + 1) % 3]),
    );
    let n = mesh.normal(u)?;
    Some(if mine == theirs { -n } else { n })
}

/// The cone of `feature` of triangle `t`, on the side `side` (±1 times its normal).
fn feature_cone(mesh: &TriMesh, t: usize, feature: Feature, side: f64) -> Cone {
    let Some(n) = mesh.normal(t).map(|n| n * side) else {
        return Cone::Span(vec![]);
    };
    match feature {
        Feature::Face => Cone::Span(vec![n]),
        Feature::Edge(k) => edge_cone(mesh, t, k, n, side),
        Feature::Vertex(k) => vertex_cone(mesh, t, k, n, side),
    }
}

fn edge_cone(mesh: &TriMesh, t: usize, k: u8, n: DVec3, side: f64) -> Cone {
    let corners = mesh.corners(t);
    let (a, b) = (corners[k as usize], corners[(k as usize + 1) % 3]);
    match mesh.across(t)[k as usize] {
        Across::Boundary => {
            // The rim: every normal out of the edge, from n round to −n.
            let out = (b - a).cross(n).normalize_or_zero() * side.signum();
            let out = if out.dot(corners[(k as usize + 2) % 3] - a) > 0.0 {
                -out
            } else {
                out
            };
            Cone::Span(vec![n, out, -n])
        }
        Across::Triangle { triangle, edge } => {
            let Some(m) = neighbour_normal(mesh, t, k, triangle as usize, edge).map(|m| m * side)
            else {
                return Cone::Span(vec![n]);
            };
            // Convex when the neighbour's far corner is below this triangle's plane.
            let far = mesh.corners(triangle as usize)[(edge as usize + 2) % 3];
            let height = n.dot(far - a);
            let scale = (b - a).length().max(far.distance(a));
            if height < -1e-12 * scale {
                Cone::Span(vec![n, m])
            } else if height > 1e-12 * scale {
                Cone::Rays(vec![n, m])
            } else {
                Cone::Span(vec![n])
            }
        }
    }
}

fn vertex_cone(mesh: &TriMesh, t: usize, k: u8, n: DVec3, side: f64) -> Cone {
    let corner = mesh.triangles()[t][k as usize];
    let centre = mesh.vertices()[corner as usize];
    let key = mesh.welded(corner);
    let ring: Vec<usize> = mesh
        .triangles_at(corner)
        .iter()
        .map(|&u| u as usize)
        .collect();
    let on_rim = ring.iter().any(|&u| {
        (0..3).any(|e| {
            let tri = mesh.triangles()[u];
            let touches = mesh.welded(tri[e]) == key || mesh.welded(tri[(e + 1) % 3]) == key;
            touches && mesh.across(u)[e] == Across::Boundary
        })
    });
    // Orient the ring by agreement with this triangle's side (a consistently wound
    // mesh keeps it; a flipped neighbour is turned back).
    let normals: Vec<DVec3> = ring
        .iter()
        .filter_map(|&u| mesh.normal(u))
        .map(|m| if m.dot(n) < 0.0 && side != 0.0 { -m } else { m })
        .collect();
    if on_rim {
        // A rim vertex faces outward too: every direction on this side counts.
        return Cone::Span(vec![
            n,
            n.any_orthogonal_vector(),
            -n.any_orthogonal_vector(),
        ]);
    }
    let convex = ring.iter().all(|&u| {
        let m = mesh.normal(u).unwrap_or(n);
        let m = if m.dot(n) < 0.0 { -m } else { m };
        mesh.triangles()[u].iter().all(|&v| {
            m.dot(mesh.vertices()[v as usize] - centre) <= 1e-12 * (1.0 + centre.length())
        }) && ring.iter().all(|&w| {
            mesh.triangles()[w].iter().all(|&v| {
                m.dot(mesh.vertices()[v as usize] - centre) <= 1e-9 * (1.0 + centre.length())
            })
        })
    });
    if convex {
        Cone::Span(normals)
    } else {
        Cone::Rays(normals)
    }
}

/// Whether unit `m` lies in the cone, within `tolerance` radians.
pub fn cone_contains(cone: &Cone, m: DVec3, tolerance: f64) -> bool {
    let close = |g: DVec3| g.normalize_or_zero().dot(m) >= 1.0 - tolerance * tolerance;
    match cone {
        Cone::Rays(rays) => rays.iter().any(|&g| close(g)),
        Cone::Span(gens) => {
            if gens.iter().any(|&g| close(g)) {
                return true;
            }
            let n = gens.len();
            for i in 0..n {
                for j in i + 1..n {
                    if in_pair(gens[i], gens[j], m, tolerance) {
                        return true;
                    }
                    for k in j + 1..n {
                        if in_triple(gens[i], gens[j], gens[k], m, tolerance) {
                            return true;
                        }
                    }
                }
            }
            false
        }
    }
}

/// `m = a g + b h` with a, b ≥ 0, within the tolerance (the plane of g and h).
fn in_pair(g: DVec3, h: DVec3, m: DVec3, tolerance: f64) -> bool {
    let plane = g.cross(h);
    let Some(normal) = plane.try_normalize() else {
        return false;
    };
    if normal.dot(m).abs() > tolerance {
        return false;
    }
    // m between g and h: on h's side of g and on g's side of h.
    plane.dot(g.cross(m)) >= -tolerance * plane.length()
        && plane.dot(m.cross(h)) >= -tolerance * plane.length()
}

/// `m = a g + b h + c k` with a, b, c ≥ 0 (Cramer's rule), within the tolerance.
fn in_triple(g: DVec3, h: DVec3, k: DVec3, m: DVec3, tolerance: f64) -> bool {
    let det = g.dot(h.cross(k));
    if det.abs() < 1e-12 {
        return false;
    }
    let a = m.dot(h.cross(k)) / det;
    let b = g.dot(m.cross(k)) / det;
    let c = g.dot(h.cross(m)) / det;
    a >= -tolerance && b >= -tolerance && c >= -tolerance
}

/// parry's correction of `normal` on `triangle` of a mesh built with
/// `FIX_INTERNAL_EDGES`: its own `NormalConstraints` projection.
fn parry_fix(mesh: &parry3d_f64::shape::TriMesh, triangle: u32, normal: DVec3) -> Option<DVec3> {
    use parry3d_f64::query::details::NormalConstraints;
    let constraints = mesh.triangle_normal_constraints(triangle)?;
    let fixed = constraints
        .project_local_normal(parry3d_f64::math::Vector::new(normal.x, normal.y, normal.z))?;
    Some(DVec3::new(fixed.x, fixed.y, fixed.z))
}

/// parry's own mesh of ours, with `FIX_INTERNAL_EDGES` (the pseudo-normals its
/// correction reads).
pub fn parry_mesh_fixing_internal_edges(mesh: &TriMesh) -> Option<parry3d_f64::shape::TriMesh> {
    let points = mesh
        .vertices()
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    parry3d_f64::shape::TriMesh::with_flags(
        points,
        mesh.triangles().to_vec(),
        parry3d_f64::shape::TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .ok()
}

/// Whether edge `k` of triangle `t` is active in Jolt's sense (`ActiveEdges::IsEdgeActive`
/// with the default 5° threshold): on the rim, back to back, or convex by more than 5°.
pub fn jolt_edge_active(mesh: &TriMesh, t: usize, k: u8) -> bool {
    let Across::Triangle { triangle, edge } = mesh.across(t)[k as usize] else {
        return true;
    };
    let (Some(n1), Some(n2)) = (
        mesh.normal(t),
        neighbour_normal(mesh, t, k, triangle as usize, edge),
    ) else {
        return true;
    };
    let corners = mesh.corners(t);
    let direction = corners[(k as usize + 1) % 3] - corners[k as usize];
    let cos = n1.dot(n2);
    if cos < -JOLT_FACE_COS {
        return true;
    }
    if n1.cross(n2).dot(direction) < 0.0 {
        return false;
    }
    cos < JOLT_ACTIVE_EDGE_COS
}

/// Jolt's `ActiveEdges::FixNormal` with no movement hint: the contact keeps its normal
/// when it hits an active edge (or the normal is within 1° of the face's), and takes the
/// face normal otherwise.
fn jolt_fix_normal(mesh: &TriMesh, t: usize, point: DVec3, normal: DVec3, face: DVec3) -> DVec3 {
    let active = [0u8, 1, 2].map(|k| jolt_edge_active(mesh, t, k));
    if active.iter().all(|&a| a) {
        return normal;
    }
    if active.iter().all(|&a| !a) {
        return face;
    }
    if face.dot(normal) > JOLT_FACE_COS {
        return normal;
    }
    let [u, v, w] = barycentric(mesh.corners(t), point);
    let (eps, one) = (1e-4, 1.0 - 1e-4);
    // Edge k runs from corner k to k + 1; a corner needs either edge at it active.
    let needed: &[usize] = if u > one {
        &[0, 2]
    } else if v > one {
        &[0, 1]
    } else if w > one {
        &[1, 2]
    } else if u < eps {
        &[1]
    } else if v < eps {
        &[2]
    } else if w < eps {
        &[0]
    } else {
        return face;
    };
    if needed.iter().any(|&k| active[k]) {
        normal
    } else {
        face
    }
}

/// One contact of a set, as Jolt's enhanced removal takes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshContact {
    pub triangle: u32,
    pub point: DVec3,
    /// Unit, from the mesh towards the other shape.
    pub normal: DVec3,
    pub depth: f64,
}

/// Jolt's enhanced internal edge removal (`InternalEdgeRemovingCollector`): face
/// contacts (normal within 1° of the face's) are kept and void their triangle's corners;
/// the others, deepest first, are dropped when the vertex or both ends of the edge
/// nearest their point are already voided, and void their own corners either way.
/// Which contacts are kept, in the given order.
pub fn jolt_enhanced_removal(mesh: &TriMesh, contacts: &[MeshContact]) -> Vec<bool> {
    let tolerance_sq = 1.0e-8;
    let mut voided: Vec<DVec3> = Vec::new();
    let is_voided =
        |voided: &[DVec3], p: DVec3| voided.iter().any(|v| v.distance_squared(p) <= tolerance_sq);
    let void = |voided: &mut Vec<DVec3>, t: u32| {
        for c in mesh.corners(t as usize) {
            if !voided.iter().any(|v| v.distance_squared(c) <= tolerance_sq) {
                voided.push(c);
            }
        }
    };
    let mut kept = vec![false; contacts.len()];
    let mut delayed = Vec::new();
    for (i, c) in contacts.iter().enumerate() {
        match mesh.normal(c.triangle as usize) {
            Some(n) if n.dot(c.normal).abs() <= JOLT_FACE_COS => delayed.push(i),
            _ => {
                kept[i] = true;
                void(&mut voided, c.triangle);
            }
        }
    }
    delayed.sort_by(|&i, &j| contacts[j].depth.total_cmp(&contacts[i].depth));
    for i in delayed {
        let c = contacts[i];
        let corners = mesh.corners(c.triangle as usize);
        let (p, q) = nearest_feature(corners, c.point);
        let gone = is_voided(&voided, p) && (p == q || is_voided(&voided, q));
        kept[i] = !gone;
        void(&mut voided, c.triangle);
    }
    kept
}

/// The vertex (twice) or edge ends of the triangle nearest `point`.
fn nearest_feature(corners: [DVec3; 3], point: DVec3) -> (DVec3, DVec3) {
    let mut best = (f64::INFINITY, corners[0], corners[0]);
    for k in 0..3 {
        let (a, b) = (corners[(k + 2) % 3], corners[k]);
        let ab = b - a;
        let len = ab.length_squared();
        let t = if len > 0.0 {
            (point - a).dot(ab) / len
        } else {
            0.0
        };
        let (d, p, q) = if t < 1e-6 {
            (a.distance_squared(point), a, a)
        } else if t < 1.0 - 1e-6 {
            ((a + ab * t).distance_squared(point), a, b)
        } else {
            continue;
        };
        if d < best.0 {
            best = (d, p, q);
        }
    }
    (best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat floor of two triangles sharing the diagonal (0,0)–(1,1), and a roof of
    /// two triangles meeting at a ridge along x at 30° each side.
    fn floor() -> TriMesh {
        let v = vec![DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
        TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3]]).unwrap()
    }

    fn roof() -> TriMesh {
        let s = 30f64.to_radians().tan();
        let v = vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(1.0, 1.0, -s),
            DVec3::new(0.0, 1.0, -s),
            DVec3::new(1.0, -1.0, -s),
            DVec3::new(0.0, -1.0, -s),
        ];
        TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3], [1, 0, 5], [1, 5, 4]]).unwrap()
    }

    #[test]
    fn a_tilted_normal_on_a_flat_internal_edge_is_a_ghost_both_engines_correct() {
        let mesh = floor();
        let parry = parry_mesh_fixing_internal_edges(&mesh);
        let point = DVec3::new(0.5, 0.5, 0.0);
        let ghost = DVec3::new(0.3, -0.3, 1.0).normalize();
        let r = explain_contact(&mesh, parry.as_ref(), 0, point, ghost);
        assert_eq!(r.feature, Feature::Edge(2));
        assert!(!r.in_cone, "{r:?}");
        assert!(!jolt_edge_active(&mesh, 0, 2));
        assert!((r.jolt_active_edges - DVec3::Z).length() < 1e-12);
        let fixed = r.parry_fixed.expect("parry keeps a contact from above");
        assert!((fixed - DVec3::Z).length() < 1e-6, "{fixed}");
        // The face's own normal is no ghost.
        assert!(explain_contact(&mesh, parry.as_ref(), 0, point, DVec3::Z).in_cone);
    }

    #[test]
    fn a_normal_between_the_faces_of_a_ridge_is_true_and_kept() {
        let mesh = roof();
        let point = DVec3::new(0.5, 0.0, 0.0);
        let r = explain_contact(&mesh, None, 0, point, DVec3::Z);
        assert!(matches!(r.feature, Feature::Edge(0)), "{:?}", r.feature);
        assert!(matches!(r.cone, Cone::Span(ref g) if g.len() == 2));
        assert!(r.in_cone);
        assert!(jolt_edge_active(&mesh, 0, 0));
        assert_eq!(r.jolt_active_edges, DVec3::Z);
        // Tilted beyond the neighbour's face normal: outside the cone.
        let beyond = DVec3::new(0.0, -0.9, 0.3).normalize();
        assert!(!explain_contact(&mesh, None, 0, point, beyond).in_cone);
    }

    #[test]
    fn features_are_read_from_the_point() {
        let c = [DVec3::ZERO, DVec3::X, DVec3::Y];
        assert_eq!(
            feature_at(c, DVec3::new(0.2, 0.2, 0.0), 1e-9),
            Feature::Face
        );
        assert_eq!(
            feature_at(c, DVec3::new(0.5, 0.0, 0.0), 1e-9),
            Feature::Edge(0)
        );
        assert_eq!(
            feature_at(c, DVec3::new(0.5, 0.5, 0.0), 1e-9),
            Feature::Edge(1)
        );
        assert_eq!(
            feature_at(c, DVec3::new(0.0, 0.5, 0.0), 1e-9),
            Feature::Edge(2)
        );
        assert_eq!(feature_at(c, DVec3::Y, 1e-9), Feature::Vertex(2));
    }

    #[test]
    fn jolts_removal_drops_an_edge_contact_whose_edge_a_face_contact_voided() {
        let mesh = floor();
        let contacts = [
            MeshContact {
                triangle: 1,
                point: DVec3::new(0.2, 0.6, 0.0),
                normal: DVec3::Z,
                depth: 0.01,
            },
            MeshContact {
                triangle: 0,
                point: DVec3::new(0.5, 0.5, 0.0),
                normal: DVec3::new(0.3, -0.3, 1.0).normalize(),
                depth: 0.02,
            },
        ];
        assert_eq!(jolt_enhanced_removal(&mesh, &contacts), vec![true, false]);
        // Alone, the edge contact is kept.
        assert_eq!(jolt_enhanced_removal(&mesh, &contacts[1..]), vec![true]);
    }

    /// The apex of a closed square pyramid: a convex vertex whose cone is spanned by
    /// its four sides' normals.
    #[test]
    fn a_convex_vertex_takes_the_normals_between_its_faces() {
        let v = vec![
            DVec3::new(-1.0, -1.0, 0.0),
            DVec3::new(1.0, -1.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(-1.0, 1.0, 0.0),
            DVec3::Z,
        ];
        let t = vec![
            [0, 1, 4],
            [1, 2, 4],
            [2, 3, 4],
            [3, 0, 4],
            [0, 2, 1],
            [0, 3, 2],
        ];
        let mesh = TriMesh::new(v, t).unwrap();
        assert!(mesh.is_closed());
        let r = explain_contact(&mesh, None, 0, DVec3::Z, DVec3::Z);
        assert_eq!(r.feature, Feature::Vertex(2));
        assert!(
            matches!(r.cone, Cone::Span(ref g) if g.len() == 4),
            "{:?}",
            r.cone
        );
        assert!(r.in_cone);
        let steep = DVec3::new(1.0, 0.0, 0.1).normalize();
        assert!(!explain_contact(&mesh, None, 0, DVec3::Z, steep).in_cone);
    }
}
