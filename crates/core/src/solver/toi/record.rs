//! What one step of a time-of-impact method records: the time it probed or reached,
//! the bracket that still holds the first contact, the distance it measured, and for
//! the ray cast its point on the ray and simplex in `A ⊖ B`.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::solver::record::{PlotValues, Record};

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToiEvent {
    /// The distance at t = 0 (already touching gives t = 0).
    Start,
    /// GJK on B swept over the whole motion: do they touch at any time, and how close
    /// do they come.
    SweptTest,
    /// Interval halving: the swept test over the bracket's first half.
    Halve,
    /// Brent: a probe by bisection, secant or inverse quadratic interpolation.
    Bisection,
    Secant,
    InverseQuadratic,
    /// Conservative advancement: the distance and the step it allows.
    Advance,
    /// Ray cast: the support's plane moved the ray's point on (λ grew).
    RayAdvance,
    /// Ray cast: the support joined the simplex around the ray's point.
    RayProject,
    /// The contact is found (within the tolerances).
    Contact,
    /// No contact in t ∈ [0, 1].
    NoContact,
    /// The pair's closed form (two spheres, two boxes) gave the answer: the first
    /// contact's time, or the closest approach when there is none.
    ClosedForm,
}

impl ToiEvent {
    pub fn name(&self) -> &'static str {
        match self {
            ToiEvent::Start => "start",
            ToiEvent::SweptTest => "swept_test",
            ToiEvent::Halve => "halve",
            ToiEvent::Bisection => "bisection",
            ToiEvent::Secant => "secant",
            ToiEvent::InverseQuadratic => "inverse_quadratic",
            ToiEvent::Advance => "advance",
            ToiEvent::RayAdvance => "ray_advance",
            ToiEvent::RayProject => "ray_project",
            ToiEvent::Contact => "contact",
            ToiEvent::NoContact => "no_contact",
            ToiEvent::ClosedForm => "closed_form",
        }
    }
}

/// The ray cast's state after a step, in `A ⊖ B` at t = 0 (A's frame).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayState {
    /// The ray's point `λ·v`.
    pub point: DVec3,
    /// From the simplex's nearest point to the ray's point (its length: the distance).
    pub gap: DVec3,
    /// The simplex's points of `A ⊖ B`.
    pub simplex: Vec<DVec3>,
    /// The support point of this step.
    pub support: DVec3,
}

/// One step of a time-of-impact method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToiRecord {
    pub k: usize,
    pub event: ToiEvent,
    /// The time this step probed (or, for the ray cast and advancement, reached).
    pub time: f64,
    /// What is known of the first contact's time after this step: it lies in
    /// `[lower, upper]` (upper = +∞ while no contact is known).
    pub lower: f64,
    pub upper: f64,
    /// The distance measured at `time` (signed for Brent: negative inside), or for the
    /// swept test the closest approach over the swept interval. NaN when none.
    pub distance: f64,
    pub ray: Option<RayState>,
    pub support_calls: u64,
}

/// The CSV header of the time-of-impact rows.
pub const TOI_CSV_HEADER: &str = "algorithm,k,event,time,lower,upper,distance,support_calls";

impl Record for ToiRecord {
    fn k(&self) -> usize {
        self.k
    }

    fn event_name(&self) -> &'static str {
        self.event.name()
    }

    fn plot_values(&self) -> PlotValues {
        PlotValues {
            upper: self.upper,
            lower: self.lower,
            residual: self.upper - self.lower,
        }
    }

    fn support_calls(&self) -> u64 {
        self.support_calls
    }

    fn csv_fields(&self) -> String {
        format!(
            "{:e},{:e},{:e},{:e},{}",
            self.time, self.lower, self.upper, self.distance, self.support_calls
        )
    }
}
