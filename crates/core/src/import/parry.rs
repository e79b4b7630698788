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

use crate::scene::{BodySpec, MemberSpec, RotationSpec, ShapeSpec};

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
    /// What each composite shape is (a `TriMesh` with its flags, a `HeightField`, a
    /// `Compound`), for the scene's notes: "shape1 is ...".
    pub composite_notes: Vec<String>,
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
    let mut composite_notes = Vec::new();
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
        let flags = |bits: Option<u64>, what: &str| match bits {
            Some(b) if b & 1 != 0 => format!(", built with {what} FIX_INTERNAL_EDGES"),
            _ => String::new(),
        };
        let extra = match kind.as_str() {
            "HeightField" => flags(shape["HeightField"]["flags"].as_u64(), "HeightFieldFlags"),
            "Compound" => flags(shape["Compound"]["flags"].as_u64(), "CompoundFlags"),
            _ => String::new(),
        };
        if let Some(note) = composite_note(&spec, &extra) {
            composite_notes.push(format!("shape{} is {note}", n + 1));
        }
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
        composite_notes,
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

/// The composite kinds a capture may hold beside a convex shape (or another composite).
const COMPOSITE_KINDS: &str = "TriMesh (with its flags), Compound of convex parts, HeightField";

fn refuse(kind: &str) -> String {
    format!(
        "{{shape}}: parry's {kind} is not a shape Collidescope takes (it takes {CONVEX_KINDS}; \
         and {COMPOSITE_KINDS})"
    )
}

/// The names of parry's `TriMeshFlags` bits set in `bits` (the composite flags first:
/// `FIX_INTERNAL_EDGES` holds `MERGE_DUPLICATE_VERTICES`), "none" when empty.
pub fn trimesh_flag_names(bits: u16) -> String {
    const NAMED: [(&str, u16); 10] = [
        (
            "FIX_INTERNAL_EDGES_TWO_SIDED",
            (1 << 9) | (1 << 7) | (1 << 4),
        ),
        ("FIX_INTERNAL_EDGES", (1 << 7) | (1 << 4)),
        ("HALF_EDGE_TOPOLOGY", 1),
        ("CONNECTED_COMPONENTS", 1 << 1),
        ("DELETE_BAD_TOPOLOGY_TRIANGLES", 1 << 2),
        ("ORIENTED", 1 << 3),
        ("MERGE_DUPLICATE_VERTICES", 1 << 4),
        ("DELETE_DEGENERATE_TRIANGLES", 1 << 5),
        ("DELETE_DUPLICATE_TRIANGLES", 1 << 6),
        ("DEFORMABLE", 1 << 8),
    ];
    let mut left = bits;
    let mut names = Vec::new();
    for (name, mask) in NAMED {
        if left & mask == mask && mask & left != 0 {
            names.push(name.to_string());
            left &= !mask;
        }
    }
    if left != 0 {
        names.push(format!("0x{left:x}"));
    }
    if names.is_empty() {
        "none".into()
    } else {
        names.join(" | ")
    }
}

/// Whether parry's `FIX_INTERNAL_EDGES` is among a `TriMeshFlags`' bits.
pub fn fixes_internal_edges(bits: u16) -> bool {
    bits & 0x80 != 0
}

/// What a composite capture's shape was, for the scene's notes (`None`: convex).
fn composite_note(spec: &ShapeSpec, extra: &str) -> Option<String> {
    Some(match spec {
        ShapeSpec::TriMesh {
            vertices,
            triangles,
            flags,
        } => format!(
            "a TriMesh of {} triangles over {} vertices, built with TriMeshFlags {}{}",
            triangles.len(),
            vertices.len(),
            trimesh_flag_names(*flags),
            if fixes_internal_edges(*flags) {
                " (parry corrects contact normals at its internal edges; the contacts' \
                 internal-edge reports show what it reports instead)"
            } else {
                ""
            }
        ),
        ShapeSpec::HeightField { heights, cells, .. } => format!(
            "a HeightField of {} × {} heights (rows along z, entries along x, parry's \
             layout kept){}{extra}",
            heights.len(),
            heights.first().map_or(0, Vec::len),
            if cells.iter().any(|c| *c != 0) {
                ", with its cell statuses"
            } else {
                ""
            }
        ),
        ShapeSpec::Compound { parts } => {
            format!(
                "a Compound of {} convex parts at their poses{extra}",
                parts.len()
            )
        }
        _ => return None,
    })
}

/// Where a composite capture is malformed before parry's types are asked to read it:
/// a vertex or height that is not a number (JSON has no NaN: serde_json writes `null`),
/// so that the message names the element, not a line and column of parry's fields.
fn check_composite_json(kind: &str, shape: &Value) -> Result<(), String> {
    let body = &shape[kind];
    let number = |v: &Value| v.as_f64().is_some();
    match kind {
        "TriMesh" => {
            if let Some(vertices) = body.get("vertices").and_then(Value::as_array) {
                for (k, v) in vertices.iter().enumerate() {
                    let ok = v
                        .as_array()
                        .is_some_and(|c| c.len() == 3 && c.iter().all(number));
                    if !ok {
                        return Err(format!(
                            "{{shape}}: vertex {k} is not three finite numbers: {v} (NaN and \
                             infinities are written as null)"
                        ));
                    }
                }
            }
            if let Some(indices) = body.get("indices").and_then(Value::as_array) {
                for (k, t) in indices.iter().enumerate() {
                    let ok = t.as_array().is_some_and(|c| {
                        c.len() == 3
                            && c.iter()
                                .all(|i| i.as_u64().is_some_and(|i| i <= u64::from(u32::MAX)))
                    });
                    if !ok {
                        return Err(format!(
                            "{{shape}}: triangle {k} is not three vertex indices: {t}"
                        ));
                    }
                }
            }
        }
        "HeightField" => {
            if let Some(data) = body
                .get("heights")
                .and_then(|h| h.get("data"))
                .and_then(Value::as_array)
            {
                let rows = body["heights"]["nrows"].as_u64().unwrap_or(0).max(1) as usize;
                for (k, h) in data.iter().enumerate() {
                    if !number(h) {
                        return Err(format!(
                            "{{shape}}: the height at row {}, column {} is not a finite number: \
                             {h} (NaN and infinities are written as null)",
                            k % rows,
                            k / rows
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// One converter per precision, over the same parry API: `$parry` is the crate and
/// `$widen` turns its scalars into f64 exactly.
macro_rules! body_reader {
    ($name:ident, $convex:ident, $parry:ident, $widen:expr) => {
        /// A convex parry shape as a spec, `None` for any other kind.
        fn $convex(shape: &dyn $parry::shape::Shape) -> Option<ShapeSpec> {
            use $parry::shape::TypedShape;
            let widen = $widen;
            let v = |p: $parry::math::Vector| [widen(p.x), widen(p.y), widen(p.z)];
            let points = |ps: &[$parry::math::Vector]| -> Vec<[f64; 3]> { ps.iter().map(|p| v(*p)).collect() };
            let capsule = |c: &$parry::shape::Capsule| -> ShapeSpec {
                let (a, b) = (v(c.segment.a), v(c.segment.b));
                let radius = widen(c.radius);
                // parry's `capsule_y(h, r)`: a = (0, −h, 0), b = (0, h, 0).
                if a[0] == 0.0 && a[2] == 0.0 && b[0] == 0.0 && b[2] == 0.0 && a[1] == -b[1] && b[1] > 0.0 {
                    ShapeSpec::Capsule { radius, half_height: b[1] }
                } else {
                    dilated(ShapeSpec::hull_of(vec![a, b]), radius)
                }
            };
            Some(match shape.as_typed_shape() {
                TypedShape::Ball(s) => ShapeSpec::Sphere { radius: widen(s.radius) },
                TypedShape::Cuboid(s) => ShapeSpec::Box { half_extents: v(s.half_extents) },
                TypedShape::Capsule(s) => capsule(s),
                TypedShape::Cylinder(s) => ShapeSpec::Cylinder { radius: widen(s.radius), half_height: widen(s.half_height) },
                TypedShape::Cone(s) => ShapeSpec::Cone { radius: widen(s.radius), half_height: widen(s.half_height) },
                TypedShape::Segment(s) => ShapeSpec::hull_of(vec![v(s.a), v(s.b)]),
                TypedShape::Triangle(s) => ShapeSpec::hull_of(vec![v(s.a), v(s.b), v(s.c)]),
                TypedShape::ConvexPolyhedron(s) => ShapeSpec::hull_of(points(s.points())),
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
                    ShapeSpec::hull_of(vec![v(s.inner_shape.a), v(s.inner_shape.b), v(s.inner_shape.c)]),
                    widen(s.border_radius),
                ),
                TypedShape::RoundConvexPolyhedron(s) => dilated(
                    ShapeSpec::hull_of(points(s.inner_shape.points())),
                    widen(s.border_radius),
                ),
                _ => return None,
            })
        }

        fn $name(pose: &Value, shape: &Value) -> Result<(ShapeSpec, DVec3, DQuat), String> {
            use $parry::shape::{SharedShape, TypedShape};
            let widen = $widen;
            let pose: $parry::math::Pose = serde_json::from_value(pose.clone())
                .map_err(|e| format!("{{pose}}: not a parry pose: {e}"))?;
            let kind = kind_of(shape)?;
            check_composite_json(&kind, shape)?;
            let shared: SharedShape = serde_json::from_value(shape.clone()).map_err(|e| {
                if e.to_string().contains("unknown variant") {
                    format!("{{shape}}: unknown parry shape kind {kind} (this reader knows {CONVEX_KINDS}; and {COMPOSITE_KINDS})")
                } else {
                    format!("{{shape}}: {e}")
                }
            })?;
            let v = |p: $parry::math::Vector| [widen(p.x), widen(p.y), widen(p.z)];
            let quaternion = |r: $parry::math::Rotation| [widen(r.x), widen(r.y), widen(r.z), widen(r.w)];
            let spec = match shared.as_typed_shape() {
                // A marker the query replaces by a slab once the other body is known.
                TypedShape::HalfSpace(s) => ShapeSpec::Halfspaces { planes: vec![{
                    let n = v(s.normal);
                    [n[0], n[1], n[2], 0.0]
                }] },
                TypedShape::TriMesh(m) => ShapeSpec::TriMesh {
                    vertices: m.vertices().iter().map(|p| v(*p)).collect(),
                    triangles: m.indices().to_vec(),
                    flags: m.flags().bits(),
                },
                TypedShape::HeightField(f) => {
                    let heights = f.heights();
                    let (n, m) = (heights.nrows(), heights.ncols());
                    if heights.data().len() != n * m {
                        return Err(format!(
                            "{{shape}}: its heights are {n} rows × {m} columns but hold {} numbers, not {}",
                            heights.data().len(),
                            n * m
                        ));
                    }
                    if n < 2 || m < 2 {
                        return Err(format!(
                            "{{shape}}: a height field needs at least 2 rows and 2 columns of heights (got {n} × {m})"
                        ));
                    }
                    let status = f.cells_statuses();
                    let (sn, sm) = (status.nrows(), status.ncols());
                    if (sn, sm) != (n - 1, m - 1) || status.data().len() != sn * sm {
                        return Err(format!(
                            "{{shape}}: its cell statuses are {sn} × {sm} ({} numbers) for {} × {} cells \
                             (a grid of {n} × {m} heights)",
                            status.data().len(),
                            n - 1,
                            m - 1
                        ));
                    }
                    let rows = (0..n).map(|i| (0..m).map(|j| widen(heights[(i, j)])).collect()).collect();
                    let cells: Vec<u8> = (0..n - 1)
                        .flat_map(|i| (0..m - 1).map(move |j| (i, j)))
                        .map(|(i, j)| status[(i, j)].bits())
                        .collect();
                    ShapeSpec::HeightField {
                        heights: rows,
                        scale: v(f.scale()),
                        cells: if cells.iter().all(|c| *c == 0) { Vec::new() } else { cells },
                    }
                }
                TypedShape::Compound(c) => {
                    let mut parts = Vec::with_capacity(c.shapes().len());
                    for (k, (at, part)) in c.shapes().iter().enumerate() {
                        let spec = $convex(&**part).ok_or_else(|| {
                            format!(
                                "{{shape}}: part {k} is a {}, not a convex shape (a Compound's parts \
                                 are {CONVEX_KINDS})",
                                format!("{:?}", part.shape_type())
                            )
                        })?;
                        parts.push(MemberSpec {
                            shape: spec,
                            translation: v(at.translation),
                            rotation: RotationSpec::Quaternion(quaternion(at.rotation)),
                        });
                    }
                    if parts.is_empty() {
                        return Err("{shape}: a Compound with no parts".into());
                    }
                    ShapeSpec::Compound { parts }
                }
                _ => $convex(&*shared).ok_or_else(|| refuse(&kind))?,
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

body_reader!(f32_body, f32_convex, parry3d, |x: f32| f64::from(x));
body_reader!(f64_body, f64_convex, parry3d_f64, |x: f64| x);

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
