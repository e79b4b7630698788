//! An allowed-collision matrix for a robot without an SRDF, computed the way MoveIt's
//! setup assistant does: pairs of adjacent links (a joint between them, links without
//! geometry skipped over), pairs in collision at the default configuration (every joint
//! at 0, clamped into its limits), and pairs in collision in nearly all random
//! configurations. Written out as an SRDF whose `reason` says which rule disabled each.

use std::fmt::Write as _;

use super::check::{checked_pairs, SelfCollision};
use super::model::{JointKind, RobotModel};
use super::srdf::DisabledPair;
use crate::rng::SplitMix64;
use crate::solver::Algorithm;

/// Why a pair is disabled (MoveIt's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcmRule {
    Adjacent,
    Default,
    Always,
}

impl AcmRule {
    pub fn name(self) -> &'static str {
        match self {
            AcmRule::Adjacent => "Adjacent",
            AcmRule::Default => "Default",
            AcmRule::Always => "Always",
        }
    }
}

/// The default configuration: 0 clamped into each joint's limits.
pub fn default_configuration(model: &RobotModel) -> Vec<f64> {
    model
        .actuated
        .iter()
        .map(|&j| match model.joints[j].limits {
            Some((lo, hi)) if lo <= hi => 0.0f64.clamp(lo, hi),
            _ => 0.0,
        })
        .collect()
}

/// A configuration uniform within the limits (continuous joints in [−π, π]).
pub fn random_configuration(model: &RobotModel, rng: &mut SplitMix64) -> Vec<f64> {
    model
        .actuated
        .iter()
        .map(|&j| {
            let joint = &model.joints[j];
            let (lo, hi) = match (joint.kind, joint.limits) {
                (JointKind::Continuous, _) => (-std::f64::consts::PI, std::f64::consts::PI),
                (_, Some((lo, hi))) if lo < hi => (lo, hi),
                _ => (0.0, 0.0),
            };
            rng.range(lo, hi)
        })
        .collect()
}

/// The disabled pairs: adjacent, colliding at the default configuration, and colliding
/// in at least `always_fraction` of `trials` random configurations.
pub fn compute_acm(
    model: &RobotModel,
    trials: usize,
    always_fraction: f64,
    seed: u64,
) -> Vec<(DisabledPair, AcmRule)> {
    let names: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    let has_shape: Vec<Option<usize>> = (0..model.link_names.len())
        .map(|l| model.shapes.iter().position(|s| s.link == l))
        .collect();
    let parent_joint = |link: usize| model.joints.iter().find(|j| j.child == link);
    let mut rules: Vec<Option<AcmRule>> = Vec::new();
    let pairs = checked_pairs(model, &[]);
    rules.resize(pairs.len(), None);
    // Adjacent: each shape's nearest ancestor with geometry.
    for (i, shape) in model.shapes.iter().enumerate() {
        let mut link = shape.link;
        while let Some(joint) = parent_joint(link) {
            link = joint.parent;
            if let Some(j) = has_shape[link] {
                let key = (i.min(j), i.max(j));
                if let Some(k) = pairs.iter().position(|p| *p == key) {
                    rules[k] = Some(AcmRule::Adjacent);
                }
                break;
            }
        }
    }
    let mut checker = SelfCollision::new(pairs.clone(), Algorithm::GJK);
    let at_default = checker.check(model, &default_configuration(model));
    for (k, answer) in at_default.pairs.iter().enumerate() {
        if rules[k].is_none() && answer.colliding {
            rules[k] = Some(AcmRule::Default);
        }
    }
    let mut rng = SplitMix64::new(seed);
    let mut hits = vec![0usize; pairs.len()];
    for _ in 0..trials {
        // Only which pairs collide matters: the margin check at 0 (bounding spheres and
        // the hulls rule most pairs out; links loaded as meshes are asked as meshes).
        let answer = checker.check_within(model, &random_configuration(model, &mut rng), 0.0);
        for (k, a) in answer.pairs.iter().enumerate() {
            hits[k] += usize::from(a.colliding);
        }
    }
    for k in 0..pairs.len() {
        if rules[k].is_none() && trials > 0 && hits[k] as f64 >= always_fraction * trials as f64 {
            rules[k] = Some(AcmRule::Always);
        }
    }
    pairs
        .iter()
        .zip(rules)
        .filter_map(|(&(i, j), rule)| {
            let rule = rule?;
            Some((
                DisabledPair {
                    link1: names[i].to_string(),
                    link2: names[j].to_string(),
                    reason: rule.name().to_string(),
                },
                rule,
            ))
        })
        .collect()
}

/// The SRDF text of `disabled` for `robot`.
pub fn srdf_text(robot: &str, disabled: &[(DisabledPair, AcmRule)]) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\"?>\n<!-- Allowed-collision matrix computed by collidescope (MoveIt's rules: Adjacent, Default, Always). -->\n<robot name=\"{}\">\n",
        xml_escape(robot)
    );
    for (pair, rule) in disabled {
        let _ = writeln!(
            out,
            "  <disable_collisions link1=\"{}\" link2=\"{}\" reason=\"{}\"/>",
            xml_escape(&pair.link1),
            xml_escape(&pair.link2),
            rule.name()
        );
    }
    out.push_str("</robot>\n");
    out
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
