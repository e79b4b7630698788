//! The contacts between a composite and a convex shape: every piece within a margin of
//! the shape (or overlapping it), each with its point on the piece, its normal and its
//! gap (negative: a depth, proved by EPA), and, on a triangle mesh, what its feature is
//! and whether its normal is a ghost ([`super::internal_edges`]).

use glam::DVec3;

use super::internal_edges::{explain_contact, jolt_enhanced_removal, EdgeReport, MeshContact};
use super::midphase::{box_gap, bracket, piece_run, CompositeTree};
use super::pieces::{moved_box, shape_box};
use super::query::Ask;
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::{Method, Outcome, Run, SolverSettings};

/// One contact: a piece within the margin of the shape.
#[derive(Clone, Debug)]
pub struct Contact {
    pub piece: u32,
    /// On the piece, in the composite's frame.
    pub point: DVec3,
    /// Unit, from the composite towards the shape, in the composite's frame.
    pub normal: DVec3,
    /// The distance (an upper bound, as the run proved it), or minus the depth EPA proved.
    pub gap: f64,
    /// The distance method's run on the sub-pair.
    pub run: Run,
    /// EPA's run, for a sub-pair that overlaps.
    pub depth_run: Option<Run>,
    /// On a triangle mesh: the feature, its cone, ghost or not, and the engines' view.
    pub edges: Option<EdgeReport>,
    /// Whether Jolt's enhanced internal edge removal keeps it (meshes only).
    pub jolt_kept: Option<bool>,
    /// Between two composites: the other's piece and its side of the contact.
    pub other: Option<OtherSide>,
}

/// The second composite's side of a contact between two composites (robot links as
/// meshes): its piece, the contact's point on it, and, on a mesh, the feature, cone and
/// ghost test seen from that mesh (its normal the contact's, turned).
#[derive(Clone, Debug)]
pub struct OtherSide {
    pub piece: u32,
    /// On the other piece, in the first composite's frame.
    pub point: DVec3,
    /// In the second composite's own frame, as its mesh sees the contact.
    pub edges: Option<EdgeReport>,
    pub jolt_kept: Option<bool>,
}

/// The contacts of `tree`'s composite with `b` at `b_in_a` within `margin`, nearest
/// first, each explained on the mesh.
pub fn composite_contacts(
    tree: &CompositeTree,
    b: &Shape,
    b_in_a: RelativePose,
    margin: f64,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> Vec<Contact> {
    let b_box = shape_box(b, &b_in_a);
    let ask = Ask::new(method, settings, traced);
    let mut contacts: Vec<Contact> = tree
        .tree()
        .leaves_where(|node| box_gap(&node, &b_box) <= margin)
        .into_iter()
        .filter_map(|i| piece_contact(tree, i, b, b_in_a, margin, ask).map(|f| f.contact))
        .collect();
    sort_nearest_first(&mut contacts);
    explain_on_mesh(tree, &mut contacts);
    contacts
}

/// The contacts between two composites, `tree_a`'s at the identity and `tree_b`'s at
/// `b_in_a`: every pair of pieces within `margin` (candidates by their boxes), nearest
/// first, each explained on both sides that are meshes (a robot's links as meshes
/// touch triangle to triangle).
pub fn composite_composite_contacts(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: RelativePose,
    margin: f64,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> Vec<Contact> {
    let ask = Ask::new(method, settings, traced);
    let a_in_b = b_in_a.inverse();
    let b_whole = moved_box(&tree_b.whole_box(), &b_in_a);
    let mut contacts = Vec::new();
    for i in tree_a
        .tree()
        .leaves_where(|node| box_gap(&node, &b_whole) <= margin)
    {
        let a_box = moved_box(&tree_a.pieces().piece_box(i as usize), &a_in_b);
        for j in tree_b
            .tree()
            .leaves_where(|node| box_gap(&node, &a_box) <= margin)
        {
            let Some((piece_b, pose_b)) = tree_b.piece(j as usize) else {
                continue;
            };
            let piece_in_a = pose_b.map_or(b_in_a, |p| b_in_a.then(&p));
            if let Some(mut c) = piece_contact(tree_a, i, &piece_b, piece_in_a, margin, ask) {
                c.contact.other = Some(OtherSide {
                    piece: j,
                    point: c.point_on_b,
                    edges: None,
                    jolt_kept: None,
                });
                contacts.push(c.contact);
            }
        }
    }
    sort_nearest_first(&mut contacts);
    explain_on_mesh(tree_a, &mut contacts);
    explain_on_other_mesh(tree_b, &a_in_b, &mut contacts);
    contacts
}

/// A contact found, with its point on the other shape (composite frame).
struct Found {
    contact: Contact,
    point_on_b: DVec3,
}

/// Piece `i` of `tree`'s composite against the convex `b` at `b_in_a`: a contact when
/// its run proves it within `margin` (an overlap measured by EPA).
fn piece_contact(
    tree: &CompositeTree,
    i: u32,
    b: &Shape,
    b_in_a: RelativePose,
    margin: f64,
    ask: Ask,
) -> Option<Found> {
    let pieces = tree.pieces();
    // A triangle whose plane alone keeps the shape beyond the margin (a lower bound of
    // its distance) is no contact: not run (most of the candidates under a large
    // shape's box on a fine mesh).
    if pieces
        .plane_gap(i as usize, b, &b_in_a)
        .is_some_and(|gap| gap > margin)
    {
        return None;
    }
    let Ask {
        method,
        settings,
        traced,
    } = ask;
    let run = piece_run(tree.piece(i as usize), b, b_in_a, method, settings, traced)?;
    let upper = bracket(&run.summary.outcome).1;
    if upper > margin {
        return None;
    }
    let (_, pose) = pieces.piece(i as usize)?;
    let to_composite = |p: DVec3| pose.map_or(p, |pose| pose.transform_point(p));
    let turn = |v: DVec3| pose.map_or(v, |pose| pose.rotation * v);
    let s = &run.summary;
    let (point, on_b, normal, gap, depth_run) = if upper > 0.0 {
        let (a, bp) = (s.witness_a?, s.witness_b?);
        (a, bp, (bp - a).normalize_or_zero(), upper, None)
    } else {
        let depth = piece_run(
            tree.piece(i as usize),
            b,
            b_in_a,
            Method::epa(),
            settings,
            traced,
        )?;
        let (d, n) = match depth.summary.outcome {
            Outcome::Penetrating { depth, normal } => (depth, normal),
            Outcome::Touching { normal } => (0.0, normal),
            _ => return None,
        };
        let point = depth.summary.witness_a.unwrap_or(DVec3::ZERO);
        let on_b = depth.summary.witness_b.unwrap_or(point);
        (point, on_b, n, -d, Some(depth))
    };
    Some(Found {
        contact: Contact {
            piece: i,
            point: to_composite(point),
            normal: turn(normal),
            gap,
            run,
            depth_run,
            edges: None,
            jolt_kept: None,
            other: None,
        },
        point_on_b: to_composite(on_b),
    })
}

fn sort_nearest_first(contacts: &mut [Contact]) {
    contacts.sort_by(|x, y| {
        x.gap.total_cmp(&y.gap).then(x.piece.cmp(&y.piece)).then(
            x.other
                .as_ref()
                .map(|o| o.piece)
                .cmp(&y.other.as_ref().map(|o| o.piece)),
        )
    });
}

/// On a mesh: each contact's feature, cone and ghost test, and which of them Jolt's
/// enhanced internal edge removal keeps.
fn explain_on_mesh(tree: &CompositeTree, contacts: &mut [Contact]) {
    let Some(mesh) = tree.pieces().mesh().filter(|_| !contacts.is_empty()) else {
        return;
    };
    let parry = tree.parry_fixing_internal_edges();
    for c in contacts.iter_mut() {
        c.edges = Some(explain_contact(mesh, parry, c.piece, c.point, c.normal));
    }
    let set: Vec<MeshContact> = contacts
        .iter()
        .map(|c| MeshContact {
            triangle: c.piece,
            point: c.point,
            normal: c.normal,
            depth: -c.gap,
        })
        .collect();
    for (c, kept) in contacts.iter_mut().zip(jolt_enhanced_removal(mesh, &set)) {
        c.jolt_kept = Some(kept);
    }
}

/// The same on the second composite's mesh, in its own frame (`a_in_b` takes the first
/// composite's frame there): the contact seen from the other side, its normal turned.
fn explain_on_other_mesh(tree: &CompositeTree, a_in_b: &RelativePose, contacts: &mut [Contact]) {
    let Some(mesh) = tree.pieces().mesh().filter(|_| !contacts.is_empty()) else {
        return;
    };
    let parry = tree.parry_fixing_internal_edges();
    let seen: Vec<MeshContact> = contacts
        .iter()
        .filter_map(|c| {
            let other = c.other.as_ref()?;
            Some(MeshContact {
                triangle: other.piece,
                point: a_in_b.transform_point(other.point),
                normal: -(a_in_b.rotation * c.normal),
                depth: -c.gap,
            })
        })
        .collect();
    let kept = jolt_enhanced_removal(mesh, &seen);
    let sides = contacts.iter_mut().filter_map(|c| c.other.as_mut());
    for ((other, m), keep) in sides.zip(&seen).zip(kept) {
        other.edges = Some(explain_contact(mesh, parry, m.triangle, m.point, m.normal));
        other.jolt_kept = Some(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composite::internal_edges::Feature;
    use crate::composite::{Pieces, TriMesh};
    use crate::shape::Cuboid;
    use crate::solver::{Algorithm, DirectionRule};

    /// A flat floor of 2 × 2 squares, each cut along its diagonal.
    fn floor() -> TriMesh {
        let mut v = Vec::new();
        for j in 0..3 {
            for i in 0..3 {
                v.push(DVec3::new(i as f64 - 1.0, j as f64 - 1.0, 0.0));
            }
        }
        let id = |i: u32, j: u32| j * 3 + i;
        let mut t = Vec::new();
        for j in 0..2 {
            for i in 0..2 {
                t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        TriMesh::new(v, t).unwrap()
    }

    /// A box resting on a flat triangulated floor, slightly sunk and tilted about the
    /// floor's diagonal: the contacts on the triangles under the box's low edge are
    /// found, each named, and any contact whose normal is not the floor's is a ghost
    /// that both engines' corrections turn back to the floor's normal.
    #[test]
    fn a_box_on_a_triangulated_floor_has_its_ghosts_named() {
        let tree = CompositeTree::new(Pieces::Triangles(floor()));
        let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.3)).unwrap());
        let turn = glam::DMat3::from_axis_angle(DVec3::new(1.0, -1.0, 0.0).normalize(), 0.3);
        let pose = RelativePose::from_matrix(turn, DVec3::new(0.05, 0.05, 0.36));
        let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
        let contacts = composite_contacts(
            &tree,
            &cube,
            pose,
            0.05,
            gjk,
            SolverSettings::default(),
            false,
        );
        assert!(!contacts.is_empty());
        for c in &contacts {
            let e = c.edges.as_ref().unwrap();
            let floor_normal = e.normal_is_face();
            if !e.in_cone {
                assert!(!floor_normal, "{c:?}");
                assert!((e.jolt_active_edges - DVec3::Z).length() < 1e-9, "{e:?}");
                let fixed = e.parry_fixed.expect("parry keeps it");
                assert!((fixed - DVec3::Z).length() < 1e-6, "{fixed}");
            }
            assert!(
                matches!(e.feature, Feature::Edge(_) | Feature::Vertex(_)),
                "{e:?}"
            );
        }
        // Each triangle alone pushes the sunk box out along a tilted normal: ghosts.
        let ghosts = contacts
            .iter()
            .filter(|c| !c.edges.as_ref().unwrap().in_cone);
        assert!(ghosts.count() >= 4);
        // Jolt keeps the deepest and drops the contacts whose features it voided.
        let kept = contacts.iter().filter(|c| c.jolt_kept == Some(true));
        assert_eq!(kept.count(), 1);
    }

    /// A smaller box level and a hair above one triangle's middle: one face contact on
    /// the floor's normal, no ghost.
    #[test]
    fn a_level_box_over_one_triangle_touches_its_face() {
        let tree = CompositeTree::new(Pieces::Triangles(floor()));
        let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.1)).unwrap());
        let pose = RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::new(0.65, 0.3, 0.101));
        let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
        let settings = SolverSettings::default();
        let contacts = composite_contacts(&tree, &cube, pose, 0.01, gjk, settings, false);
        assert_eq!(contacts.len(), 1, "{contacts:?}");
        let e = contacts[0].edges.as_ref().unwrap();
        assert_eq!(e.feature, Feature::Face);
        assert!(e.in_cone && e.normal_is_face());
        assert!((contacts[0].gap - 0.001).abs() < 1e-9);
    }
}
