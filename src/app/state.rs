//! The viewer's shared state, as resources every plugin reads: the model, the playback
//! cursor, the status line, the layers shown, the presentation, the frame's stages and
//! the mode. A leaf: it imports no panel, drawing or plugin of the viewer (only the
//! plain-Rust model and playback state), so the theme, the panels and the drawings all
//! build on it without importing each other.

use bevy::prelude::*;

use super::model::ViewerModel;
use super::playback_state::Playback;

/// The viewer's model as a resource.
#[derive(Resource, Deref, DerefMut)]
pub struct Model(pub ViewerModel);

/// The time cursor as a resource.
#[derive(Resource, Deref, DerefMut, Default)]
pub struct PlaybackCursor(pub Playback);

/// The last message for the status line (errors stay until the next message).
#[derive(Resource, Default, Clone, Debug)]
pub struct StatusLine {
    pub text: String,
    pub is_error: bool,
}

impl StatusLine {
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.is_error = false;
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.is_error = true;
    }
}

/// Where `A ⊖ B` is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DifferencePlacement {
    /// Around the world origin, among the shapes.
    InPlace,
    /// Beside the shapes, with its own origin marker.
    SideView,
}

/// Which layers are drawn.
#[derive(Resource, Clone, Debug)]
pub struct Layers {
    pub shapes: bool,
    pub difference: bool,
    pub placement: DifferencePlacement,
    pub simplex: bool,
    pub labels: bool,
    pub support_direction: bool,
    pub support_parts: bool,
    pub iterate: bool,
    pub witness: bool,
    pub frank_wolfe_path: bool,
    /// The playback panel with its plots, in a lesson (outside one it is always shown).
    pub plots: bool,
    /// `A ⊖ B` built before the eyes: copies of −B placed at points of A, one after
    /// another (off unless asked for).
    pub construction: bool,
    /// A composite pair: the boxes of the hierarchy nodes the focused method's query
    /// compared, the pruned ones told apart.
    pub bvh: bool,
    /// A composite pair: each contact on the mesh with its feature's normal cone, its
    /// normal (a ghost outside the cone) and parry's and Jolt's corrected normals.
    pub internal_edges: bool,
    /// A distance step's support plane: through w perpendicular to x, at ω = ⟨x, w⟩/∥x∥
    /// from the origin; it separates the origin from A ⊖ B when ω > 0 (off unless asked).
    pub plane: bool,
    /// A GJK step's Voronoi region that holds the origin (in space the prism, slab or
    /// cone of the simplex's nearest feature; in the plane every region of the simplex):
    /// what lies outside it is what the step drops.
    pub region: bool,
}

impl Layers {
    /// The toggles the core's step pictures read (`crate::sketch`).
    pub fn sketch(&self) -> crate::sketch::Layers {
        crate::sketch::Layers {
            difference: self.difference,
            simplex: self.simplex,
            labels: self.labels,
            support_direction: self.support_direction,
            support_parts: self.support_parts,
            iterate: self.iterate,
            witness: self.witness,
            frank_wolfe_path: self.frank_wolfe_path,
            plane: self.plane,
            region: self.region,
        }
    }
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            shapes: true,
            difference: true,
            placement: DifferencePlacement::SideView,
            simplex: true,
            labels: true,
            support_direction: true,
            support_parts: true,
            iterate: true,
            witness: true,
            frank_wolfe_path: true,
            plots: true,
            construction: false,
            bvh: true,
            internal_edges: true,
            plane: false,
            region: true,
        }
    }
}

/// The order of the per-frame work: input, then solving, then drawing.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum ViewerSet {
    Input,
    /// Panel commands applied and stale runs re-run (one system does the solving).
    Solve,
    Draw,
}

/// What the viewer is being used for: exploring the focused method's steps, or
/// diagnosing slow cases (sweeps and heat maps; their jobs are collected only then).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViewerMode {
    #[default]
    Explore,
    Diagnose,
}

/// How the viewer presents itself.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Presentation {
    pub projector: bool,
    /// egui's zoom factor (the projector theme starts at 1.75).
    pub ui_scale: f32,
    /// Only the 3-D view and the narration.
    pub panels_hidden: bool,
    pub fullscreen: bool,
    /// In a lesson, every panel (the scene and method panels, playback and plots);
    /// otherwise only the picture, the lesson's text and its step list, the plots when
    /// a step shows them.
    pub lesson_panels: bool,
}

impl Default for Presentation {
    fn default() -> Self {
        Self {
            projector: false,
            ui_scale: 1.1,
            panels_hidden: false,
            fullscreen: false,
            lesson_panels: false,
        }
    }
}

impl Presentation {
    pub const SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.75..=2.5;

    /// The projector theme on or off (it brings its own UI scale).
    pub fn set_projector(&mut self, on: bool) {
        self.projector = on;
        self.ui_scale = if on { 1.75 } else { 1.1 };
    }

    pub fn scale_by(&mut self, step: f32) {
        self.ui_scale =
            (self.ui_scale + step).clamp(*Self::SCALE_RANGE.start(), *Self::SCALE_RANGE.end());
    }
}
