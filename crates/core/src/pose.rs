//! Rigid poses in f64, and the relative pose the Minkowski difference works in.

use glam::{DMat3, DQuat, DVec3, EulerRot};
use serde::{Deserialize, Serialize};

/// A rigid transform `world_from_local`: rotate, then translate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    pub rotation: DQuat,
    pub translation: DVec3,
    /// The rotation matrix exactly as a file gave it (Coal's 3×3, FCL's 4×4, a problem
    /// file's rows), when there was one: a quaternion cannot hold it to the bit, and the
    /// query must be the one the engine ran. Points are turned by it, and relative poses
    /// composed from it as Coal composes them. Any edit of the pose drops it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<DMat3>,
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
        matrix: None,
    };

    pub fn new(translation: DVec3, rotation: DQuat) -> Self {
        Self {
            rotation,
            translation,
            matrix: None,
        }
    }

    /// A pose whose rotation matrix is kept as given (see [`Pose::matrix`]); the
    /// quaternion beside it serves the viewer's handles and Euler readouts.
    pub fn from_matrix(translation: DVec3, matrix: DMat3) -> Self {
        Self {
            rotation: DQuat::from_mat3(&matrix).normalize(),
            translation,
            matrix: Some(matrix),
        }
    }

    /// The rotation as a matrix: the exact one when given, else the quaternion's.
    pub fn rotation_matrix(&self) -> DMat3 {
        self.matrix
            .unwrap_or_else(|| DMat3::from_quat(self.rotation))
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
        self.transform_vector(local) + self.translation
    }

    pub fn transform_vector(&self, local: DVec3) -> DVec3 {
        match self.matrix {
            Some(m) => m * local,
            None => self.rotation * local,
        }
    }

    pub fn inverse(&self) -> Pose {
        match self.matrix {
            Some(m) => {
                let back = m.transpose();
                Pose::from_matrix(-(back * self.translation), back)
            }
            None => {
                let rotation = self.rotation.inverse();
                Pose::new(-(rotation * self.translation), rotation)
            }
        }
    }

    /// `self * other`: applies `other` first.
    pub fn then_local(&self, other: &Pose) -> Pose {
        let translation = self.transform_point(other.translation);
        if self.matrix.is_some() || other.matrix.is_some() {
            return Pose::from_matrix(
                translation,
                self.rotation_matrix() * other.rotation_matrix(),
            );
        }
        Pose::new(translation, (self.rotation * other.rotation).normalize())
    }

    pub fn is_finite(&self) -> bool {
        self.rotation.is_finite()
            && self.translation.is_finite()
            && self.matrix.is_none_or(|m| m.is_finite())
    }
}

/// How far from orthonormal a rotation matrix written in f64 may be (the largest entry
/// of `R·Rᵀ − I`): a matrix printed to 17 digits is orthonormal to ~1e-16; one further
/// off is not the rotation its writer had.
pub const MATRIX_TOLERANCE: f64 = 1e-9;

/// How far from unit length a quaternion may be: one from an f32 engine (parry3d,
/// rapier), normalised in f32 and widened, is off by up to ~1e-7.
pub const QUATERNION_TOLERANCE: f64 = 1e-6;

/// A rotation matrix from its rows, kept as given, or why it is not a rotation (the
/// offending values named).
pub fn rigid_rotation(rows: [[f64; 3]; 3]) -> Result<DMat3, String> {
    rigid_rotation_within(rows, MATRIX_TOLERANCE)
}

/// [`rigid_rotation`] to another tolerance: an f32 matrix is orthonormal to ~1e-7 only.
/// A matrix orthonormal to f64 rounding is kept as given (Coal's bits); one orthonormal
/// only within `tolerance` becomes its nearest rotation ([`nearest_rotation`]).
pub fn rigid_rotation_within(rows: [[f64; 3]; 3], tolerance: f64) -> Result<DMat3, String> {
    let m = DMat3::from_cols_array_2d(&rows).transpose();
    if !m.is_finite() {
        return Err(format!("rotation {rows:?} is not finite"));
    }
    let off = (m * m.transpose() - DMat3::IDENTITY).abs().to_cols_array();
    let worst = off.iter().fold(0.0f64, |w, v| w.max(*v));
    let det = m.determinant();
    // NaN (an overflowed product) is not within the tolerance either.
    let orthonormal = worst <= tolerance;
    if orthonormal && det < 0.0 {
        return Err(format!(
            "rotation {rows:?} is a reflection (determinant {det:.6}), not a rotation: \
             a rigid pose turns, it does not mirror"
        ));
    }
    if !orthonormal || det <= 0.0 {
        return Err(format!(
            "rotation {rows:?} is not rigid: its rows are orthonormal only to {worst:.1e} \
             (at most {tolerance:.0e}), determinant {det:.6}"
        ));
    }
    if worst <= ORTHONORMAL_TO_ROUNDING {
        return Ok(m);
    }
    Ok(nearest_rotation(m))
}

/// How far from orthonormal (largest entry of `R Rᵀ − I`) a matrix written in f64 may
/// be and still be kept as given: Coal's and FCL's matrices are within 6 ulps (the
/// problem files), an f32 engine's within 1e-7 only.
pub const ORTHONORMAL_TO_ROUNDING: f64 = 1e-12;

/// The rotation nearest `m` (the orthogonal factor of its polar decomposition, by
/// Higham's Newton iteration `R ← (R + R⁻ᵀ) / 2`, "Computing the Polar Decomposition
/// with Applications"): the rotation a matrix orthonormal only to an f32's precision
/// stands for, as a quaternion stands for its normalisation. Turning points by `m`
/// itself would scale and shear them by its error (1e-7 of 1e3 is 1e-4), and the
/// certificate would be about a shape that is not the one given.
pub fn nearest_rotation(m: DMat3) -> DMat3 {
    let mut r = m;
    for _ in 0..8 {
        let next = 0.5 * (r + r.inverse().transpose());
        let change = (next - r)
            .abs()
            .to_cols_array()
            .iter()
            .fold(0.0f64, |w, v| w.max(*v));
        r = next;
        if change <= 4.0 * f64::EPSILON {
            break;
        }
    }
    r
}

/// How close to 1 a quaternion's squared length (summed in f64) must be for the
/// quaternion to count as normalised already: 8 units in the last place of 1.
/// Dividing such a quaternion by its length would change its rotation by less than the
/// rounding of turning one point with it.
pub const UNIT_TO_ROUNDING: f64 = 8.0 * f64::EPSILON;

/// The rotation a quaternion stands for, as this project uses it everywhere (scene
/// files, imports, relative poses, exports, Python): `q / |q|` in f64, each component
/// divided by the length (kept as given when its squared length is within
/// [`UNIT_TO_ROUNDING`] of 1, and divided again in the rare case one division leaves it
/// further). The result is then normalised already, so applying this again gives it
/// back to the bit: a scene saved and loaded keeps its rotation.
///
/// A quaternion from an f32 engine (parry3d, rapier) is unit only to ~1e-7; glam's
/// and parry's `q * v` on it scale `v` by `|q|²` besides turning it (4e-5 at a distance
/// of 1e3 for `|q| = 1 + 2e-8`), and `DMat3::from_quat` builds a matrix that is not a
/// rotation: neither is the rotation `q` stands for.
pub fn normalized_quaternion(q: DQuat) -> DQuat {
    let mut q = q;
    for _ in 0..4 {
        let squared = q.length_squared();
        if (squared - 1.0).abs() <= UNIT_TO_ROUNDING || !squared.is_finite() || squared == 0.0 {
            break;
        }
        let length = squared.sqrt();
        q = DQuat::from_xyzw(q.x / length, q.y / length, q.z / length, q.w / length);
    }
    q
}

/// A quaternion `(x, y, z, w)` that is a unit one to [`QUATERNION_TOLERANCE`], as the
/// rotation it stands for ([`normalized_quaternion`]), or why it is refused.
pub fn unit_quaternion(xyzw: [f64; 4]) -> Result<DQuat, String> {
    let q = DQuat::from_array(xyzw);
    if !q.is_finite() {
        return Err(format!("quaternion {xyzw:?} is not finite"));
    }
    let off = (q.length() - 1.0).abs();
    if off > QUATERNION_TOLERANCE {
        return Err(format!(
            "quaternion {xyzw:?} is not a unit quaternion: its length is {} \
             (within {QUATERNION_TOLERANCE:.0e} of 1 is taken)",
            q.length()
        ));
    }
    Ok(normalized_quaternion(q))
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
        if world_from_a.rotation == world_from_b.rotation
            && world_from_a.matrix == world_from_b.matrix
        {
            // One turn for both: none between them, exactly (Rᵀ R rounds to a hair off
            // the identity, and the containment of a body in its identical twin then
            // hung on that hair: `contact` where exact signs prove it inside).
            let translation = if world_from_a.matrix.is_some() {
                world_from_a.rotation_matrix().transpose()
                    * (world_from_b.translation - world_from_a.translation)
            } else {
                world_from_a.inverse().then_local(world_from_b).translation
            };
            return Self {
                rotation: DMat3::IDENTITY,
                translation,
            };
        }
        if world_from_a.matrix.is_some() || world_from_b.matrix.is_some() {
            // Coal's `MinkowskiDiff::set`: R = R_aᵀ R_b, t = R_aᵀ (t_b − t_a); with A at
            // the identity both are B's own, to the bit.
            let back = world_from_a.rotation_matrix().transpose();
            return Self {
                rotation: back * world_from_b.rotation_matrix(),
                translation: back * (world_from_b.translation - world_from_a.translation),
            };
        }
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

    /// A point of B's frame in A's frame, rounded as Coal's Eigen rounds `R p + t`: the
    /// first two rows are evaluated together as columns (`(r₀p₀ + r₁p₁) + r₂p₂`), the
    /// last alone as a row reduction, which Eigen splits in halves (`r₀p₀ + (r₁p₁ +
    /// r₂p₂)`). Where two support vertices tie to the last bit, this bit decides which
    /// one the next step takes, and so the iteration count.
    #[inline(always)]
    pub fn transform_point(&self, p_in_b: DVec3) -> DVec3 {
        let (r, p) = (&self.rotation, p_in_b);
        let columns = r.x_axis * p.x + r.y_axis * p.y + r.z_axis * p.z;
        let z = r.x_axis.z * p.x + (r.y_axis.z * p.y + r.z_axis.z * p.z);
        DVec3::new(columns.x, columns.y, z) + self.translation
    }

    /// `inner` (a frame placed in this pose's frame) seen from the frame this pose sits
    /// in: this pose after `inner`.
    pub fn then(&self, inner: &RelativePose) -> RelativePose {
        RelativePose::from_matrix(
            self.rotation * inner.rotation,
            self.transform_point(inner.translation),
        )
    }

    /// The inverse pose (`Rᵀ`, `−Rᵀ t`): A's pose in B's frame.
    pub fn inverse(&self) -> RelativePose {
        let r = self.rotation.transpose();
        RelativePose::from_matrix(r, -(r * self.translation))
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

    /// Rotations rounded to f32 (rows orthonormal to ~1e-7) become the rotation nearest
    /// them: orthonormal to f64 rounding, within the f32 rounding of the matrix given,
    /// and the same for a matrix given twice. Matrices orthonormal to f64 rounding are
    /// kept to the bit.
    fn largest(m: DMat3) -> f64 {
        m.abs()
            .to_cols_array()
            .iter()
            .fold(0.0f64, |w, v| w.max(*v))
    }

    #[test]
    fn f32_matrices_stand_for_their_nearest_rotation() {
        let mut rng = crate::rng::SplitMix64::new(0xf32);
        for _ in 0..500 {
            let exact = DMat3::from_quat(rng.rotation());
            let rows = exact.transpose().to_cols_array_2d();
            let f32_rows = rows.map(|r| r.map(|v| v as f32 as f64));
            let turned = rigid_rotation_within(f32_rows, QUATERNION_TOLERANCE).unwrap();
            let off = largest(turned * turned.transpose() - DMat3::IDENTITY);
            assert!(off <= 1e-15, "{off:e}");
            assert!(turned.determinant() > 0.0);
            let given = DMat3::from_cols_array_2d(&f32_rows).transpose();
            assert!(largest(turned - given) <= 3e-7);
            assert_eq!(
                rigid_rotation_within(f32_rows, QUATERNION_TOLERANCE).unwrap(),
                turned
            );
            // An f64 matrix is kept as given.
            let kept = rigid_rotation(rows).unwrap();
            assert_eq!(kept, DMat3::from_cols_array_2d(&rows).transpose());
        }
    }

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

    /// f32 quaternions widened (unit to ~1e-7) and f64 ones far off: normalised once,
    /// unit to rounding, and normalising again gives the same bits.
    #[test]
    fn quaternions_normalise_once_and_for_all() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for i in 0..20_000 {
            let q = rng.rotation();
            let q = match i % 3 {
                0 => DQuat::from_xyzw(
                    f64::from(q.x as f32),
                    f64::from(q.y as f32),
                    f64::from(q.z as f32),
                    f64::from(q.w as f32),
                ),
                1 => q * (1.0 + 1e-7 * rng.normal()),
                _ => q,
            };
            let n = normalized_quaternion(q);
            assert!((n.length_squared() - 1.0).abs() <= UNIT_TO_ROUNDING, "{q}");
            assert_eq!(normalized_quaternion(n), n, "{q}");
            assert!((n - q.normalize()).length() <= 4.0 * f64::EPSILON, "{q}");
        }
        // Already unit to rounding: kept to the bit.
        let q = DQuat::from_axis_angle(DVec3::new(0.3, 0.5, 0.8).normalize(), 1.1);
        assert_eq!(normalized_quaternion(q), q);
    }

    #[test]
    fn euler_degrees_round_trip() {
        let deg = DVec3::new(12.0, -33.0, 71.0);
        let p = Pose::from_euler_degrees(DVec3::ZERO, deg);
        assert!((p.euler_degrees() - deg).length() < 1e-9);
    }
}

/// B's motion over t ∈ [0, 1], in A's frame: a translation by `t·velocity` and a turn
/// by the angle `t·|spin|` about `spin` through B's origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Motion {
    pub velocity: DVec3,
    pub spin: DVec3,
}

impl Motion {
    /// B's pose at time `t`, from `start` (turned about B's own origin).
    pub fn pose_at(&self, start: RelativePose, t: f64) -> RelativePose {
        RelativePose {
            translation: start.translation + self.velocity * t,
            rotation: turned(start.rotation, self.spin, t),
        }
    }
}

impl From<DVec3> for Motion {
    fn from(velocity: DVec3) -> Self {
        Self {
            velocity,
            spin: DVec3::ZERO,
        }
    }
}

/// B's rotation after turning for time `t` by `spin` (A's frame), from `start`.
pub fn turned(start: DMat3, spin: DVec3, t: f64) -> DMat3 {
    let angle = spin.length() * t;
    if angle == 0.0 {
        return start;
    }
    DMat3::from_axis_angle(spin / spin.length(), angle) * start
}
