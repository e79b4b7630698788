//! Forward kinematics: every link's pose for a configuration (the actuated joints'
//! values; mimic joints follow their leaders), parents before children.

use glam::DQuat;

use super::model::{JointKind, RobotModel};
use crate::pose::Pose;

/// Each joint's value: actuated joints from `q` (in `model.actuated` order), mimic
/// joints from their leader, fixed joints 0.
pub fn joint_values(model: &RobotModel, q: &[f64]) -> Vec<f64> {
    let mut values = vec![0.0; model.joints.len()];
    for (k, &j) in model.actuated.iter().enumerate() {
        values[j] = q.get(k).copied().unwrap_or(0.0);
    }
    for j in 0..model.joints.len() {
        values[j] = mimic_value(model, &values, j, 0);
    }
    values
}

/// A joint's value following its mimic chain (a mimic of a mimic, in any file order);
/// a chain longer than the joints is a loop and stops there.
fn mimic_value(model: &RobotModel, values: &[f64], j: usize, depth: usize) -> f64 {
    match model.joints[j].mimic {
        Some((leader, multiplier, offset)) if depth <= model.joints.len() => {
            multiplier * mimic_value(model, values, leader, depth + 1) + offset
        }
        _ => values[j],
    }
}

/// Every link's pose in the root's frame.
pub fn link_poses(model: &RobotModel, q: &[f64]) -> Vec<Pose> {
    let values = joint_values(model, q);
    let mut poses = vec![Pose::IDENTITY; model.link_names.len()];
    for &j in &model.order {
        let joint = &model.joints[j];
        let motion = match joint.kind {
            JointKind::Fixed => Pose::IDENTITY,
            JointKind::Revolute | JointKind::Continuous => Pose::new(
                glam::DVec3::ZERO,
                DQuat::from_axis_angle(joint.axis, values[j]),
            ),
            JointKind::Prismatic => Pose::from_translation(joint.axis * values[j]),
        };
        poses[joint.child] = poses[joint.parent]
            .then_local(&joint.origin)
            .then_local(&motion);
    }
    poses
}

/// Each link shape's world pose (its link's pose, then the shape's offset in the link).
pub fn shape_poses(model: &RobotModel, q: &[f64]) -> Vec<Pose> {
    let links = link_poses(model, q);
    model
        .shapes
        .iter()
        .map(|s| links[s.link].then_local(&s.offset))
        .collect()
}
