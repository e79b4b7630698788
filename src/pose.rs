//! Rigid poses in f64, and the relative pose the Minkowski difference works in.

use glam::{DMat3, DQuat, DVec3, EulerRot};
use serde::{Deserialize, Serialize};

/// A rigid transform `world_from_local`: rotate, then translate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    pub rotation: DQuat,
    pub translation: DVec3,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
    };

    pub fn new(translation: DVec3, rotation: DQuat) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    pub fn from_translation(translation: DVec3) -> Self {
        Self::new(translation, DQuat::IDENTITY)
    }

    /// Builds a pose from XYZ Euler angles in degrees (the panel's and scene files' form).
    pub fn from_euler_degrees(translation: DVec3, degrees: DVec3) -> Self {
        let r = degrees * (std::f64::consts::PI / 180.0);
        Self::new(translation, DQuat::from_euler(EulerRot::XYZ, r.x, r.y, r.z))
    }

    /// XYZ Euler angles in degrees.
    pub fn euler_degrees(&self) -> DVec3 {
        let (x, y, z) = self.rotation.to_euler(EulerRot::XYZ);
        DVec3::new(x, y, z) * (180.0 / std::f64::consts::PI)
    }

    pub fn transform_point(&self, local: DVec3) -> DVec3 {
        self.rotation * local + self.translation
    }

    pub fn transform_vector(&self, local: DVec3) -> DVec3 {
        self.rotation * local
    }

    pub fn inverse(&self) -> Pose {
        let rotation = self.rotation.inverse();
        Pose::new(-(rotation * self.translation), rotation)
    }

    /// `self * other`: applies `other` first.
    pub fn then_local(&self, other: &Pose) -> Pose {
        Pose::new(
            self.transform_point(other.translation),
            (self.rotation * other.rotation).normalize(),
        )
    }

    pub fn is_finite(&self) -> bool {
        self.rotation.is_finite() && self.translation.is_finite()
    }
}

/// Shape B's frame expressed in shape A's frame (`a_from_b`). Kept as a matrix so that
/// problems given by rotation matrices (the benchmark files) are reproduced bit for bit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelativePose {
    pub rotation: DMat3,
    pub translation: DVec3,
}

impl RelativePose {
    pub fn between(world_from_a: &Pose, world_from_b: &Pose) -> Self {
        let a_from_b = world_from_a.inverse().then_local(world_from_b);
        Self {
            rotation: DMat3::from_quat(a_from_b.rotation),
            translation: a_from_b.translation,
        }
    }

    pub fn from_matrix(rotation: DMat3, translation: DVec3) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// A point of B's frame in A's frame.
    pub fn transform_point(&self, p_in_b: DVec3) -> DVec3 {
        self.rotation * p_in_b + self.translation
    }

    /// A direction of A's frame in B's frame (`Rᵀ v`), summed in the same order as Coal.
    pub fn inverse_rotate(&self, v_in_a: DVec3) -> DVec3 {
        DVec3::new(
            self.rotation.x_axis.dot(v_in_a),
            self.rotation.y_axis.dot(v_in_a),
            self.rotation.z_axis.dot(v_in_a),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_pose_maps_b_points_into_a_frame() {
        let a = Pose::from_euler_degrees(DVec3::new(1.0, 2.0, 3.0), DVec3::new(10.0, 20.0, 30.0));
        let b = Pose::from_euler_degrees(DVec3::new(-1.0, 0.5, 2.0), DVec3::new(-40.0, 5.0, 70.0));
        let rel = RelativePose::between(&a, &b);
        let p_b = DVec3::new(0.3, -0.2, 0.9);
        let world = b.transform_point(p_b);
        let expected = a.inverse().transform_point(world);
        assert!((rel.transform_point(p_b) - expected).length() < 1e-12);
        let v = DVec3::new(0.1, 0.7, -0.4);
        let back = rel.rotation * rel.inverse_rotate(v);
        assert!((back - v).length() < 1e-12);
    }

    #[test]
    fn euler_degrees_round_trip() {
        let deg = DVec3::new(12.0, -33.0, 71.0);
        let p = Pose::from_euler_degrees(DVec3::ZERO, deg);
        assert!((p.euler_degrees() - deg).length() < 1e-9);
    }
}
