//! parry and rapier queries as their users capture them:
//! `serde_json::to_string(&(pos1, shape1, pos2, shape2))` with parry's `serde-serialize`
//! feature, the argument order of `parry3d::query::distance` (and `contact`,
//! `cast_shapes`' first four). The file is read through parry's own types, so whatever
//! parry writes, parry reads back here.
//!
//! Precision: parry3d's f32 `Pose` is 16-byte aligned and serialises its padding
//! (`"padding": 0`), parry3d-f64's does not. An f32 file is read by parry3d's f32 types
//! and every number widened exactly (`f64::from`), so the scene holds the very query the
//! engine ran, not the nearest f64 decimal.

use glam::{DQuat, DVec3};
use serde_json::Value;

use crate::scene::{BodySpec, RotationSpec, ShapeSpec};

/// Which parry build wrote the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    pub fn crate_name(self) -> &'static str {
        match self {
            Precision::F32 => "parry3d (f32)",
            Precision::F64 => "parry3d-f64",
        }
    }
}

/// A parry query read from its JSON: both bodies, the precision, the shapes' kinds.
pub struct ParryQuery {
    pub bodies: [BodySpec; 2],
    /// A `cast_shapes` capture (the bodies move).
    pub cast: bool,
    pub precision: Precision,
    pub kinds: [String; 2],
}

impl ParryQuery {
    /// When a pose's quaternion is not unit to rounding (an f32 capture's, unit to
    /// ~1e-7): how far off each is, that the scene turns by them normalised, and about how
    /// far parry, which turns by the quaternion as stored (scaling by `|q|²`), moves points
    /// at this query's size.
    pub fn rotation_note(&self) -> Option<String> {
        let squared = |b: &BodySpec| match b.rotation {
            RotationSpec::Quaternion(q) => DQuat::from_array(q).length_squared(),
            _ => 1.0,
        };
        let off = self.bodies.each_ref().map(|b| squared(b) - 1.0);
        if off.iter().all(|o| o.abs() <= crate::pose::UNIT_TO_ROUNDING) {
            return None;
        }
        let [a, b] = &self.bodies;
        let size = (DVec3::from_array(b.translation) - DVec3::from_array(a.translation)).length()
            + super::spec_reach(&a.shape)
            + super::spec_reach(&b.shape);
        let moved = (off[0].abs() + off[1].abs()) * size;
        Some(format!(
            "The capture's quaternions are unit only to {:.1e} (pos1) and {:.1e} (pos2): the \
             scene turns by them normalised in f64, and certifies that rotation; parry turns by \
             them as stored, which also scales points by |q|^2, moving them by about {moved:.1e} \
             at this query's size ({size:.3e}).",
            squared(a).sqrt() - 1.0,
            squared(b).sqrt() - 1.0,
        ))
    }
}

/// Whether `value` looks like a capture: `[pos1, shape1, pos2, shape2]` (a distance or
/// contact query) or `[pos1, vel1, shape1, pos2, vel2, shape2]` (`cast_shapes`' first six
/// arguments), poses where they belong.
pub fn looks_like_capture(value: &Value) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    let is_pose = |v: &Value| v.get("rotation").is_some() && v.get("translation").is_some();
    match items.len() {
        4 => is_pose(&items[0]) && is_pose(&items[2]),
        6 => is_pose(&items[0]) && is_pose(&items[3]),
        _ => false,
    }
}

/// A velocity of a cast capture: three numbers, read in the capture's precision.
fn velocity(value: &Value, precision: Precision, field: &str) -> Result<[f64; 3], String> {
    let numbers = value
        .as_array()
        .filter(|a| a.len() == 3)
        .ok_or_else(|| format!("{field}: a velocity is three numbers, got {value}"))?;
    let mut out = [0.0; 3];
    for (o, n) in out.iter_mut().zip(numbers) {
        let x = n
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{field}: {n} is not a finite number"))?;
        // An f32 capture's decimal is the shortest one of an f32: read it as one.
        *o = match precision {
            Precision::F32 => f64::from(
                n.to_string()
                    .parse::<f32>()
                    .map_err(|e| format!("{field}: {e}"))?,
            ),
            Precision::F64 => x,
        };
    }
    Ok(out)
}

/// Reads a capture; errors name the field (`pos1`, `shape2`, ...) and what is wrong.
pub fn read(value: &Value) -> Result<ParryQuery, String> {
    if !looks_like_capture(value) {
        return Err(
            "expected [pos1, shape1, pos2, shape2] (distance) or [pos1, vel1, shape1, \
                    pos2, vel2, shape2] (cast_shapes)"
                .into(),
        );
    }
    let items = value.as_array().ok_or("an array")?;
    let cast = items.len() == 6;
    let (pose_at, shape_at) = if cast {
        ([0, 3], [2, 5])
    } else {
        ([0, 2], [1, 3])
    };
    let precision = if pose_at.iter().any(|&i| items[i].get("padding").is_some()) {
        Precision::F32
    } else {
        Precision::F64
    };
    let mut bodies = Vec::new();
    let mut kinds = Vec::new();
    for n in 0..2 {
        let (pose, shape) = (&items[pose_at[n]], &items[shape_at[n]]);
        let kind = kind_of(shape).map_err(|e| format!("shape{}: {e}", n + 1))?;
        let (spec, translation, rotation) = match precision {
            Precision::F32 => f32_body(pose, shape),
            Precision::F64 => f64_body(pose, shape),
        }
        .map_err(|e| {
            e.replace("{pose}", &format!("pos{}", n + 1))
                .replace("{shape}", &format!("shape{} ({kind})", n + 1))
        })?;
        // A cast moves each body by its velocity over parry's time [0, 1] (its
        // `max_time_of_impact` of 1): our times of impact are then parry's.
        let velocity = if cast {
            Some(velocity(
                &items[pose_at[n] + 1],
                precision,
                &format!("vel{}", n + 1),
            )?)
        } else {
            None
        };
        bodies.push(BodySpec {
            name: None,
            shape: spec,
            translation: translation.to_array(),
            rotation: RotationSpec::Quaternion(rotation.to_array()),
            velocity,
            spin: None,
        });
        kinds.push(kind);
    }
    for half in 0..2 {
        if kinds[half] == "HalfSpace" {
            if kinds[1 - half] == "HalfSpace" {
                return Err("two half-spaces: no convex pair to check".into());
            }
            let other = bodies[1 - half].clone();
            slab_for_half_space(&mut bodies[half], &other);
        }
    }
    let [a, b]: [BodySpec; 2] = bodies.try_into().map_err(|_| "two bodies")?;
    let [ka, kb]: [String; 2] = kinds.try_into().map_err(|_| "two kinds")?;
    Ok(ParryQuery {
        bodies: [a, b],
        cast,
        precision,
        kinds: [ka, kb],
    })
}

/// The externally tagged variant name of a serialised `SharedShape`.
fn kind_of(shape: &Value) -> Result<String, String> {
    match shape {
        Value::Object(map) if map.len() == 1 => Ok(map.keys().next().cloned().unwrap_or_default()),
        Value::String(s) => Ok(s.clone()),
        _ => Err("not a serialised parry shape (expected {\"Kind\": {...}})".into()),
    }
}

/// The kinds a convex query can hold; the others are named in the refusal.
const CONVEX_KINDS: &str = "Ball, Cuboid, Capsule, Cylinder, Cone, ConvexPolyhedron, Segment, \
     Triangle, RoundCuboid, RoundCylinder, RoundCone, RoundConvexPolyhedron, RoundTriangle, and \
     HalfSpace against one of them";

fn refuse(kind: &str) -> String {
    format!(
        "{{shape}}: parry's {kind} is not a convex shape Collidescope takes (it takes {CONVEX_KINDS})"
    )
}

/// One converter per precision, over the same parry API: `$parry` is the crate and
/// `$widen` turns its scalars into f64 exactly.
macro_rules! body_reader {
    ($name:ident, $parry:ident, $widen:expr) => {
        fn $name(pose: &Value, shape: &Value) -> Result<(ShapeSpec, DVec3, DQuat), String> {
            use $parry::shape::{SharedShape, TypedShape};
            let widen = $widen;
            let pose: $parry::math::Pose = serde_json::from_value(pose.clone())
                .map_err(|e| format!("{{pose}}: not a parry pose: {e}"))?;
            let kind = kind_of(shape)?;
            let shared: SharedShape = serde_json::from_value(shape.clone()).map_err(|e| {
                if e.to_string().contains("unknown variant") {
                    format!("{{shape}}: unknown parry shape kind {kind} (this reader knows {CONVEX_KINDS})")
                } else {
                    format!("{{shape}}: {e}")
                }
            })?;
            let v = |p: $parry::math::Vector| [widen(p.x), widen(p.y), widen(p.z)];
            let points = |ps: &[$parry::math::Vector]| -> Vec<[f64; 3]> { ps.iter().map(|p| v(*p)).collect() };
            let capsule = |c: &$parry::shape::Capsule| -> ShapeSpec {
                let (a, b) = (v(c.segment.a), v(c.segment.b));
                let radius = widen(c.radius);
                // parry's `capsule_y(h, r)`: a = (0, −h, 0), b = (0, h, 0).
                if a[0] == 0.0 && a[2] == 0.0 && b[0] == 0.0 && b[2] == 0.0 && a[1] == -b[1] && b[1] > 0.0 {
                    ShapeSpec::Capsule { radius, half_height: b[1] }
                } else {
                    dilated(ShapeSpec::Polytope { points: vec![a, b] }, radius)
                }
            };
            let spec = match shared.as_typed_shape() {
                TypedShape::Ball(s) => ShapeSpec::Sphere { radius: widen(s.radius) },
                TypedShape::Cuboid(s) => ShapeSpec::Box { half_extents: v(s.half_extents) },
                TypedShape::Capsule(s) => capsule(s),
                TypedShape::Cylinder(s) => ShapeSpec::Cylinder { radius: widen(s.radius), half_height: widen(s.half_height) },
                TypedShape::Cone(s) => ShapeSpec::Cone { radius: widen(s.radius), half_height: widen(s.half_height) },
                TypedShape::Segment(s) => ShapeSpec::Polytope { points: vec![v(s.a), v(s.b)] },
                TypedShape::Triangle(s) => ShapeSpec::Polytope { points: vec![v(s.a), v(s.b), v(s.c)] },
                TypedShape::ConvexPolyhedron(s) => ShapeSpec::Polytope { points: points(s.points()) },
                TypedShape::RoundCuboid(s) => dilated(ShapeSpec::Box { half_extents: v(s.inner_shape.half_extents) }, widen(s.border_radius)),
                TypedShape::RoundCylinder(s) => dilated(
                    ShapeSpec::Cylinder { radius: widen(s.inner_shape.radius), half_height: widen(s.inner_shape.half_height) },
                    widen(s.border_radius),
                ),
                TypedShape::RoundCone(s) => dilated(
                    ShapeSpec::Cone { radius: widen(s.inner_shape.radius), half_height: widen(s.inner_shape.half_height) },
                    widen(s.border_radius),
                ),
                TypedShape::RoundTriangle(s) => dilated(
                    ShapeSpec::Polytope { points: vec![v(s.inner_shape.a), v(s.inner_shape.b), v(s.inner_shape.c)] },
                    widen(s.border_radius),
                ),
                TypedShape::RoundConvexPolyhedron(s) => dilated(
                    ShapeSpec::Polytope { points: points(s.inner_shape.points()) },
                    widen(s.border_radius),
                ),
                // A marker the query replaces by a slab once the other body is known.
                TypedShape::HalfSpace(s) => ShapeSpec::Halfspaces { planes: vec![{
                    let n = v(s.normal);
                    [n[0], n[1], n[2], 0.0]
                }] },
                _ => return Err(refuse(&kind)),
            };
            let r = pose.rotation;
            let t = pose.translation;
            Ok((
                spec,
                DVec3::new(widen(t.x), widen(t.y), widen(t.z)),
                DQuat::from_xyzw(widen(r.x), widen(r.y), widen(r.z), widen(r.w)),
            ))
        }
    };
}

body_reader!(f32_body, parry3d, |x: f32| f64::from(x));
body_reader!(f64_body, parry3d_f64, |x: f64| x);

/// parry's `HalfSpace` (the points below the plane through its origin, normal `n` in its
/// frame) as a slab GJK can take: a cube whose top face lies on the plane, centred under
/// the other body and twice its reach from the plane's origin wide and deep, so that a
/// distance to it, or a depth into it, is the half-space's.
fn slab_for_half_space(half: &mut BodySpec, other: &BodySpec) {
    let ShapeSpec::Halfspaces { planes } = &half.shape else {
        return;
    };
    let local = DVec3::new(planes[0][0], planes[0][1], planes[0][2]);
    let rotation = match half.rotation {
        RotationSpec::Quaternion(q) => crate::pose::normalized_quaternion(DQuat::from_array(q)),
        _ => DQuat::IDENTITY,
    };
    let normal = (rotation * local).normalize();
    let origin = DVec3::from_array(half.translation);
    let reach =
        (DVec3::from_array(other.translation) - origin).length() + super::spec_reach(&other.shape);
    let size = (2.0 * reach).max(1e-6) * 1.01;
    half.shape = ShapeSpec::Box {
        half_extents: [size; 3],
    };
    half.translation = (origin - normal * size).to_array();
    half.rotation = RotationSpec::Quaternion(DQuat::from_rotation_arc(DVec3::Z, normal).to_array());
}

fn dilated(shape: ShapeSpec, radius: f64) -> ShapeSpec {
    ShapeSpec::Dilated {
        shape: Box::new(shape),
        radius,
    }
}
