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
//! A dump pasted from a launch log is read as it stands: each line's `[move_group-1] `
//! (ROS 2 launch), `[ERROR] [1700000000.123] [move_group]: ` (the ROS logger) and ANSI
//! colour codes are taken off, lines kept, so every line named is the file's.
//! Every word that stands where a number does and is not one (`nan`, `-nan`, `inf`,
//! `-inf`, `1.#INF`, `nan(ind)`, as Eigen and the C libraries print them) is refused with
//! its line: skipped, it would shift the numbers after it.
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

/// A number of the dump, with its 1-based line; `word` is the text of one that is not a
/// finite number (`nan`, `-inf`, `1.#INF`, `1e999`, `1.2.3`), whose value is NaN.
#[derive(Debug, Clone)]
struct Number {
    value: f64,
    line: usize,
    word: Option<String>,
}

impl Number {
    /// The refusal of a number that is not finite: its line and its word.
    fn refusal(&self) -> String {
        match &self.word {
            Some(word) => format!("line {}: `{word}` is not a finite number", self.line),
            None => format!("line {}: {} is not a finite number", self.line, self.value),
        }
    }
}

/// `text` with every line's launch-log prefix and ANSI colour codes taken off: ROS 2
/// launch's `[move_group-1] `, the ROS logger's `[ERROR] [1700000000.123] [node]: `
/// (and ROS 1's `[ WARN] [1700000000.123]: `), in any order and number. A prefix is a
/// bracketed word without spaces inside at the start of a line; no line of a dump
/// begins with one. Lines are kept (so line numbers are the file's).
pub fn strip_log_prefixes(text: &str) -> String {
    text.split('\n')
        .map(strip_line_prefix)
        .collect::<Vec<_>>()
        .join("\n")
}

fn strip_line_prefix(line: &str) -> String {
    let line = strip_ansi(line);
    let mut rest = line.as_str();
    loop {
        let trimmed = rest.trim_start();
        let Some(inner) = trimmed.strip_prefix('[') else {
            break;
        };
        let Some(end) = inner.find(']') else {
            break;
        };
        let tag = inner[..end].trim();
        if tag.is_empty() || tag.contains(char::is_whitespace) || tag.contains('[') {
            break;
        }
        let after = &inner[end + 1..];
        let after = after.strip_prefix(':').unwrap_or(after);
        rest = after.strip_prefix(' ').unwrap_or(after);
    }
    rest.to_string()
}

/// `line` without ANSI escape sequences (`ESC [ ... m` and the other CSI commands).
fn strip_ansi(line: &str) -> String {
    if !line.contains('\u{1b}') {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, then one final byte in @..~.
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    out
}

pub fn read(text: &str) -> Result<FclQuery, String> {
    let text = &strip_log_prefixes(text);
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
        if let Some((line, word)) = stray_word(&text[pose_start..], line_of(text, pose_start), 16) {
            return Err(format!(
                "X_FS{n}: line {line}: `{word}` where the transform's numbers are: not a number FCL prints"
            ));
        }
        let pose_numbers = numbers(&text[pose_start..], line_of(text, pose_start));
        let (rotation, translation) = transform(&pose_numbers, single, line_of(text, pose_at))
            .map_err(|e| format!("X_FS{n}: {e}"))?;
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

/// Where each body of a dump is: `Shape 1 (line 3), X_FS1 (line 4)`, for refusals
/// of the scene built from it.
pub fn places(text: &str) -> [String; 2] {
    let text = strip_log_prefixes(text);
    let at = |marker: &str| {
        text.find(marker)
            .map_or(String::new(), |i| format!(" (line {})", line_of(&text, i)))
    };
    [1, 2].map(|n| {
        format!(
            "Shape {n}{}, X_FS{n}{}",
            at(&format!("Shape {n}:")),
            at(&format!("X_FS{n}"))
        )
    })
}

fn find(text: &str, marker: &str) -> Result<usize, String> {
    text.find(marker).ok_or_else(|| {
        format!(
            "no \"{marker}\" in the dump's lines 1 to {} (FCL prints Shape 1, X_FS1, Shape 2, X_FS2)",
            text.lines().count().max(1)
        )
    })
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The numbers of `text` in order, with their lines (`first_line` is the line `text`
/// starts on). Identifiers are skipped whole, so `Vector3<double>` and `Box<double>`
/// give no numbers, while the old format's `Box0.5` gives 0.5. A word that spells a
/// number that is not finite (`nan`, `-inf`, `NaN`, `Infinity`, `nan(ind)`, `1.#INF`,
/// `1.#QNAN`), and a numeric token that does not parse (`1.2.3`) or overflows (`1e999`),
/// is kept as a NaN with its word, for the reader to refuse: skipped, it would shift
/// every number after it.
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
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                i += 1;
            }
            // The old format writes a box's first side against its name: `Boxnan`.
            let start = start + glued_kind(&text[start..i]).map_or(0, str::len);
            if not_finite_word(&text[start..i]) {
                // Its sign before it and a `(ind)` / `(snan)` after it belong to it.
                let from = if start > 0 && matches!(bytes[start - 1], b'-' | b'+') {
                    start - 1
                } else {
                    start
                };
                if bytes.get(i) == Some(&b'(') {
                    if let Some(close) = text[i..].find(')') {
                        let inside = &text[i + 1..i + close];
                        if !inside.is_empty() && inside.bytes().all(|b| b.is_ascii_alphabetic()) {
                            i += close + 1;
                        }
                    }
                }
                out.push(Number {
                    value: f64::NAN,
                    line,
                    word: Some(text[from..i].to_string()),
                });
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
            // MSVC's `1.#INF`, `-1.#IND`, `1.#QNAN`: the number and its `#` word.
            if bytes.get(i) == Some(&b'#') {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
            }
            let token = &text[start..i];
            let value = token.parse::<f64>().ok().filter(|v| v.is_finite());
            out.push(Number {
                value: value.unwrap_or(f64::NAN),
                line,
                word: value.is_none().then(|| token.to_string()),
            });
        } else {
            i += 1;
        }
    }
    out
}

/// The first word of `text` that would be skipped or misread among its first `count`
/// numbers, with its line: a character that is not ASCII (`−0.3` with U+2212 read as
/// 0.3), letters glued to a number (`0.3abc`, `0.8x`), a number that does not parse
/// (`1.2.3`, `0,3` is two numbers and is caught by the count). In a transform (`count`
/// 16) any word at all is stray (`nanometer` shifted the numbers after it); in a shape,
/// words (`Vector3<double>`, `lz`, `Box0.5`) are its syntax.
fn stray_word(text: &str, first_line: usize, count: usize) -> Option<(usize, String)> {
    let in_transform = count != usize::MAX;
    let mut seen = 0;
    for (k, line) in text.lines().enumerate() {
        let separators = |c: char| c.is_whitespace() || ",;()[]{}:=<>".contains(c);
        for word in line.split(separators).filter(|w| !w.is_empty()) {
            if seen >= count {
                return None;
            }
            let numeric = word.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c));
            let parses = word.parse::<f64>().is_ok();
            if !word.is_ascii() || (numeric && !parses && !word.contains('#')) {
                return Some((first_line + k, word.to_string()));
            }
            // A non-finite word stands where a number does (refused as such later).
            if parses || word.contains('#') || not_finite_word(word.trim_start_matches(['-', '+']))
            {
                seen += 1;
            } else if in_transform {
                return Some((first_line + k, word.to_string()));
            }
        }
    }
    None
}

/// The shape name at the start of `word` when the rest of it spells a number that is
/// not finite (the old format's `Boxnan 0.5 0.5`).
fn glued_kind(word: &str) -> Option<&str> {
    [
        "Box",
        "Sphere",
        "Ellipsoid",
        "Cylinder",
        "Cone",
        "Capsule",
        "Convex",
    ]
    .into_iter()
    .find(|kind| word.strip_prefix(kind).is_some_and(not_finite_word))
}

/// Whether an identifier of the dump is a spelling of a number that is not finite.
fn not_finite_word(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "nan" | "inf" | "infinity" | "nanq" | "nans" | "qnan" | "snan" | "ind"
    )
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
    let mut name: String = text
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    if let Some(kind) = glued_kind(&name) {
        name = kind.to_string();
    }
    if text.contains("v count") {
        return Err(format!(
            "line {first_line}: a Convex printed by FCL before 0.7 gives only its vertex and face counts; \
             a dump from FCL 0.7 or later (which prints the vertices) can be imported"
        ));
    }
    let values = numbers(text, first_line);
    if let Some(bad) = values.iter().find(|n| !n.value.is_finite()) {
        return Err(bad.refusal());
    }
    if let Some((line, word)) = stray_word(text, first_line, usize::MAX) {
        return Err(format!(
            "line {line}: `{word}` is not a number FCL prints (a sign or digit that is \
             not ASCII, or letters glued to a number)"
        ));
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
            (ShapeSpec::hull_of(points), false)
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
/// (`line` is the marker's, for a transform without its numbers.)
fn transform(values: &[Number], single: bool, line: usize) -> Result<(DMat3, DVec3), String> {
    if values.len() < 12 {
        return Err(format!(
            "line {line}: a 4x4 transform needs 16 numbers, the dump gives {} after it",
            values.len()
        ));
    }
    if let Some(bad) = values[..values.len().min(16)]
        .iter()
        .find(|n| !n.value.is_finite())
    {
        return Err(bad.refusal());
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
