//! A composite pair's own drawings: the sub-pair in focus highlighted on the mesh (its
//! triangle or part filled and outlined, the other sub-pairs' pieces outlined faintly),
//! the BVH layer (the boxes of the hierarchy nodes the focused query compared, pruned
//! ones in another colour) and the internal-edge layer (each contact on a mesh with its
//! feature's normal cone, its normal, a ghost's in vermillion, and parry's and Jolt's
//! corrected normals beside it). What is drawn is worked out once per change of the
//! runs and kept; each frame only emits the lines.

use bevy::prelude::*;
use glam::DVec3;

use super::shapes::{bevy_mesh, bevy_transform, placeholder_mesh};
use super::{DrawStep, ViewLabels};
use crate::app::camera::MarkerScale;
use crate::app::composite_view::CompositeView;
use crate::app::model::ViewerModel;
use crate::app::state::{Layers, Model, ViewerSet};
use crate::composite::internal_edges::Feature;
use crate::composite::{Composite, Pieces};
use crate::pose::Pose;
use crate::tessellate::{shape_mesh, TriMesh};

/// The piece in focus: Okabe–Ito yellow, filled, with a black outline.
pub const COLOR_FOCUSED_PIECE: Color = Color::srgb(0.941, 0.894, 0.259);
/// The other sub-pairs' pieces, outlined.
pub const COLOR_OTHER_PIECES: Color = Color::srgb(0.35, 0.35, 0.4);
/// BVH nodes kept (searched below) and pruned.
pub const COLOR_NODE_KEPT: Color = Color::srgb(0.0, 0.62, 0.45);
pub const COLOR_NODE_PRUNED: Color = Color::srgb(0.835, 0.369, 0.0);
/// The internal-edge layer: the feature's cone, a normal in it, a ghost, parry's and
/// Jolt's corrections.
pub const COLOR_CONE: Color = Color::srgb(0.3, 0.3, 0.3);
pub const COLOR_IN_CONE: Color = Color::srgb(0.0, 0.62, 0.45);
pub const COLOR_GHOST: Color = Color::srgb(0.835, 0.369, 0.0);
pub const COLOR_PARRY: Color = Color::srgb(0.337, 0.706, 0.914);
pub const COLOR_JOLT: Color = Color::srgb(0.8, 0.475, 0.655);

/// At most this many boxes and outlined pieces are drawn (lines are redrawn each frame).
const MAX_BOXES: usize = 4_000;
const MAX_OUTLINED: usize = 400;
/// Contacts labelled in the view (every one is drawn; the list names them all).
const MAX_LABELLED_CONTACTS: usize = 3;

/// The highlighted piece's fill, in the composite body's frame.
#[derive(Component)]
struct FocusedPieceFill {
    /// 0: the first composite's piece, 1: the second's (a pair of two composites).
    side: u8,
}

/// An arrow of the internal-edge layer, world frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub from: Vec3,
    pub to: Vec3,
    pub color: Color,
}

/// Everything the layers draw, worked out from the model once per change.
#[derive(Default, Debug)]
pub struct CompositeDrawing {
    /// The focused piece's outline and the other sub-pairs' pieces', world frame.
    pub focused_outline: Vec<[Vec3; 2]>,
    pub other_outlines: Vec<[Vec3; 2]>,
    /// Where the focused piece's name is written.
    pub focused_label: Option<(Vec3, String)>,
    /// BVH nodes: world transform of each box (a unit cube scaled), and whether pruned.
    pub boxes: Vec<(Transform, bool)>,
    /// Internal edges: contact points, the cones' spokes and arcs, the normals.
    pub contact_points: Vec<Vec3>,
    pub cone_lines: Vec<[Vec3; 2]>,
    pub arrows: Vec<Arrow>,
    pub labels: Vec<(Vec3, String, Color)>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_fills).add_systems(
        Update,
        (update_fills, draw_composite_layers)
            .chain()
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn spawn_fills(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for side in [0, 1] {
        commands.spawn((
            FocusedPieceFill { side },
            Mesh3d(meshes.add(placeholder_mesh())),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: COLOR_FOCUSED_PIECE,
                double_sided: true,
                cull_mode: None,
                unlit: true,
                // Opaque and nudged towards the camera: the translucent mesh it lies in
                // does not tint it.
                depth_bias: 50.0,
                ..default()
            })),
            Transform::default(),
            Visibility::Hidden,
        ));
    }
}

/// The pieces of the sub-pair in focus: (body, composite, piece) for each composite side.
fn focused_pieces(model: &ViewerModel) -> Vec<(usize, &Composite, u32)> {
    let Some(view) = model.composite() else {
        return Vec::new();
    };
    let Some((piece, other)) = view.focused_choice() else {
        return Vec::new();
    };
    let composite_of = |body: usize| model.scene.bodies[body].composite.as_deref();
    let mut pieces = Vec::new();
    if let Some(c) = composite_of(view.first_body) {
        pieces.push((view.first_body, c, piece));
    }
    if let (Some(j), Some(c)) = (other, composite_of(view.second_body)) {
        pieces.push((view.second_body, c, j));
    }
    pieces
}

/// Piece `i` of a composite as a small mesh in the composite's frame.
fn piece_mesh(composite: &Composite, i: u32) -> TriMesh {
    match composite.pieces() {
        Pieces::Triangles(_) => match composite.triangle(i) {
            Some(corners) => TriMesh {
                vertices: corners.to_vec(),
                triangles: vec![[0, 1, 2]],
                edges: vec![[0, 1], [1, 2], [2, 0]],
                sampled: false,
            },
            None => TriMesh::default(),
        },
        Pieces::Parts(parts) => match parts.get(i as usize) {
            Some(part) => {
                let mut mesh = shape_mesh(&part.shape);
                for v in &mut mesh.vertices {
                    *v = part.pose.transform_point(*v);
                }
                mesh
            }
            None => TriMesh::default(),
        },
    }
}

/// What the fills were built for: the shapes' revision and each (body, piece).
type FillKey = (u64, Vec<(usize, u32)>);

/// The fill of the focused piece follows the choice and its body.
fn update_fills(
    model: Res<Model>,
    layers: Res<Layers>,
    mut built: Local<Option<FillKey>>,
    mut fills: Query<(
        &FocusedPieceFill,
        &mut Mesh3d,
        &mut Transform,
        &mut Visibility,
    )>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let pieces = focused_pieces(&model);
    let key: Vec<(usize, u32)> = pieces.iter().map(|(b, _, p)| (*b, *p)).collect();
    let rebuild = built
        .as_ref()
        .is_none_or(|(revision, k)| *revision != model.shape_revision || *k != key);
    for (fill, mut mesh, mut transform, mut visibility) in &mut fills {
        let Some((body, composite, piece)) = pieces.get(fill.side as usize) else {
            *visibility = Visibility::Hidden;
            continue;
        };
        if rebuild {
            let tri = piece_mesh(composite, *piece);
            if !tri.triangles.is_empty() {
                mesh.0 = meshes.add(bevy_mesh(&tri));
            }
        }
        let placed = bevy_transform(&model.scene.bodies[*body].pose);
        if *transform != placed {
            *transform = placed;
        }
        *visibility = if layers.shapes {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    if rebuild {
        *built = Some((model.shape_revision, key));
    }
}

/// The edges of `mesh` (composite frame) placed by `pose`.
fn placed_edges(mesh: &TriMesh, pose: &Pose) -> Vec<[Vec3; 2]> {
    let w = |i: u32| pose.transform_point(mesh.vertices[i as usize]).as_vec3();
    mesh.edges.iter().map(|[p, q]| [w(*p), w(*q)]).collect()
}

fn centroid(mesh: &TriMesh, pose: &Pose) -> Vec3 {
    let n = mesh.vertices.len().max(1) as f64;
    pose.transform_point(mesh.vertices.iter().sum::<DVec3>() / n)
        .as_vec3()
}

/// Works out what the composite layers draw for the model as it is.
pub fn composite_drawing(model: &ViewerModel) -> CompositeDrawing {
    let mut drawing = CompositeDrawing::default();
    let Some(view) = model.composite() else {
        return drawing;
    };
    let scene = &model.scene;
    let first = &scene.bodies[view.first_body];
    let second = &scene.bodies[view.second_body];
    // The piece in focus and the other sub-pairs' pieces.
    for (k, (body, composite, piece)) in focused_pieces(model).into_iter().enumerate() {
        let pose = scene.bodies[body].pose;
        let mesh = piece_mesh(composite, piece);
        drawing.focused_outline.extend(placed_edges(&mesh, &pose));
        if k == 0 {
            let name = model
                .composite()
                .and_then(|v| v.sub_pair)
                .map(|s| scene.sub_pair_name(view.focused_run(), s))
                .unwrap_or_default();
            drawing.focused_label = Some((centroid(&mesh, &pose), name));
        }
    }
    if let Some(composite) = first.composite.as_deref() {
        let run = view.focused_run();
        let focused = view.sub_pair;
        for (k, sub) in run.answer.sub_pairs.iter().enumerate().take(MAX_OUTLINED) {
            if Some(k) == focused {
                continue;
            }
            if let Some(corners) = composite.triangle(sub.piece) {
                let w = corners.map(|c| first.pose.transform_point(c).as_vec3());
                drawing
                    .other_outlines
                    .extend([[w[0], w[1]], [w[1], w[2]], [w[2], w[0]]]);
            }
        }
    }
    drawing.boxes = node_boxes(view, model);
    internal_edges(view, first, second, &mut drawing);
    drawing
}

/// The visited nodes' boxes placed in the world (a node of the second composite's
/// hierarchy in the second body's frame).
fn node_boxes(view: &CompositeView, model: &ViewerModel) -> Vec<(Transform, bool)> {
    let pose_of = |tree: u8| {
        let body = if tree == 0 {
            view.first_body
        } else {
            view.second_body
        };
        model.scene.bodies[body].pose
    };
    // Kept nodes first, so that a cap drops pruned ones.
    let mut nodes: Vec<_> = view.nodes.iter().collect();
    nodes.sort_by_key(|n| n.pruned);
    nodes
        .into_iter()
        .take(MAX_BOXES)
        .map(|n| {
            let pose = pose_of(n.tree);
            let centre = (n.aabb.min + n.aabb.max) * 0.5;
            let size = (n.aabb.max - n.aabb.min).max(DVec3::splat(1e-9));
            let transform = Transform {
                translation: pose.transform_point(centre).as_vec3(),
                rotation: pose.rotation.as_quat(),
                scale: size.as_vec3(),
            };
            (transform, n.pruned)
        })
        .collect()
}

/// The contacts' cones, normals and corrections, world frame.
fn internal_edges(
    view: &CompositeView,
    first: &crate::scene::Body,
    second: &crate::scene::Body,
    drawing: &mut CompositeDrawing,
) {
    let run = view.focused_run();
    let piece_name = |i: u32| {
        first
            .composite
            .as_deref()
            .map_or_else(|| format!("piece {i}"), |c| c.piece_name(i))
    };
    // Arrows about the other body's size, and at least a tenth of the composite's:
    // long enough to tell directions a few degrees apart.
    // (The hull's extent bounds the composite's size and costs nothing.)
    let whole = first.shape.extent();
    let length = (second.shape.extent() * 1.2).max(0.15 * whole).max(1e-6) as f32;
    let pose = first.pose;
    let turn = |v: DVec3| (pose.rotation * v).normalize_or_zero().as_vec3();
    let turn_second = |v: DVec3| (second.pose.rotation * v).normalize_or_zero().as_vec3();
    for (k, c) in run.contacts.iter().enumerate() {
        let p = pose.transform_point(c.point).as_vec3();
        drawing.contact_points.push(p);
        let Some(e) = &c.edges else {
            drawing.arrows.push(Arrow {
                from: p,
                to: p + turn(c.normal) * length,
                color: COLOR_IN_CONE,
            });
            continue;
        };
        let label = (k < MAX_LABELLED_CONTACTS).then(|| piece_name(e.triangle));
        draw_edge_report(drawing, p, e, &turn, length, label, k == 0);
        // Between two meshes: the contact as the second mesh sees it, at its point there.
        if let (Some(o), Some(other)) = (&c.other, second.composite.as_deref()) {
            if let Some(f) = &o.edges {
                let q = pose.transform_point(o.point).as_vec3();
                drawing.contact_points.push(q);
                let label = (k == 0).then(|| other.piece_name(f.triangle));
                draw_edge_report(drawing, q, f, &turn_second, length, label, false);
            }
        }
    }
}

/// One mesh's view of a contact at `p` (world): the feature's normal cone (spokes, and
/// arcs where it spans), the contact normal green in it or vermillion outside, and for
/// a ghost parry's and Jolt's corrected normals; labelled with `label` (the triangle's
/// name), the engines' arrows too when `engine_labels`.
fn draw_edge_report(
    drawing: &mut CompositeDrawing,
    p: Vec3,
    e: &crate::composite::internal_edges::EdgeReport,
    turn: &impl Fn(DVec3) -> Vec3,
    length: f32,
    label: Option<String>,
    engine_labels: bool,
) {
    let normals: Vec<Vec3> = e.cone.normals().iter().map(|n| turn(*n)).collect();
    for n in &normals {
        drawing.cone_lines.push([p, p + *n * length * 0.8]);
    }
    if matches!(e.cone, crate::composite::internal_edges::Cone::Span(_)) {
        // The span between neighbouring normals, as arcs at the spokes' ends.
        for pair in normals.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let steps = 12;
            let mut last = p + a * length * 0.8;
            for s in 1..=steps {
                let t = s as f32 / steps as f32;
                let d = a.lerp(b, t).normalize_or_zero();
                let next = p + d * length * 0.8;
                drawing.cone_lines.push([last, next]);
                last = next;
            }
        }
    }
    let color = if e.in_cone {
        COLOR_IN_CONE
    } else {
        COLOR_GHOST
    };
    let normal_tip = p + turn(e.contact_normal) * length;
    drawing.arrows.push(Arrow {
        from: p,
        to: normal_tip,
        color,
    });
    let mut labelled = Vec::new();
    if !e.in_cone {
        if let Some(fixed) = e.parry_fixed {
            let tip = p + turn(fixed) * length * 0.9;
            drawing.arrows.push(Arrow {
                from: p,
                to: tip,
                color: COLOR_PARRY,
            });
            labelled.push((tip, "parry", COLOR_PARRY));
        }
        let tip = p + turn(e.jolt_active_edges) * length * 0.75;
        drawing.arrows.push(Arrow {
            from: p,
            to: tip,
            color: COLOR_JOLT,
        });
        labelled.push((tip, "Jolt", COLOR_JOLT));
    }
    if let Some(name) = label {
        let word = if e.in_cone { "in cone" } else { "ghost" };
        let feature = match e.feature {
            Feature::Face => "face".to_string(),
            Feature::Edge(j) => format!("edge {j}"),
            Feature::Vertex(j) => format!("vertex {j}"),
        };
        drawing
            .labels
            .push((normal_tip, format!("{word}: {name} {feature}"), color));
        if engine_labels {
            drawing.labels.extend(
                labelled
                    .into_iter()
                    .map(|(tip, name, color)| (tip, name.to_string(), color)),
            );
        }
    }
}

fn draw_composite_layers(
    model: Res<Model>,
    layers: Res<Layers>,
    marker: Res<MarkerScale>,
    mut built: Local<Option<u64>>,
    mut drawing: Local<CompositeDrawing>,
    mut labels: ResMut<ViewLabels>,
    mut gizmos: Gizmos,
) {
    if model.composite().is_none() {
        return;
    }
    if *built != Some(model.revision) {
        *built = Some(model.revision);
        *drawing = composite_drawing(&model);
    }
    if layers.shapes {
        for [p, q] in &drawing.other_outlines {
            gizmos.line(*p, *q, COLOR_OTHER_PIECES);
        }
        for [p, q] in &drawing.focused_outline {
            gizmos.line(*p, *q, Color::BLACK);
        }
        if layers.labels {
            if let Some((at, name)) = &drawing.focused_label {
                labels.0.push((*at, name.clone(), Color::BLACK));
            }
        }
    }
    if layers.bvh {
        for (transform, pruned) in &drawing.boxes {
            let color = if *pruned {
                COLOR_NODE_PRUNED.with_alpha(0.45)
            } else {
                COLOR_NODE_KEPT.with_alpha(0.8)
            };
            gizmos.cube(*transform, color);
        }
    }
    if layers.internal_edges {
        for p in &drawing.contact_points {
            gizmos.sphere(
                Isometry3d::from_translation(*p),
                marker.0 * 1.5,
                Color::BLACK,
            );
        }
        for [p, q] in &drawing.cone_lines {
            gizmos.line(*p, *q, COLOR_CONE);
        }
        for a in &drawing.arrows {
            gizmos
                .arrow(a.from, a.to, a.color)
                .with_tip_length((a.to - a.from).length() * 0.15);
        }
        if layers.labels {
            labels.0.extend(drawing.labels.iter().cloned());
        }
    }
}
