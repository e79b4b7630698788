//! Scene notes, and per shape: kind, parameters and pose. Every edit applies at once.

use bevy_egui::egui;
use glam::DVec3;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::model::{Side, ViewerModel};
use crate::pose::Pose;
use crate::scene::ShapeSpec;

/// The shape descriptions being edited, kept in step with the model.
#[derive(Default)]
pub struct ShapeDrafts {
    synced_revision: Option<u64>,
    a: Option<ShapeSpec>,
    b: Option<ShapeSpec>,
}

/// The kinds the editor offers (meshes come through Files).
pub(super) const KINDS: [&str; 9] = [
    "sphere",
    "ellipsoid",
    "box",
    "capsule",
    "cylinder",
    "cone",
    "superellipsoid",
    "superquadric",
    "point",
];

/// The kinds the editor offers in a planar scene.
pub(super) const PLANAR_KINDS: [&str; 6] = [
    "polygon",
    "circle",
    "ellipse",
    "stadium",
    "rectangle",
    "point",
];

fn kind_of(spec: &ShapeSpec) -> &'static str {
    match spec {
        ShapeSpec::Polygon { .. } => "polygon",
        ShapeSpec::Circle { .. } => "circle",
        ShapeSpec::Ellipse { .. } => "ellipse",
        ShapeSpec::Stadium { .. } => "stadium",
        ShapeSpec::Rectangle { .. } => "rectangle",
        ShapeSpec::Point => "point",
        ShapeSpec::Sphere { .. } => "sphere",
        ShapeSpec::Ellipsoid { .. } => "ellipsoid",
        ShapeSpec::Box { .. } => "box",
        ShapeSpec::Capsule { .. } => "capsule",
        ShapeSpec::Cylinder { .. } => "cylinder",
        ShapeSpec::Cone { .. } => "cone",
        ShapeSpec::Superellipsoid { .. } => "superellipsoid",
        ShapeSpec::Polytope { .. } => "polytope",
        ShapeSpec::Mesh { .. } => "mesh (OBJ)",
        ShapeSpec::TriMesh { .. } => "triangle mesh",
        ShapeSpec::HeightField { .. } => "height field",
        ShapeSpec::Compound { .. } => "compound",
        ShapeSpec::Dilated { .. } => "dilated",
        ShapeSpec::Superquadric { .. } => "superquadric",
        ShapeSpec::Hyperquadric { .. } => "hyperquadric",
        ShapeSpec::Halfspaces { .. } => "half-spaces",
        ShapeSpec::Intersection { .. } => "intersection",
        ShapeSpec::UnionHull { .. } => "hull of a union",
    }
}

/// A reasonable shape of each kind, about half a metre across.
pub fn default_spec(kind: &str) -> ShapeSpec {
    match kind {
        "sphere" => ShapeSpec::Sphere { radius: 0.5 },
        "ellipsoid" => ShapeSpec::Ellipsoid {
            radii: [0.6, 0.4, 0.3],
        },
        "box" => ShapeSpec::Box {
            half_extents: [0.5, 0.4, 0.3],
        },
        "capsule" => ShapeSpec::Capsule {
            radius: 0.25,
            half_height: 0.4,
        },
        "cylinder" => ShapeSpec::Cylinder {
            radius: 0.4,
            half_height: 0.4,
        },
        "cone" => ShapeSpec::Cone {
            radius: 0.4,
            half_height: 0.5,
        },
        "superellipsoid" => ShapeSpec::Superellipsoid {
            radii: [0.5, 0.4, 0.3],
            exponent: 4.0,
        },
        // Chakraborty et al.'s "diamond", half size.
        "superquadric" => ShapeSpec::Superquadric {
            radii: [0.5, 0.35, 0.75],
            exponents: [4.0 / 3.0, 1.4, 15.0 / 13.0],
        },
        "polygon" => ShapeSpec::Polygon {
            points: vec![[-0.5, -0.3], [0.4, -0.4], [0.5, 0.2], [-0.1, 0.5]],
        },
        "circle" => ShapeSpec::Circle { radius: 0.4 },
        "ellipse" => ShapeSpec::Ellipse { radii: [0.6, 0.35] },
        "stadium" => ShapeSpec::Stadium {
            radius: 0.25,
            half_length: 0.4,
        },
        "rectangle" => ShapeSpec::Rectangle {
            half_extents: [0.5, 0.3],
        },
        _ => ShapeSpec::Point,
    }
}

pub fn scene_panel_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    drafts: &mut ShapeDrafts,
    commands: &mut PendingCommands,
) {
    if drafts.synced_revision != Some(model.shape_revision) {
        drafts.synced_revision = Some(model.shape_revision);
        drafts.a = Some(model.scene.a().spec.clone());
        drafts.b = Some(model.scene.b().spec.clone());
    }
    ui.heading(&model.scene.name);
    if !model.scene.notes.is_empty() {
        ui.label(egui::RichText::new(&model.scene.notes).italics());
    }
    pair_ui(ui, model, commands);
    for side in [Side::A, Side::B] {
        ui.separator();
        let draft = match side {
            Side::A => &mut drafts.a,
            Side::B => &mut drafts.b,
        };
        let Some(spec) = draft.as_mut() else { continue };
        body_ui(ui, model, side, spec, commands);
    }
}

/// With more than one pair (a version-2 scene): which pair is A and B. The other
/// bodies are drawn grey.
fn pair_ui(ui: &mut egui::Ui, model: &ViewerModel, commands: &mut PendingCommands) {
    if model.scene.pairs.len() < 2 {
        return;
    }
    // Named bodies (a robot's links, a MuJoCo model's geoms) by their names.
    let name = |i: usize| match &model.scene.bodies[i].name {
        Some(name) => name.clone(),
        None => format!("body {}", i + 1),
    };
    let label = |(i, j): (usize, usize)| format!("{} and {}", name(i), name(j));
    let current = model.scene.pairs[0];
    let mut chosen = None;
    ui.horizontal(|ui| {
        ui.label("pair in focus");
        egui::ComboBox::from_id_salt("pair")
            .selected_text(label(current))
            .show_ui(ui, |ui| {
                for (k, pair) in model.scene.pairs.iter().enumerate() {
                    if ui.selectable_label(k == 0, label(*pair)).clicked() {
                        chosen = Some(k);
                    }
                }
            });
    });
    if let Some(k) = chosen {
        commands.push(ViewerCommand::FocusPair(k));
    }
}

fn body_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    side: Side,
    spec: &mut ShapeSpec,
    commands: &mut PendingCommands,
) {
    let body = model.side(side);
    match &model.body(body).name {
        Some(name) => ui.strong(format!(
            "Shape {} (body {}: {name})",
            side.label(),
            body.0 + 1
        )),
        None => ui.strong(format!("Shape {} (body {})", side.label(), body.0 + 1)),
    };
    let mut changed = false;
    egui::ComboBox::from_id_salt(("kind", side.label()))
        .selected_text(kind_of(spec))
        .show_ui(ui, |ui| {
            let kinds: &[&str] = if model.scene.dimension == crate::scene::Dimension::Planar {
                &PLANAR_KINDS
            } else {
                &KINDS
            };
            for &kind in kinds {
                if ui.selectable_label(kind_of(spec) == kind, kind).clicked()
                    && kind_of(spec) != kind
                {
                    *spec = default_spec(kind);
                    changed = true;
                }
            }
        });
    changed |= parameters_ui(ui, spec);
    if let Some(report) = &model.body(body).mesh_report {
        ui.label(format!(
            "{} vertices, {} faces -> hull {} vertices{}",
            report.input_vertices,
            report.input_faces,
            report.hull_vertices,
            match report.convex {
                Some(true) => ", convex",
                Some(false) => ", not convex",
                None => ", flat",
            }
        ));
    }
    if changed {
        commands.push(ViewerCommand::SetShape(body, spec.clone()));
    }
    pose_ui(ui, model, body, commands);
    velocity_ui(ui, model, body, commands);
}

/// The body's motion over t ∈ [0, 1] (for the time-of-impact methods).
fn velocity_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    body: crate::app::model::BodyId,
    commands: &mut PendingCommands,
) {
    let current = model.body(body).velocity;
    let mut moves = current.is_some();
    if ui
        .checkbox(&mut moves, "moves (for the time of impact)")
        .changed()
    {
        let v = moves.then_some(DVec3::new(-1.0, 0.0, 0.0));
        commands.push(ViewerCommand::SetVelocity(body, v));
    }
    if let Some(v) = current {
        let mut value = v.to_array();
        if triple(ui, "velocity", &mut value, 0.01) {
            commands.push(ViewerCommand::SetVelocity(
                body,
                Some(DVec3::from_array(value)),
            ));
        }
    }
}

fn value(ui: &mut egui::Ui, label: &str, v: &mut f64) -> bool {
    ui.horizontal(|ui| {
        ui.label(label);
        ui.add(egui::DragValue::new(v).speed(0.01).max_decimals(4))
            .changed()
    })
    .inner
}

fn triple(ui: &mut egui::Ui, label: &str, v: &mut [f64; 3], speed: f64) -> bool {
    ui.horizontal(|ui| {
        ui.label(label);
        let mut changed = false;
        for x in v.iter_mut() {
            changed |= ui
                .add(egui::DragValue::new(x).speed(speed).max_decimals(4))
                .changed();
        }
        changed
    })
    .inner
}

fn double(ui: &mut egui::Ui, label: &str, v: &mut [f64; 2]) -> bool {
    ui.horizontal(|ui| {
        ui.label(label);
        let mut changed = false;
        for x in v.iter_mut() {
            changed |= ui
                .add(egui::DragValue::new(x).speed(0.01).max_decimals(4))
                .changed();
        }
        changed
    })
    .inner
}

/// Parameter fields of a spec; true when one changed.
fn parameters_ui(ui: &mut egui::Ui, spec: &mut ShapeSpec) -> bool {
    match spec {
        ShapeSpec::Polygon { points } => {
            ui.label(format!("{} points (edit in the scene file)", points.len()));
            false
        }
        ShapeSpec::Circle { radius } => value(ui, "radius", radius),
        ShapeSpec::Ellipse { radii } => double(ui, "radii", radii),
        ShapeSpec::Stadium {
            radius,
            half_length,
        } => value(ui, "radius", radius) | value(ui, "half length", half_length),
        ShapeSpec::Rectangle { half_extents } => double(ui, "half extents", half_extents),
        ShapeSpec::Point => false,
        ShapeSpec::Sphere { radius } => value(ui, "radius", radius),
        ShapeSpec::Ellipsoid { radii } => triple(ui, "radii", radii, 0.01),
        ShapeSpec::Box { half_extents } => triple(ui, "half extents", half_extents, 0.01),
        ShapeSpec::Capsule {
            radius,
            half_height,
        }
        | ShapeSpec::Cylinder {
            radius,
            half_height,
        }
        | ShapeSpec::Cone {
            radius,
            half_height,
        } => value(ui, "radius", radius) | value(ui, "half height", half_height),
        ShapeSpec::Superellipsoid { radii, exponent } => {
            triple(ui, "radii", radii, 0.01) | value(ui, "exponent p ≥ 1", exponent)
        }
        ShapeSpec::Polytope { points, polygons } => {
            ui.label(match polygons {
                Some(p) => format!(
                    "{} points (their hull; the engine's object was built with {} polygons)",
                    points.len(),
                    p.len()
                ),
                None => format!("{} points", points.len()),
            });
            false
        }
        ShapeSpec::Mesh { path, use_as } => {
            ui.label(format!("mesh {path} (as {use_as:?})"));
            false
        }
        ShapeSpec::TriMesh {
            vertices,
            triangles,
            ..
        } => {
            ui.label(format!(
                "{} triangles on {} vertices, taken as a mesh (edit in the scene file)",
                triangles.len(),
                vertices.len()
            ));
            false
        }
        ShapeSpec::HeightField { heights, .. } => {
            ui.label(format!(
                "height field of {} × {} heights (edit in the scene file)",
                heights.len(),
                heights.first().map_or(0, Vec::len)
            ));
            false
        }
        ShapeSpec::Compound { parts } => {
            ui.label(format!(
                "compound of {} parts (edit in the scene file)",
                parts.len()
            ));
            false
        }
        ShapeSpec::Dilated { radius, .. } => value(ui, "dilation radius", radius),
        ShapeSpec::Superquadric { radii, exponents } => {
            triple(ui, "radii", radii, 0.01) | triple(ui, "exponents ≥ 1", exponents, 0.05)
        }
        ShapeSpec::Hyperquadric { terms } => {
            ui.label(format!("{} terms |h·x + c|^n", terms.len()));
            false
        }
        ShapeSpec::Halfspaces { planes } => {
            ui.label(format!("{} half-spaces", planes.len()));
            false
        }
        ShapeSpec::Intersection { members } => {
            ui.label(format!(
                "intersection of {} members (edit in the scene file)",
                members.len()
            ));
            false
        }
        ShapeSpec::UnionHull { members } => {
            ui.label(format!("hull of a union of {} members", members.len()));
            false
        }
    }
}

/// Translation and XYZ rotation in degrees.
fn pose_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    body: crate::app::model::BodyId,
    commands: &mut PendingCommands,
) {
    let pose = model.body(body).pose;
    let mut translation = pose.translation.to_array();
    let mut degrees = pose.euler_degrees().to_array();
    let moved = triple(ui, "position", &mut translation, 0.01);
    let turned = triple(ui, "rotation °", &mut degrees, 0.5);
    if moved || turned {
        let new_pose = if turned {
            Pose::from_euler_degrees(DVec3::from_array(translation), DVec3::from_array(degrees))
        } else {
            Pose::new(DVec3::from_array(translation), pose.rotation)
        };
        commands.push(ViewerCommand::SetPose(body, new_pose));
    }
}
