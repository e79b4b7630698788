//! Robot self-collision from URDF (Coulombe, "High Precision Real Time Collision
//! Detection"): the loader (`model.rs`; its meshes read by [`crate::mesh`]), forward
//! kinematics, the SRDF's disabled pairs, and the all-pairs check with any GJK-family method.

pub mod acm;
pub mod check;
pub mod compare;
pub mod kinematics;
pub mod model;
pub mod order;
pub mod path;
pub mod scene;
pub mod srdf;
pub mod visual;

pub use acm::{compute_acm, srdf_text, AcmRule};
pub use check::{
    checked_pairs, parry_check, parry_check_as, ConfigAnswer, NearestPair, PairAnswer,
    SelfCollision, WARM_START_BLOCK,
};
pub use compare::{HullMeshComparison, VerdictChange};
pub use model::{CollisionMode, JointKind, LinkComposite, LinkShape, RobotJoint, RobotModel};
pub use srdf::{disabled_pairs_for, read_disabled_pairs, DisabledPair};
