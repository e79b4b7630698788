//! The top bar: camera buttons, layer toggles and the status line.

use bevy::prelude::MessageWriter;
use bevy_egui::egui;

use crate::app::camera::CameraRequest;
use crate::app::draw::minkowski::DifferenceFrame;
use crate::app::state::{DifferencePlacement, Layers, StatusLine};

pub fn top_bar_ui(
    ui: &mut egui::Ui,
    layers: &mut Layers,
    status: &StatusLine,
    frame: &DifferenceFrame,
    hull_paths: &str,
    camera: &mut MessageWriter<CameraRequest>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.heading("Collidescope");
        ui.separator();
        if ui.button("Frame all").clicked() {
            camera.write(CameraRequest::FrameAll);
        }
        if ui
            .button("Frame step")
            .on_hover_text("close in on the simplex and the origin")
            .clicked()
        {
            camera.write(CameraRequest::FrameStep);
        }
        if ui.button("Reset view").clicked() {
            camera.write(CameraRequest::Reset);
        }
        ui.separator();
        ui.label("Show:");
        ui.checkbox(&mut layers.shapes, "shapes");
        let how = if frame.sampled { "sampled" } else { "exact" };
        ui.checkbox(
            &mut layers.difference,
            if frame.cores {
                format!("cores' A ⊖ B ({how}, {} vertices)", frame.vertex_count)
            } else {
                format!("A ⊖ B ({how}, {} vertices)", frame.vertex_count)
            },
        );
        ui.selectable_value(
            &mut layers.placement,
            DifferencePlacement::SideView,
            "beside",
        );
        ui.selectable_value(
            &mut layers.placement,
            DifferencePlacement::InPlace,
            "in place",
        );
        ui.checkbox(&mut layers.simplex, "simplex");
        ui.checkbox(&mut layers.region, "region").on_hover_text(
            "the Voronoi region of the simplex that holds the origin (in the plane: all its \
             regions): the step keeps the vertices of that feature and drops the others",
        );
        ui.checkbox(&mut layers.labels, "labels");
        ui.checkbox(&mut layers.support_direction, "support dir.");
        ui.checkbox(&mut layers.support_parts, "parts on A, B");
        ui.checkbox(&mut layers.construction, "construction")
            .on_hover_text("A ⊖ B built before your eyes: −B placed at point after point of A");
        ui.checkbox(&mut layers.iterate, "x_k");
        ui.checkbox(&mut layers.frank_wolfe_path, "FW path");
        ui.checkbox(&mut layers.witness, "witnesses");
        ui.checkbox(&mut layers.plane, "plane").on_hover_text(
            "the step's support plane: through w, perpendicular to x, at ω = ⟨x, w⟩/∥x∥ from \
             the origin; when ω > 0 it separates the origin from A ⊖ B (a lower bound)",
        );
        ui.checkbox(&mut layers.bvh, "BVH").on_hover_text(
            "a mesh, height field or compound: the boxes of the hierarchy nodes the focused \
             method's query compared (green: kept and searched, red: pruned, no nearer than \
             the best found)",
        );
        ui.checkbox(&mut layers.internal_edges, "internal edges")
            .on_hover_text(
                "contacts on a mesh: the feature's normal cone (grey), the contact normal \
                 (green in the cone, vermillion a ghost), parry's FIX_INTERNAL_EDGES normal \
                 (sky blue) and Jolt's active-edge normal (purple)",
            );
        if !hull_paths.is_empty() {
            ui.separator();
            ui.label(format!("Hulls: {hull_paths}"))
                .on_hover_text("which checked hull each polytope's support and drawing use");
        }
    });
    if !status.text.is_empty() {
        let color = if status.is_error {
            egui::Color32::from_rgb(190, 30, 30)
        } else {
            egui::Color32::from_rgb(40, 90, 40)
        };
        ui.colored_label(color, &status.text);
    }
}
