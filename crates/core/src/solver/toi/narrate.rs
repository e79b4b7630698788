//! The time-of-impact methods' steps in words: what was probed, what it showed, and
//! where the first contact can still be.

use crate::printed_bound::{Above, Below, Outward};
use crate::solver::family::RunView;
use crate::solver::toi::{ToiEvent, ToiExtras, ToiRecord};

/// `[lo, hi]` in words, or "after lo" while no contact is known.
fn bracket(r: &ToiRecord) -> String {
    if r.upper.is_finite() {
        format!("contact in {:.9}", Outward(r.lower, r.upper))
    } else {
        format!("no contact before t = {:.9}", Below(r.lower))
    }
}

/// Says what record `index` of a time-of-impact run did.
pub fn narrate(run: RunView<'_>, records: &[ToiRecord], index: usize) -> String {
    let Some(r) = records.get(index) else {
        return format!("No steps recorded. Result: {}.", run.summary.outcome);
    };
    let step = index + 1;
    // A probe's distance is reached by points of the shapes (an upper bound); the
    // times a step certifies free of contact are lower bounds of the impact.
    let (t, d) = (r.time, Above(r.distance));
    let apart = r.distance > 0.0;
    // The distance at or below which the run calls it contact.
    let tolerance = run
        .extras::<ToiExtras>()
        .map(|e| e.contact_tolerance)
        .filter(|t| *t > 0.0)
        .map_or(String::from("the contact tolerance"), |t| {
            format!("the contact tolerance {:.3e}", Above(t))
        });
    match r.event {
        ToiEvent::Start => format!(
            "Step {step}: at t = 0 the shapes are {d:.6e} apart{}.",
            if apart { "" } else { ": touching already, impact at t = 0" }
        ),
        ToiEvent::SweptTest => {
            if apart {
                format!(
                    "Step {step}: B swept over the whole motion stays {d:.6e} from A: the closest approach; no impact."
                )
            } else {
                format!(
                    "Step {step}: B swept over the whole motion overlaps A: they touch at some t in [0, 1]; now find the first."
                )
            }
        }
        ToiEvent::Halve => {
            let half = if !apart || r.upper <= t {
                "touches: contact is earlier"
            } else {
                "does not touch: contact is later"
            };
            format!("Step {step}: B swept up to t = {t:.9} {half} (distance {d:.3e}); {}.", bracket(r))
        }
        ToiEvent::Bisection | ToiEvent::Secant | ToiEvent::InverseQuadratic => {
            let how = match r.event {
                ToiEvent::Bisection => "bisection",
                ToiEvent::Secant => "secant step",
                _ => "inverse quadratic step",
            };
            let side = if apart { "apart: contact is later" } else { "overlapping: contact is earlier" };
            format!("Step {step}: {how} to t = {t:.9}: signed distance {d:.3e}, {side}; {}.", bracket(r))
        }
        ToiEvent::Advance => {
            // The step is computed from a lower bound of the distance (the measured one
            // less 2e-9 of the cores' distance), so that it cannot pass the contact: it
            // aims at the contact and lands that margin short of it.
            let there = if r.distance <= run.extras::<ToiExtras>().map_or(0.0, |e| e.contact_tolerance) {
                format!("within {tolerance} (the relative contact tolerance times the scene's size), so the next step reports contact")
            } else {
                format!("still above {tolerance}")
            };
            format!(
                "Step {step}: advanced to t = {:.9} by the certified lower bound of the distance over the closing speed along the separating normal (no point of B can reach A sooner). The bound is the measured distance less a safety margin of 2e-9 of the distance between the shapes' cores (a sphere's centre, a capsule's segment, a box itself), so the step aims at the contact and stops that margin short of it: the distance there is {d:.3e}, {there}.",
                Below(t)
            )
        }
        ToiEvent::RayAdvance => format!(
            "Step {step}: the support's plane separates the ray's point: λ moves on to {:.9}; gap {d:.3e}.",
            Below(t)
        ),
        ToiEvent::RayProject => format!(
            "Step {step}: the support joins the simplex around the ray's point (λ = {t:.9}); gap now {d:.3e}."
        ),
        ToiEvent::Contact => format!(
            "Step {step}: contact at t = {t:.9} (distance {d:.3e}, within {tolerance}). Result: {}.",
            run.summary.outcome
        ),
        ToiEvent::NoContact => format!(
            "Step {step}: no contact for t in [0, 1]; closest approach {d:.6e}. Result: {}.",
            run.summary.outcome
        ),
        ToiEvent::ClosedForm => format!(
            "Step {step}: closed form (two spheres: the quadratic |p + t·v| = r_A + r_B; two \
             boxes: the first time every separating axis overlaps): t = {t:.9}, distance \
             {d:.3e}. Result: {}. To watch the method's own steps, untick the closed forms \
             in the time of impact's settings.",
            run.summary.outcome
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::pose::RelativePose;
    use crate::shape::{Cuboid, Shape, Sphere};
    use crate::solver::toi::ToiRule;
    use crate::solver::{Method, SolverSettings};
    use glam::{DMat3, DVec3};

    #[test]
    fn narrates_probes_brackets_and_the_contact() {
        let plate = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 0.01, 1.0)).unwrap());
        let ball = Shape::Sphere(Sphere::new(0.1).unwrap());
        let rel = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(0.0, 2.0, 0.0));
        let v = Some(DVec3::new(0.0, -4.0, 0.0).into());
        // The methods' own steps (a sphere and a box have a closed form by default).
        let mut stepping = SolverSettings::default();
        stepping.toi.closed_forms = false;
        for (rule, phrase) in [
            (ToiRule::Halving, "contact is"),
            (ToiRule::Brent, "signed distance"),
            (ToiRule::Advancement, "advanced to"),
            (ToiRule::RayCast, "λ moves on"),
        ] {
            let run = Method::toi(rule).run(&plate, &ball, rel, v, stepping, true);
            let lines: Vec<String> = (0..run.trace.len()).map(|i| run.narrate(i)).collect();
            assert!(lines[1].contains("overlaps A"), "{rule:?}: {}", lines[1]);
            assert!(
                lines.iter().any(|l| l.contains(phrase)),
                "{rule:?}: {lines:#?}"
            );
            assert!(
                lines.last().unwrap().contains("impact at t"),
                "{rule:?}: {lines:#?}"
            );
        }
    }

    #[test]
    fn a_closed_form_says_so_and_how_to_watch_the_steps() {
        let plate = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 0.01, 1.0)).unwrap());
        let ball = Shape::Sphere(Sphere::new(0.1).unwrap());
        let rel = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(0.0, 2.0, 0.0));
        let v = Some(DVec3::new(0.0, -4.0, 0.0).into());
        let rule = ToiRule::RayCast;
        let run = Method::toi(rule).run(&plate, &ball, rel, v, SolverSettings::default(), true);
        let last = run.narrate(run.trace.len() - 1);
        assert!(
            last.contains("closed form") && last.contains("impact at t"),
            "{last}"
        );
        assert!(last.contains("untick the closed forms"), "{last}");
    }
}
