//! The solvers and what they share. One folder per method family: GJK with its
//! accelerated directions ([`gjk`]), Frank-Wolfe ([`frank_wolfe`]), EPA ([`epa`]), time of
//! impact ([`toi`]), the LP collision test ([`lp`]) and the interior point
//! ([`interior_point`]). Each runs a query to its end through the family contract
//! ([`family`]) and, when the caller passes a buffer, writes one record of its own type
//! per step ([`record`]); [`trace`] holds one run's records whatever its family, and
//! [`narration`] gives each step its sentence. Every method is a row of the catalog
//! ([`catalog`], [`Method`]), the one way the CLI, scenes, viewer and benchmarks run it.
//!
//! Here too: the simplex projection GJK and Frank-Wolfe share, the settings, and how a
//! run ends ([`Outcome`]). What the two distance families share (their step record,
//! stopping criteria, why a run was slow, runs under Coal's conventions, and the
//! distance algorithms by value, [`Algorithm`] and [`solve`]) has its own home,
//! [`distance`].

pub mod catalog;
pub mod contact;
pub mod distance;
pub mod epa;
pub mod family;
pub mod frank_wolfe;
pub mod gjk;
pub mod interior_point;
pub mod lp;
mod method;
pub mod narration;
mod outcome;
pub mod record;
pub mod registry;
mod settings;
mod simplex;
pub mod toi;
pub mod trace;

pub use distance::{solve, solve_traced, Algorithm};
pub use family::RunExtras;
pub use frank_wolfe::{FrankWolfe, FrankWolfeEvent, FrankWolfeRecord, StepRule};
pub use gjk::{restart_plan, run_gjk, DirectionRule, Gjk, GjkEvent, GjkRecord, MomentumStop};
pub use method::{below_size_floor, beyond_size_cap, offset_beyond_cap, Method, Run};
pub use outcome::{Outcome, RunSummary};
pub use settings::{
    Criterion, CriterionKind, EpaSettings, InitialGuess, IpSettings, LpSettings, QueryMode,
    SolverSettings, SupportRule, TieRule, ToiSettings, MAX_ITERATION_CAP,
};
pub use simplex::{
    barycentric, nearest_in_simplex, points_enclose_origin, project_origin,
    project_origin_in_place, Projection, Simplex, SimplexVertex, TetrahedronRule,
};
