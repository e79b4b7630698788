//! Ties the run broke by round-off. The sheets' tie rule gives a box's support 0 in each
//! coordinate where the direction is 0 (the centre of an edge or face); a direction that
//! is perpendicular to an edge only up to round-off (a local coordinate of 1e-17) makes
//! the run take a corner instead. Both are furthest along the direction, so the gap and
//! α are the same, but a student following the rule writes a different point: the
//! answer key says where that happens and which point the rule gives.

use glam::{DMat3, DVec3};

use crate::scene::Scene;
use crate::shape::Shape;
use crate::solver::distance::DistanceStep;

use super::setup::point;

/// A direction component this small against the direction's length is a tie broken by
/// round-off (a few units in the last place of a unit vector, with margin).
const ROUND_OFF: f64 = 1e-12;

/// A box of the pair as the runs see it: its frame in A's frame.
struct BoxInA {
    name: &'static str,
    rotation: DMat3,
    centre: DVec3,
    /// +1 for B (its support is along d), −1 for A (along −d).
    side: f64,
}

/// The boxes of the pair `(a, b)` of `scene`, to check the runs' supports against.
pub struct TieCheck {
    boxes: Vec<BoxInA>,
}

impl TieCheck {
    pub fn new(scene: &Scene, (a, b): (usize, usize)) -> Self {
        let pose_a = scene.bodies[a].pose;
        let to_a = pose_a.inverse();
        let mut boxes = Vec::new();
        for (index, name, side) in [(a, "A", -1.0), (b, "B", 1.0)] {
            let body = &scene.bodies[index];
            let Shape::Cuboid(_) = &body.shape else {
                continue;
            };
            let in_a = to_a.then_local(&body.pose);
            boxes.push(BoxInA {
                name,
                rotation: in_a.rotation_matrix(),
                centre: in_a.translation,
                side,
            });
        }
        Self { boxes }
    }

    /// What the answer key adds after `step` when its support broke a tie by round-off:
    /// `direction` names the support direction of `A ⊖ B` as the narration does
    /// ("−x₄"; A's support is along it, B's along its opposite), `last` says the run ends
    /// at this step.
    pub fn note(
        &self,
        step: &DistanceStep,
        direction: &str,
        last: bool,
        planar: bool,
    ) -> Option<String> {
        let support = step.support.as_ref()?;
        let d = step.direction;
        let length = d.length();
        if length == 0.0 || !length.is_finite() {
            return None;
        }
        let mut notes = Vec::new();
        for shape in &self.boxes {
            let local_d = shape.rotation.transpose() * (shape.side * d);
            // What a student gets from the sheet's rotation, printed to six digits.
            let printed = six_digits(shape.rotation).transpose() * (shape.side * d);
            let taken = if shape.side > 0.0 {
                support.point.b
            } else {
                support.point.a
            };
            let local_p = shape.rotation.transpose() * (taken - shape.centre);
            let mut rule = local_p;
            let mut tied = Vec::new();
            for axis in 0..3 {
                if local_d[axis] != 0.0
                    && local_d[axis].abs() <= ROUND_OFF * length
                    && local_p[axis] != 0.0
                {
                    rule[axis] = 0.0;
                    tied.push(axis);
                }
            }
            if tied.is_empty() {
                continue;
            }
            let feature = if tied.len() == 1 { "edge" } else { "face" };
            let axes: Vec<String> = (tied.iter())
                .map(|axis| {
                    format!(
                        "{} is {:.1e}, about {:.0e} with the sheet's six-digit rotation",
                        ["x", "y", "z"][*axis],
                        local_d[*axis] / length,
                        (printed[*axis] / length).abs().max(1e-16)
                    )
                })
                .collect();
            let rule_point = shape.rotation * rule + shape.centre;
            let rule_w = if shape.side > 0.0 {
                support.point.a - rule_point
            } else {
                rule_point - support.point.b
            };
            let along = if shape.side > 0.0 {
                direction
                    .strip_prefix('−')
                    .map_or(format!("−{direction}"), str::to_string)
            } else {
                direction.to_string()
            };
            let letter = shape.name.to_lowercase();
            let after = if last {
                "and the run ends here either way"
            } else {
                "but the simplex kept may differ from here on"
            };
            notes.push(format!(
                "Tie: {}'s support direction {along} is perpendicular to an {feature} of {} \
                 up to round-off (in {}'s own frame its unit vector's {}: treat it as 0). \
                 The tie rule takes the {feature}'s centre, {letter} = {}, so w = {}; the run \
                 took the corner {letter} = {}. Both are furthest along {along}, so g and α \
                 are the same, {after}.",
                shape.name,
                shape.name,
                shape.name,
                axes.join("; "),
                point(rule_point, planar),
                point(rule_w, planar),
                point(taken, planar),
            ));
        }
        (!notes.is_empty()).then(|| notes.join(" "))
    }
}

/// `m` with each entry rounded to six significant digits, as the sheet prints it.
fn six_digits(m: DMat3) -> DMat3 {
    let round = |v: f64| format!("{v:.5e}").parse().unwrap_or(v);
    DMat3::from_cols_array(&m.to_cols_array().map(round))
}
