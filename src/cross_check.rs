//! parry3d-f64's answer on the same pair and pose, beside ours (issue 15): its native
//! query where parry has the shapes (what a parry user gets), its GJK on our support
//! maps otherwise; and whether the two agree within the bound our run certifies. A
//! disagreement names both numbers; parry's silent failure (contact, distance 0.0,
//! where the shapes are apart) is called what it is.

use std::time::Instant;

use glam::DVec3;

use crate::parry_bridge::{parry_gjk_closest_points, parry_native_distance, parry_penetration};
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::{distance_guarantee, Outcome, SolverSettings};

/// What parry3d-f64 answers on the pair.
#[derive(Clone, Debug, PartialEq)]
pub struct ParryAnswer {
    /// Its distance (0 when it reports contact).
    pub distance: f64,
    /// Its penetration depth when it reports contact and its contact query gives one.
    pub depth: Option<f64>,
    /// Its witness points (A's frame), when its GJK gives them.
    pub witnesses: Option<(DVec3, DVec3)>,
    /// Which of parry's queries answered.
    pub via: &'static str,
    pub seconds: f64,
}

/// Ours against parry's.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Within the bound our run certifies (and round-off).
    Agree { bound: f64 },
    /// Apart by more than that bound: both numbers.
    Disagree { ours: f64, parry: f64, bound: f64 },
    /// parry reports contact (distance 0.0) where our run certifies a distance.
    ParryMissedSeparation { ours: f64 },
    /// Our run certified nothing to compare (cap, not applicable, degenerate).
    NotComparable(String),
}

impl Agreement {
    pub fn agrees(&self) -> bool {
        matches!(self, Agreement::Agree { .. })
    }
}

impl std::fmt::Display for Agreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Agreement::Agree { bound } => write!(f, "agrees within {bound:.1e}"),
            Agreement::Disagree { ours, parry, bound } => write!(
                f,
                "DISAGREES: ours {ours:.9e}, parry {parry:.9e} (apart by {:.2e} > {bound:.1e})",
                (ours - parry).abs()
            ),
            Agreement::ParryMissedSeparation { ours } => write!(
                f,
                "DISAGREES: parry reports contact (distance 0.0) where ours certifies {ours:.9e}"
            ),
            Agreement::NotComparable(why) => write!(f, "not compared ({why})"),
        }
    }
}

/// For answers known only by their distance and status (problem files): whether parry's
/// distance lies within the bound a separated (or intersecting) answer certifies;
/// `None` when the answer certifies nothing to compare.
pub fn distance_agrees(
    ours: Option<f64>,
    status: &str,
    settings: &SolverSettings,
    parry: f64,
) -> Option<bool> {
    let d = ours?;
    let bound = match status {
        "separated" => distance_guarantee(settings.criterion, settings.kind, settings.tolerance, d),
        "intersecting" | "touching" => settings.tolerance,
        _ => return None,
    } + 1e-9 * d.max(1.0);
    Some((d - parry).abs() <= bound)
}

/// parry3d-f64 on A (identity) and B (at `b_in_a`).
pub fn parry_answer(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> ParryAnswer {
    let start = Instant::now();
    let witnesses = parry_gjk_closest_points(a, b, b_in_a).map(|(_, pa, pb)| (pa, pb));
    let (distance, via) = match parry_native_distance(a, b, b_in_a) {
        Some(d) => (d, "parry's own query on its shapes"),
        None => (
            witnesses.map_or(0.0, |(pa, pb)| (pa - pb).length()),
            "parry's GJK on our support maps",
        ),
    };
    let depth = (distance == 0.0)
        .then(|| parry_penetration(a, b, b_in_a).map(|(d, _)| d))
        .flatten();
    ParryAnswer {
        distance,
        depth,
        witnesses,
        via,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Whether parry's answer lies within what our run certifies.
pub fn compare(outcome: &Outcome, settings: &SolverSettings, parry: &ParryAnswer) -> Agreement {
    let round_off = |d: f64| 1e-9 * d.max(1.0);
    match *outcome {
        Outcome::Separated { distance } => {
            let bound = distance_guarantee(
                settings.criterion,
                settings.kind,
                settings.tolerance,
                distance,
            ) + round_off(distance);
            if parry.distance == 0.0 && distance > bound {
                Agreement::ParryMissedSeparation { ours: distance }
            } else if (distance - parry.distance).abs() <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: distance,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        Outcome::Stalled {
            distance,
            lower_bound,
        } => {
            let bound = (distance - lower_bound) + round_off(distance);
            if parry.distance >= lower_bound - round_off(distance)
                && parry.distance <= distance + round_off(distance)
            {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: distance,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        Outcome::Intersecting | Outcome::Touching { .. } => {
            let bound = settings.tolerance + round_off(0.0);
            if parry.distance <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: 0.0,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        Outcome::Penetrating { depth, .. } => {
            let bound = settings.tolerance.sqrt() + round_off(depth);
            match parry.depth {
                Some(p) if (p - depth).abs() <= bound => Agreement::Agree { bound },
                Some(p) => Agreement::Disagree {
                    ours: -depth,
                    parry: -p,
                    bound,
                },
                None if parry.distance > bound => Agreement::Disagree {
                    ours: -depth,
                    parry: parry.distance,
                    bound,
                },
                None => Agreement::NotComparable("parry gave no depth".into()),
            }
        }
        ref other => Agreement::NotComparable(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minkowski::MinkowskiDifference;
    use crate::shape::{Cuboid, Sphere};
    use crate::solver::{solve, Algorithm};

    fn pair(b_at: DVec3) -> (Shape, Shape, RelativePose) {
        let a = Shape::Sphere(Sphere::new(0.5).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let rel = RelativePose::between(
            &crate::pose::Pose::IDENTITY,
            &crate::pose::Pose::from_translation(b_at),
        );
        (a, b, rel)
    }

    #[test]
    fn parry_agrees_on_a_plain_pair_and_a_wrong_answer_is_named() {
        let (a, b, rel) = pair(DVec3::new(2.0, 0.3, 0.0));
        let settings = SolverSettings::default();
        let run = solve(
            Algorithm::ALL[0],
            MinkowskiDifference::new(&a, &b, rel),
            settings,
        );
        let parry = parry_answer(&a, &b, &rel);
        assert!((parry.distance - 1.0).abs() < 1e-9, "{parry:?}");
        assert!(compare(&run.outcome, &settings, &parry).agrees());
        // A parry answer off by 1e-3 is a disagreement, one of 0.0 a missed separation.
        let off = ParryAnswer {
            distance: parry.distance + 1e-3,
            ..parry.clone()
        };
        assert!(matches!(
            compare(&run.outcome, &settings, &off),
            Agreement::Disagree { .. }
        ));
        let zero = ParryAnswer {
            distance: 0.0,
            ..parry
        };
        assert!(matches!(
            compare(&run.outcome, &settings, &zero),
            Agreement::ParryMissedSeparation { .. }
        ));
        // Overlapping: both say contact.
        let (a, b, rel) = pair(DVec3::new(0.8, 0.0, 0.0));
        let run = solve(
            Algorithm::ALL[0],
            MinkowskiDifference::new(&a, &b, rel),
            settings,
        );
        assert!(compare(&run.outcome, &settings, &parry_answer(&a, &b, &rel)).agrees());
    }

    #[test]
    fn problem_file_answers_are_compared_by_status() {
        let s = SolverSettings::default(); // van den Bergen, absolute: 1e-6
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 1.0 + 5e-7),
            Some(true)
        );
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 1.0 + 5e-6),
            Some(false)
        );
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 0.0),
            Some(false)
        );
        assert_eq!(
            distance_agrees(Some(0.0), "intersecting", &s, 0.0),
            Some(true)
        );
        assert_eq!(distance_agrees(None, "iteration_cap", &s, 0.3), None);
    }
}
