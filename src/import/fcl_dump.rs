//! FCL's (and Coal's) failure dumps: the shapes' parameters and the two 4×4 poses that
//! FCL prints when GJK/EPA fails (`ThrowDetailedConfiguration`, fcl #319, #364, #493),
//! in both of FCL's formats:
//!
//! - before fcl 0.7 (PR #594): `Shape 1: Box0.5 0.5 0.5`, `Cylinder(r: 0.05, lz: 0.06)`,
//!   `Sphere(0.1)`, `Ellipsoid(radii: 1 2 3)`, poses as Eigen prints a matrix (rows of
//!   space-separated numbers);
//! - since: `Box<double>(1, 2, 3);`, `Convex<double>(... Vector3<double>(x, y, z), ...)`,
//!   poses as comma-separated rows ending in `;`.
//!
//! Numbers are printed to 20 digits, so they parse back to the same doubles. FCL's boxes
//! give full side lengths, its cylinders, cones and capsules stand along z with `lz`
//! their full length (a capsule's: its segment's): they become this project's half
//! extents and y-standing shapes, the pose's columns permuted exactly (`R·P`, P a
//! quarter turn about x), so the scene is the query FCL ran.

use glam::{DMat3, DVec3};

use crate::pose;
use crate::scene::{BodySpec, RotationSpec, ShapeSpec};

/// A dump read: both bodies, FCL's message and solver lines, the shapes' names.
pub struct FclQuery {
    pub bodies: [BodySpec; 2],
    pub kinds: [String; 2],
    /// "Original error message: ..." and "Solver: ..." as printed.
    pub context: String,
}

/// Whether `text` looks like an FCL dump.
pub fn looks_like_dump(text: &str) -> bool {
    text.contains("X_FS1") && text.contains("Shape 1")
}

/// A number or a word of the dump, with its 1-based line.
#[derive(Debug, Clone)]
struct Number {
    value: f64,
    line: usize,
}

pub fn read(text: &str) -> Result<FclQuery, String> {
    let single = text.contains("<float>");
    let mut bodies = Vec::new();
    let mut kinds = Vec::new();
    for n in 1..=2 {
        let shape_at = find(text, &format!("Shape {n}:"))?;
        let pose_at = find(text, &format!("X_FS{n}"))?;
        if pose_at < shape_at {
            return Err(format!(
                "line {}: X_FS{n} comes before Shape {n}",
                line_of(text, pose_at)
            ));
        }
        let shape_text = &text[shape_at + format!("Shape {n}:").len()..pose_at];
        let (kind, spec, along_z) =
            shape(shape_text, line_of(text, shape_at)).map_err(|e| format!("Shape {n}: {e}"))?;
        let pose_start = pose_at + format!("X_FS{n}").len();
        let pose_numbers = numbers(&text[pose_start..], line_of(text, pose_start));
        let (rotation, translation) =
            transform(&pose_numbers, single).map_err(|e| format!("X_FS{n}: {e}"))?;
        // FCL's axis is z, ours y: turn ours onto FCL's (columns permuted and one negated,
        // exact in floating point).
        let rotation = if along_z {
            DMat3::from_cols(rotation.x_axis, rotation.z_axis, -rotation.y_axis)
        } else {
            rotation
        };
        bodies.push(BodySpec {
            name: None,
            shape: spec,
            translation: translation.to_array(),
            rotation: RotationSpec::Matrix(rotation.transpose().to_cols_array_2d()),
            velocity: None,
            spin: None,
        });
        kinds.push(kind);
    }
    let context = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("Original error message") || l.starts_with("Solver"))
        .collect::<Vec<_>>()
        .join("\n");
    let [a, b]: [BodySpec; 2] = bodies.try_into().map_err(|_| "two bodies")?;
    let [ka, kb]: [String; 2] = kinds.try_into().map_err(|_| "two kinds")?;
    Ok(FclQuery {
        bodies: [a, b],
        kinds: [ka, kb],
        context,
    })
}

fn find(text: &str, marker: &str) -> Result<usize, String> {
    text.find(marker).ok_or_else(|| {
        format!("no \"{marker}\" in the dump (FCL prints Shape 1, X_FS1, Shape 2, X_FS2)")
    })
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The numbers of `text` in order, with their lines (`first_line` is the line `text`
/// starts on). Identifiers are skipped whole, so `Vector3<double>` and `Box<double>`
/// give no numbers, while the old format's `Box0.5` gives 0.5.
fn numbers(text: &str, first_line: usize) -> Vec<Number> {
    let text = text.replace("Vector3<", "Vector<");
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, first_line);
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_digit()
            || ((c == '-' || c == '+' || c == '.') && starts_number(&bytes[i..]))
        {
            let start = i;
            i += 1;
            while i < bytes.len() {
                let d = bytes[i] as char;
                let exponent_sign = (d == '-' || d == '+') && matches!(bytes[i - 1], b'e' | b'E');
                if d.is_ascii_digit() || d == '.' || d == 'e' || d == 'E' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let token = &text[start..i];
            let value = token.parse::<f64>().unwrap_or(f64::NAN);
            out.push(Number { value, line });
        } else {
            i += 1;
        }
    }
    out
}

fn starts_number(rest: &[u8]) -> bool {
    rest.iter()
        .skip(1)
        .take(2)
        .find(|b| **b != b'.')
        .is_some_and(|b| b.is_ascii_digit())
}

/// The shape's kind, its spec, and whether it stands along z (FCL's axis).
fn shape(text: &str, first_line: usize) -> Result<(String, ShapeSpec, bool), String> {
    let name: String = text
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    if text.contains("v count") {
        return Err(format!(
            "line {first_line}: a Convex printed by FCL before 0.7 gives only its vertex and face counts; \
             a dump from FCL 0.7 or later (which prints the vertices) can be imported"
        ));
    }
    let values = numbers(text, first_line);
    if let Some(bad) = values.iter().find(|n| !n.value.is_finite()) {
        return Err(format!("line {}: a number that is not finite", bad.line));
    }
    let take = |count: usize| -> Result<Vec<f64>, String> {
        if values.len() < count {
            return Err(format!(
                "line {first_line}: {name} needs {count} numbers, the dump gives {}",
                values.len()
            ));
        }
        Ok(values[..count].iter().map(|n| n.value).collect())
    };
    let (spec, along_z) = match name.as_str() {
        "Box" => {
            let s = take(3)?;
            (
                ShapeSpec::Box {
                    half_extents: [s[0] / 2.0, s[1] / 2.0, s[2] / 2.0],
                },
                false,
            )
        }
        "Sphere" => (
            ShapeSpec::Sphere {
                radius: take(1)?[0],
            },
            false,
        ),
        "Ellipsoid" => {
            let r = take(3)?;
            (
                ShapeSpec::Ellipsoid {
                    radii: [r[0], r[1], r[2]],
                },
                false,
            )
        }
        "Cylinder" | "Cone" | "Capsule" => {
            let v = take(2)?;
            let (radius, half_height) = (v[0], v[1] / 2.0);
            let spec = match name.as_str() {
                "Cylinder" => ShapeSpec::Cylinder {
                    radius,
                    half_height,
                },
                "Cone" => ShapeSpec::Cone {
                    radius,
                    half_height,
                },
                _ => ShapeSpec::Capsule {
                    radius,
                    half_height,
                },
            };
            (spec, true)
        }
        "Convex" => {
            // Each vertex is a constructor call `Vector3<double>(x, y, z)`; the other
            // `Vector3<double>` are the list's element type.
            let count =
                text.matches("Vector3<double>(").count() + text.matches("Vector3<float>(").count();
            let coordinates = take(3 * count)?;
            let points = coordinates.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
            (ShapeSpec::Polytope { points }, false)
        }
        "" => return Err(format!("line {first_line}: no shape name")),
        other => {
            return Err(format!(
                "line {first_line}: FCL's {other} is not a shape Collidescope takes \
                 (it takes Box, Sphere, Ellipsoid, Cylinder, Cone, Capsule, Convex)"
            ))
        }
    };
    Ok((name, spec, along_z))
}

/// A 4×4 (or 3×4) pose: its rotation (kept as given) and translation.
fn transform(values: &[Number], single: bool) -> Result<(DMat3, DVec3), String> {
    if values.len() < 12 {
        return Err(format!(
            "a 4x4 transform needs 16 numbers, the dump gives {}",
            values.len()
        ));
    }
    if let Some(bad) = values[..values.len().min(16)]
        .iter()
        .find(|n| !n.value.is_finite())
    {
        return Err(format!("line {}: a number that is not finite", bad.line));
    }
    let v: Vec<f64> = values.iter().take(16).map(|n| n.value).collect();
    if v.len() == 16 && v[12..16] != [0.0, 0.0, 0.0, 1.0] {
        return Err(format!(
            "line {}: the last row is {:?}, not 0 0 0 1: not a rigid transform",
            values[12].line,
            &v[12..16]
        ));
    }
    let rows = [[v[0], v[1], v[2]], [v[4], v[5], v[6]], [v[8], v[9], v[10]]];
    let tolerance = if single {
        pose::QUATERNION_TOLERANCE
    } else {
        pose::MATRIX_TOLERANCE
    };
    let rotation = pose::rigid_rotation_within(rows, tolerance)
        .map_err(|e| format!("line {}: {e}", values[0].line))?;
    Ok((rotation, DVec3::new(v[3], v[7], v[11])))
}
