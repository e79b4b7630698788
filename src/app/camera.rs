//! Orbit / pan / zoom camera. Input over egui panels, and drags that started on a shape,
//! never move it.

use std::f32::consts::FRAC_PI_2;

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, ScalingMode};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy_egui::input::egui_wants_any_pointer_input;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use super::state::ViewerSet;

/// Where the camera looks from: spherical coordinates around a focus point.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub focus: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// z is up (robots, as URDF has it) rather than y (the two-shape scenes).
    pub z_up: bool,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            focus: Vec3::ZERO,
            yaw: 0.6,
            pitch: 0.45,
            distance: 6.0,
            z_up: false,
        }
    }
}

impl OrbitCamera {
    pub fn transform(&self) -> Transform {
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0);
        if self.z_up {
            // The same orbit turned a quarter about x: its y becomes z.
            let turn = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
            let eye = self.focus + turn * rotation * Vec3::new(0.0, 0.0, self.distance);
            return Transform::from_translation(eye).looking_at(self.focus, Vec3::Z);
        }
        let eye = self.focus + rotation * Vec3::new(0.0, 0.0, self.distance);
        Transform::from_translation(eye).looking_at(self.focus, Vec3::Y)
    }

    /// Looks at a sphere so that it fills the view (vertical field of view `fov`).
    pub fn frame(&mut self, centre: Vec3, radius: f32, fov: f32) {
        self.focus = centre;
        self.distance = (radius.max(MIN_RADIUS) / (fov * 0.5).sin()) * 1.05;
    }

    /// Looks at a box from the current direction, as close as its eight corners allow
    /// within the vertical field of view `fov` and the view's `aspect` (width / height):
    /// the box, not the sphere around it, fills the view.
    pub fn frame_box(&mut self, min: Vec3, max: Vec3, fov: f32, aspect: f32) {
        let centre = (min + max) * 0.5;
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0);
        let (right, up, back) = (rotation * Vec3::X, rotation * Vec3::Y, rotation * Vec3::Z);
        let tan_v = (fov * 0.5).tan();
        let tan_h = tan_v * aspect.max(0.1);
        let mut distance = MIN_RADIUS;
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            );
            let d = corner - centre;
            // A corner nearer the eye (along `back`) needs the eye further away.
            let depth = d.dot(back);
            distance = distance
                .max(depth + d.dot(right).abs() / tan_h)
                .max(depth + d.dot(up).abs() / tan_v);
        }
        self.focus = centre;
        self.distance = distance * 1.08;
    }
}

/// The world-space sphere that holds everything drawn (kept by the drawing plugins).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct SceneBounds {
    pub min: Vec3,
    pub max: Vec3,
}

impl SceneBounds {
    pub fn sphere(&self) -> (Vec3, f32) {
        (
            (self.min + self.max) * 0.5,
            (self.max - self.min).length() * 0.5,
        )
    }
}

/// A length that looks the same size on screen wherever the camera is: markers and
/// small axes use it, so they stay readable in a close-up and in an overview.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MarkerScale(pub f32);

impl Default for MarkerScale {
    fn default() -> Self {
        Self(0.05)
    }
}

/// Camera requests from the UI.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraRequest {
    Reset,
    FrameAll,
    /// Close in on the simplex and the origin of `A ⊖ B` at the current step.
    FrameStep,
    /// The step's newest part ([`StepBounds::newest`]), else the step.
    FrameNewest,
    /// The pair's `A ⊖ B` as drawn, with the origin.
    FrameDifference,
}

/// The world-space sphere around what the current step draws in `A ⊖ B`.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StepBounds {
    pub centre: Vec3,
    pub radius: f32,
    /// The sphere around the step's newest part (a distance step: the origin, the new
    /// support and the new iterate), when the drawing knows it.
    pub newest: Option<(Vec3, f32)>,
}

impl StepBounds {
    /// The sphere around `points` (their bounding box's), at least `min_radius`.
    pub fn around(points: impl IntoIterator<Item = Vec3>, min_radius: f32) -> Self {
        let (lo, hi) = points.into_iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
        Self {
            centre: (lo + hi) * 0.5,
            radius: ((hi - lo).length() * 0.5).max(min_radius),
            newest: None,
        }
    }
}

/// Set while the pointer drags a shape, so the camera leaves that drag alone.
#[derive(Resource, Default)]
pub struct ShapeDragActive(pub bool);

const FOV: f32 = std::f32::consts::FRAC_PI_4;

/// The smallest sphere a framing fills the view with: lesson 11's last iterates are
/// 1e-3 from the origin, and the viewer's f32 positions still resolve 1e-5 at a scene
/// of size 1.
const MIN_RADIUS: f32 = 1.0e-5;

/// The perspective near plane, a fixed fraction of the orbit distance: a close-up
/// of a 1e-3 feature keeps what lies in front of the focus (Bevy's reverse-z depth
/// keeps its precision however small the near plane is).
fn near_plane(distance: f32) -> f32 {
    (distance * 0.01).clamp(1.0e-7, 0.1)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OrbitCamera>()
        .init_resource::<SceneBounds>()
        .init_resource::<StepBounds>()
        .init_resource::<MarkerScale>()
        .init_resource::<ShapeDragActive>()
        .add_message::<CameraRequest>()
        .add_systems(Startup, spawn_camera_and_lights)
        .add_systems(
            Update,
            (
                orbit_with_mouse
                    .run_if(not(egui_wants_any_pointer_input).and_then(pointer_in_view)),
                frame_all_when_drawn,
                answer_camera_requests,
                apply_orbit,
            )
                .chain()
                .in_set(ViewerSet::Input),
        );
}

fn spawn_camera_and_lights(mut commands: Commands, mut egui_settings: ResMut<EguiGlobalSettings>) {
    // egui gets a camera of its own that covers the whole window, drawn over the 3-D
    // camera, whose viewport is then free to shrink to the space between the panels.
    egui_settings.auto_create_primary_context = false;
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
    commands.spawn((
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            fov: FOV,
            ..default()
        }),
        OrbitCamera::default().transform(),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 6000.0,
            ..default()
        },
        Transform::from_xyz(3.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2500.0,
            ..default()
        },
        Transform::from_xyz(-4.0, -2.0, -6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 600.0,
        ..default()
    });
}

/// Whether the cursor is over the 3-D view. The panels live in a background-layer `Ui`,
/// which egui does not count as "over egui", so a wheel over a panel would otherwise
/// zoom the view while it scrolls the panel.
fn pointer_in_view(windows: Query<&Window>, cameras: Query<&Camera, With<Camera3d>>) -> bool {
    let Some(cursor) = windows
        .iter()
        .next()
        .and_then(Window::physical_cursor_position)
    else {
        return false;
    };
    let Ok(camera) = cameras.single() else {
        return false;
    };
    camera.viewport.as_ref().is_none_or(|v| {
        let (min, size) = (v.physical_position.as_vec2(), v.physical_size.as_vec2());
        cursor.cmpge(min).all() && cursor.cmplt(min + size).all()
    })
}

fn orbit_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    dragging_shape: Res<ShapeDragActive>,
    model: Res<super::state::Model>,
    mut orbit: ResMut<OrbitCamera>,
) {
    let delta = motion.delta;
    // A planar scene is seen from above only: the left button drags shapes, not the view.
    let planar = model.scene.dimension == crate::scene::Dimension::Planar;
    if buttons.pressed(MouseButton::Left) && !dragging_shape.0 && !planar {
        orbit.yaw -= delta.x * 0.008;
        orbit.pitch = (orbit.pitch + delta.y * 0.008).clamp(-FRAC_PI_2 + 0.01, FRAC_PI_2 - 0.01);
    }
    if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        let (right, up) = if planar {
            (Vec3::X, Vec3::Y)
        } else {
            let t = orbit.transform();
            (*t.right(), *t.up())
        };
        let scale = orbit.distance * 0.0015;
        orbit.focus += (-right * delta.x + up * delta.y) * scale;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if lines != 0.0 {
        orbit.distance = (orbit.distance * 0.9f32.powf(lines)).clamp(MIN_RADIUS, 1.0e4);
    }
}

/// Frames everything once the first meshes have been placed (their bounds are known).
fn frame_all_when_drawn(mut frames: Local<u32>, mut requests: MessageWriter<CameraRequest>) {
    *frames += 1;
    if *frames == 3 {
        requests.write(CameraRequest::FrameAll);
    }
}

/// What "frame all" needs between frames: requests made before the view had a size,
/// and the view's size and camera the last framing left.
#[derive(Default)]
struct Framing {
    waiting: Vec<CameraRequest>,
    framed: Option<(UVec2, OrbitCamera)>,
}

fn answer_camera_requests(
    mut requests: MessageReader<CameraRequest>,
    // What can be framed: everything, the step, the pair's A ⊖ B.
    (bounds, step, difference): (
        Res<SceneBounds>,
        Res<StepBounds>,
        Res<super::draw::minkowski::DifferenceFrame>,
    ),
    mut orbit: ResMut<OrbitCamera>,
    model: Res<super::state::Model>,
    cameras: Query<&Camera, With<Camera3d>>,
    mut state: Local<Framing>,
) {
    let Framing { waiting, framed } = &mut *state;
    // The 3-D view's width over height: the viewport the panels leave, once the UI has
    // placed it (before that, the requests wait a frame).
    let viewport = cameras
        .iter()
        .find_map(|c| c.viewport.as_ref().map(|v| v.physical_size));
    let Some(size) = viewport else {
        waiting.extend(requests.read().copied());
        return;
    };
    let aspect = size.x as f32 / size.y.max(1) as f32;
    let mut pending: Vec<CameraRequest> =
        waiting.drain(..).chain(requests.read().copied()).collect();
    // The view changed size (the panels settling at start, a resized window) and the
    // camera is still where the last "frame all" put it: frame again for the new shape.
    if let Some((at_size, left)) = *framed {
        if at_size != size && *orbit == left && pending.is_empty() {
            pending.push(CameraRequest::FrameAll);
        }
    }
    let planar = model.scene.dimension == crate::scene::Dimension::Planar;
    let frame_all = |orbit: &mut OrbitCamera| {
        if planar {
            let (centre, radius) = bounds.sphere();
            orbit.frame(centre, radius, FOV);
        } else {
            orbit.frame_box(bounds.min, bounds.max, FOV, aspect);
        }
    };
    for request in pending {
        match request {
            CameraRequest::Reset => {
                *orbit = OrbitCamera::default();
                frame_all(&mut orbit);
            }
            CameraRequest::FrameAll => frame_all(&mut orbit),
            CameraRequest::FrameStep => orbit.frame(step.centre, step.radius * 1.3, FOV),
            CameraRequest::FrameNewest => {
                let (centre, radius) = step.newest.unwrap_or((step.centre, step.radius));
                orbit.frame(centre, radius * 1.3, FOV)
            }
            CameraRequest::FrameDifference => {
                let (centre, radius) = difference.sphere;
                orbit.frame(centre, radius, FOV)
            }
        }
        *framed = match request {
            CameraRequest::FrameStep
            | CameraRequest::FrameNewest
            | CameraRequest::FrameDifference => None,
            _ => Some((size, *orbit)),
        };
    }
}

fn apply_orbit(
    orbit: Res<OrbitCamera>,
    model: Res<super::state::Model>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<Camera3d>>,
    mut marker: ResMut<MarkerScale>,
) {
    let planar = model.scene.dimension == crate::scene::Dimension::Planar;
    if !(orbit.is_changed() || model.is_changed()) {
        return;
    }
    marker.0 = orbit.distance * 0.007;
    for (mut t, mut projection) in &mut cameras {
        if planar {
            // Planar mode: orthographic, looking down −z with y up; the orbit distance
            // sets the height of the view as the perspective one would frame it.
            *t = Transform::from_translation(orbit.focus + Vec3::Z * orbit.distance)
                .looking_at(orbit.focus, Vec3::Y);
            let height = 2.0 * orbit.distance * (FOV * 0.5).tan();
            match projection.as_mut() {
                Projection::Orthographic(o) => {
                    o.scaling_mode = ScalingMode::FixedVertical {
                        viewport_height: height,
                    }
                }
                _ => {
                    *projection = Projection::Orthographic(OrthographicProjection {
                        scaling_mode: ScalingMode::FixedVertical {
                            viewport_height: height,
                        },
                        near: -1.0e4,
                        far: 1.0e4,
                        ..OrthographicProjection::default_3d()
                    })
                }
            }
        } else {
            *t = orbit.transform();
            let near = near_plane(orbit.distance);
            match projection.as_mut() {
                Projection::Perspective(p) => p.near = near,
                _ => {
                    *projection = Projection::Perspective(PerspectiveProjection {
                        fov: FOV,
                        near,
                        ..default()
                    })
                }
            }
        }
    }
}
