//! What a student needs before computing anything: the shapes in world coordinates with
//! the rotation written out, which frame the runs work in, the first guess x₀, how ties
//! between support points are broken, and the stopping test.

use std::fmt::Write;

use glam::{DMat3, DVec3};

use crate::pose::Pose;
use crate::scene::{Dimension, RotationSpec, Scene};
use crate::solver::{CriterionKind, InitialGuess};

/// Numbers as a student copies them: six significant digits, in decimals between 1e-3
/// and 1e4 (trailing zeros dropped), else with an exponent.
pub fn number(v: f64) -> String {
    format_significant(
        v,
        |v, digits| format!("{v:.digits$}"),
        |v| format!("{v:.5e}"),
    )
}

/// An upper bound (∥x∥) in [`number`]'s style, rounded up.
pub fn upper(v: f64) -> String {
    use crate::printed_bound::Above;
    format_significant(
        v,
        |v, d| format!("{:.d$}", Above(v)),
        |v| format!("{:.5e}", Above(v)),
    )
}

/// A lower bound (α) in [`number`]'s style, rounded down.
pub fn lower(v: f64) -> String {
    use crate::printed_bound::Below;
    format_significant(
        v,
        |v, d| format!("{:.d$}", Below(v)),
        |v| format!("{:.5e}", Below(v)),
    )
}

fn format_significant(
    v: f64,
    fixed: impl Fn(f64, usize) -> String,
    exponent: impl Fn(f64) -> String,
) -> String {
    let text = if v == 0.0 || !v.is_finite() {
        format!("{v}")
    } else if (1e-3..1e4).contains(&v.abs()) {
        let decimals = (5 - v.abs().log10().floor() as i32).max(0) as usize;
        let s = fixed(v, decimals);
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        exponent(v)
    };
    text.replace('-', "−")
}

/// A point as `(x, y, z)`, or `(x, y)` in the planar mode.
pub fn point(p: DVec3, planar: bool) -> String {
    if planar {
        format!("({}, {})", number(p.x), number(p.y))
    } else {
        format!("({}, {}, {})", number(p.x), number(p.y), number(p.z))
    }
}

/// The setup section, the same on the student sheet and the answer key.
pub fn setup(scene: &Scene) -> String {
    let planar = scene.dimension == Dimension::Planar;
    let mut out = String::from("## The setup\n\n");
    out.push_str(
        "Coordinates are world coordinates. A rotation written `EulerDegrees((α, β, γ))` \
         is R = R_x(α) R_y(β) R_z(γ): the body turns by γ about z, then by β about the \
         world's y, then by α about the world's x; a point p of the body's own frame is \
         at R p + t in the world, t its centre.\n\n",
    );
    let file = scene.to_file();
    for (k, (spec, body)) in file.bodies.iter().zip(&scene.bodies).enumerate() {
        let name = body_name(k);
        let shape = ron::to_string(&spec.shape).unwrap_or_default();
        // Positions in full (the shortest decimals that read back exactly): shapes
        // 1e-3 apart with ε = 1e-6 need every digit.
        let t = body.pose.translation;
        let exact = if planar {
            format!("({}, {})", t.x, t.y)
        } else {
            format!("({}, {}, {})", t.x, t.y, t.z)
        };
        let _ = write!(out, "- **{name}**: `{shape}`, centre t_{name} = {exact}");
        let _ = write!(out, ", {}", rotation_text(&spec.rotation, &body.pose));
        if let Some(v) = spec.velocity {
            let _ = write!(
                out,
                ", moving by v = {} over t ∈ [0, 1]",
                point(DVec3::from_array(v), planar)
            );
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&frame_text(scene, planar));
    out.push_str(&first_guess_text(scene));
    out.push_str(TIE_RULE);
    let ellipsoid = file
        .bodies
        .iter()
        .any(|b| matches!(b.shape, crate::scene::ShapeSpec::Ellipsoid { .. }));
    if ellipsoid {
        out.push_str(ELLIPSOID_SUPPORT);
    }
    out.push_str(&stopping_text(scene));
    out
}

/// The support of an ellipsoid, for sheets whose shapes have one (a student cannot
/// take it from a table of vertices).
const ELLIPSOID_SUPPORT: &str = "**Ellipsoid supports.** An ellipsoid with radii r = \
    (r₁, r₂, r₃) in its own frame, turned by R and centred at t, has the support \
    s(d) = t + R (r² ⊙ e) / ∥r ⊙ e∥ with e = R^T d (⊙ multiplies coordinate by \
    coordinate, r² = r ⊙ r): the point where the normal is d.\n\n";

/// "A", "B", … (then "body 26", …).
pub fn body_name(k: usize) -> String {
    match k {
        0..26 => ((b'A' + k as u8) as char).to_string(),
        _ => format!("body {k}"),
    }
}

/// The rotation as written and as a matrix (rows), unless it is none.
fn rotation_text(spec: &RotationSpec, pose: &Pose) -> String {
    let m = DMat3::from_quat(pose.rotation);
    if m.abs_diff_eq(DMat3::IDENTITY, 0.0) {
        return "not turned (R = I)".to_string();
    }
    let written = ron::to_string(spec).unwrap_or_default();
    let row = |r: DVec3| format!("({}, {}, {})", number(r.x), number(r.y), number(r.z));
    format!(
        "rotation `{written}`: R = [{}; {}; {}] (rows)",
        row(m.row(0)),
        row(m.row(1)),
        row(m.row(2))
    )
}

/// Which frame the runs' points are in.
fn frame_text(scene: &Scene, planar: bool) -> String {
    let a = &scene.a().pose;
    let at_origin = a.translation == DVec3::ZERO && DMat3::from_quat(a.rotation) == DMat3::IDENTITY;
    if at_origin {
        "**Frame.** A sits at the origin, not turned: A's frame is the world frame, and \
         every point below (w = a − b, x, the witnesses) is in world coordinates.\n\n"
            .to_string()
    } else {
        let b_in_a = scene.b_in_a();
        format!(
            "**Frame.** The runs work in A's own frame (A at the origin, not turned): a \
             world point p is R_A^T (p − t_A) there, so B's centre is at {} in it. Every \
             point below is in A's frame.\n\n",
            point(b_in_a.translation, planar)
        )
    }
}

/// x₀ and where it comes from.
fn first_guess_text(scene: &Scene) -> String {
    let what = match scene.settings.initial_guess {
        InitialGuess::CentreDifference => {
            "the difference c_A − c_B of the centres of the shapes' bounding boxes"
        }
        InitialGuess::OriginDifference => "the difference t_A − t_B of the shapes' origins",
        InitialGuess::UnitX => "(1, 0, 0), Coal's default",
        _ => "the vector the scene's settings give",
    };
    format!(
        "**First guess.** x₀ is {what} (in A's frame); the first support is \
         w₁ = s_{{A⊖B}}(−x₀) = s_A(−x₀) − s_B(x₀).\n\n"
    )
}

/// How supports are chosen when several points tie.
const TIE_RULE: &str = "**Ties.** When several points of a shape are furthest along d, \
    the support is: for a box, 0 in each coordinate where d is 0 (the centre of the face or \
    edge); for a polygon or polytope, one of the tied vertices (the answer key names the \
    one taken: any of them is a support, but the run may differ from yours after a tie); \
    a sphere or an ellipsoid has a single furthest point for every d ≠ 0.\n\n";

/// The stopping test and its tolerance.
fn stopping_text(scene: &Scene) -> String {
    let s = &scene.settings;
    let frank_wolfe = scene
        .methods
        .iter()
        .any(|m| m.family() == crate::solver::frank_wolfe::FAMILY);
    let kind = match s.kind {
        CriterionKind::Absolute => "absolute",
        CriterionKind::Relative => "relative: ε·∥x∥",
    };
    format!(
        "**Stopping test.** {} with ε = {:e} ({kind}); at most {} iterations. α is the best \
         lower bound so far: α₀ = 0 and α_k = max(α_{{k−1}}, ⟨x_{{k−1}}, w_k⟩/∥x_{{k−1}}∥). \
         Each x_k is the point of the simplex nearest O (project O onto the segment, triangle \
         or tetrahedron, and drop the vertices whose weight would be negative).{} The answer \
         key rounds ∥x∥ up and α down, so that both stay bounds of the distance.\n\n",
        criterion_text(s),
        s.tolerance,
        s.max_iterations,
        if frank_wolfe { FRANK_WOLFE_STEP } else { "" }
    )
}

/// How a Frank-Wolfe step makes x_k, for a lesson that runs it.
const FRANK_WOLFE_STEP: &str = " Frank-Wolfe instead moves x_{k−1} toward w_k: \
    x_k = x_{k−1} + γ(w_k − x_{k−1}) with γ = ⟨x_{k−1}, x_{k−1} − w_k⟩/∥x_{k−1} − w_k∥² \
    clipped to [0, 1] (line search), and keeps the supports it moved toward, with their \
    weights, as its active set; its first step is x₁ = w₁.";

fn criterion_text(s: &crate::solver::SolverSettings) -> &'static str {
    use crate::solver::Criterion;
    match s.criterion {
        Criterion::DualityGap => "the duality gap g = 2⟨x, x − w⟩ ≤ ε",
        Criterion::VanDenBergen => "van den Bergen's ∥x∥ − α ≤ ε",
        Criterion::Hybrid => "∥x∥² − α² ≤ ε",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The convention the sheet states is the one poses are built with.
    #[test]
    fn euler_degrees_turn_about_z_then_y_then_x() {
        let (a, b, c) = (30.0f64, -20.0f64, 75.0f64);
        let pose = Pose::from_euler_degrees(DVec3::ZERO, DVec3::new(a, b, c));
        let r = |deg: f64| deg.to_radians();
        let stated = DMat3::from_rotation_x(r(a))
            * DMat3::from_rotation_y(r(b))
            * DMat3::from_rotation_z(r(c));
        assert!(DMat3::from_quat(pose.rotation).abs_diff_eq(stated, 1e-12));
    }

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-1.25), "−1.25");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1e-9), "1.00000e−9");
        assert_eq!(number(0.00345678), "0.00345678");
        assert_eq!(number(0.000879851), "8.79851e−4");
        // Bounds keep six digits, rounded the safe way.
        assert_eq!(lower(0.0034567891), "0.00345678");
        assert_eq!(upper(0.0034567891), "0.00345679");
        assert_eq!(lower(0.0008798594), "8.79859e−4");
        assert_eq!(upper(0.0008798594), "8.79860e−4");
    }
}
