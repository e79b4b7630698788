//! Solver settings shared by the GJK family and Frank-Wolfe (docs/algorithms.md,
//! "GJK: the same iterations as Coal" and "Accelerated GJK: Nesterov, normalised,
//! restart").

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::simplex::TetrahedronRule;

/// Which stopping quantity is tested (van den Bergen's `r − α`, the duality gap of
/// Montaut et al., "Collision Detection Accelerated: An Optimization Perspective", or
/// their hybrid). All three are recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Criterion {
    /// `r − α`: the gap between the iterate's norm and the best lower bound.
    #[default]
    VanDenBergen,
    /// `2⟨x, x − s⟩`: bounds `‖x − x*‖²`.
    DualityGap,
    /// `r² − α²`.
    Hybrid,
}

/// Whether the tolerance is compared with the quantity as is or scaled by the iterate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CriterionKind {
    #[default]
    Absolute,
    Relative,
}

/// Where the first direction comes from. Only a direction: it need not lie in `A ⊖ B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum InitialGuess {
    /// `c_A − c_B` in A's frame (bounding-box centres; our default).
    #[default]
    CentreDifference,
    /// `t_A − t_B`: the difference of the shapes' origins (the problem files' guess).
    OriginDifference,
    /// `(1, 0, 0)`: Coal's own default.
    UnitX,
    /// A given vector in A's frame.
    Direction(DVec3),
}

/// Distance query, or Boolean (collision-only) query with a separating-plane early stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum QueryMode {
    #[default]
    Distance,
    /// Stop as soon as a plane proves the distance exceeds `bound` (0: plain Boolean).
    Boolean { bound: f64 },
}

/// Whose support conventions the distance solvers follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SupportRule {
    /// The exact support of each shape, on the whole shape.
    #[default]
    Exact,
    /// Coal 3's, so that a query brought from Coal replays Coal's iterations
    /// ([`crate::shape::CoalPrimitive`]): spheres, capsules and dilated shapes enter as
    /// their cores with the radii added after the run (Coal's swept-sphere radius);
    /// direction components within 1e-12 of zero count as zero, ties are inflated by
    /// 1e-10. Verdicts stay certified: a run whose supports departed from the exact
    /// ones takes its verdict from an exact run.
    Coal,
}

/// EPA's own settings (GJK's come from the query).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EpaSettings {
    /// Stop when the support along the nearest face's normal gains at most
    /// `tolerance · (1 + ‖support‖)` over the face.
    pub tolerance: f64,
    pub max_iterations: usize,
    /// At the expansion cap, a depth bracket within `acceptable · max(1, depth)` is still
    /// an answer: on curved shapes the polytope closes in on a rim or a flank slowly
    /// (a cone against a hull: 1e-5 after 256 expansions), and the problem files ask for
    /// 1e-6.
    pub acceptable: f64,
    /// Spheres and boxes against boxes in closed form (the box's faces, the separating
    /// axes), as parry answers them; `false` runs EPA on them so that its expansions
    /// can be watched.
    pub closed_forms: bool,
}

impl Default for EpaSettings {
    fn default() -> Self {
        Self {
            tolerance: 1e-10,
            max_iterations: 256,
            acceptable: 1e-6,
            closed_forms: true,
        }
    }
}

/// Tolerances of a time-of-impact query.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ToiSettings {
    /// Shapes this close count as touching: a fraction of the scene's size (the shapes'
    /// bounding-box diagonals and the motion's length).
    pub contact_tolerance: f64,
    /// The bracketing methods stop when the first contact's bracket is this narrow.
    pub time_tolerance: f64,
    pub max_iterations: usize,
    /// Two spheres and two boxes in closed form (a quadratic, the separating axes
    /// swept), as parry answers them; `false` runs the method chosen on them so that its
    /// steps can be watched.
    pub closed_forms: bool,
}

impl Default for ToiSettings {
    fn default() -> Self {
        Self {
            contact_tolerance: 1e-9,
            time_tolerance: 1e-10,
            max_iterations: 200,
            closed_forms: true,
        }
    }
}

/// The interior point's own settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IpSettings {
    /// The bracket `upper − lower` on the distance between the smoothed bodies must be
    /// at most `tolerance · max(1, distance)` (the scene's units), and the certified one
    /// on the true bodies ten times that.
    pub tolerance: f64,
    /// When round-off stops the bracket from narrowing (no progress in
    /// a few steps), a bracket within `acceptable · max(1, d)` is still an
    /// answer (the problem files' accuracy); a wider one ends the run at once.
    pub acceptable: f64,
    pub max_iterations: usize,
}

impl Default for IpSettings {
    fn default() -> Self {
        Self {
            tolerance: 1e-8,
            acceptable: 1e-6,
            max_iterations: 200,
        }
    }
}

/// The leaving row among rows tied for the minimum ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TieRule {
    /// The largest pivot element (then the smallest basic index): the safeguard against
    /// tiny pivots. It is not Bland's leaving rule, so it can cycle on degenerate
    /// vertices; when a basis repeats without the objective falling, the run switches to
    /// plain Bland for good (cycle-free in exact arithmetic).
    #[default]
    LargestPivot,
    /// Plain Bland: the smallest basic index, however small its pivot element.
    SmallestIndex,
    /// Kreuzer's C# code as written: any positive element is admissible, reduced costs
    /// and ratios compare with an absolute ε = 1e-4, ties go to the smallest basic
    /// index. Kept to show what the safeguard fixes: on badly scaled inputs a row whose
    /// ratio is up to ε above the minimum can be chosen, a right-hand side turns
    /// negative, and Bland's guarantee is gone (it cycles: see the tests).
    #[serde(alias = "SeedAsWritten")]
    KreuzerAsWritten,
}

/// The LP test's own settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LpSettings {
    /// Which row leaves among those tied for the minimum ratio.
    pub pivot_rule: TieRule,
    /// At most this many pivots; `None`: Kreuzer's cap, columns × rows.
    pub max_pivots: Option<usize>,
}

/// Everything a solver needs besides the shapes, and the one settings type every file
/// holds: a scene's `settings: Settings(...)` (RON), a problem file's settings (JSON),
/// the Python package's. Every field is optional when read (a file names only what it
/// changes; the rest are Coal's defaults, [`SolverSettings::default`]); written, the
/// settings after `tetrahedron` are left out at their defaults, so a file keeps the
/// form it had before they existed. A new setting is a field here.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Settings", default, deny_unknown_fields)]
pub struct SolverSettings {
    pub tolerance: f64,
    pub criterion: Criterion,
    pub kind: CriterionKind,
    pub max_iterations: usize,
    pub initial_guess: InitialGuess,
    pub mode: QueryMode,
    /// How a four-vertex simplex is projected: `RegionTree` (Coal's, the default) or
    /// `NearestFace`.
    pub tetrahedron: TetrahedronRule,
    /// `Exact` (the default) or `Coal`: Coal's support conventions, so that a query
    /// brought from Coal replays Coal's iterations.
    #[serde(skip_serializing_if = "left_out")]
    pub supports: SupportRule,
    /// When the iterate comes within the tolerance of the origin, try to prove the
    /// overlap (supports along fixed directions, an exact enclosure test) before
    /// answering `contact` (default). A caller to whom contact and overlap are one answer
    /// (a robot check's "colliding") turns it off: on touching links the proof costs
    /// several microseconds and can only fail.
    #[serde(skip_serializing_if = "left_out_when_on")]
    pub overlap_proof: bool,
    /// The other families' own settings (the distance settings above are GJK's and
    /// Frank-Wolfe's; EPA's GJK stage keeps its certified overlap test), each field
    /// optional: a scene names only what it changes (`epa: (tolerance: 1e-12)`).
    #[serde(skip_serializing_if = "left_out")]
    pub epa: EpaSettings,
    #[serde(skip_serializing_if = "left_out")]
    pub toi: ToiSettings,
    #[serde(skip_serializing_if = "left_out")]
    pub interior_point: IpSettings,
    #[serde(skip_serializing_if = "left_out")]
    pub lp: LpSettings,
    #[serde(skip_serializing_if = "left_out")]
    pub contact: ContactSettings,
}

thread_local! {
    /// Set while [`every_setting`] writes the settings: then no field is left out.
    static EVERY_SETTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a setting is at its default, and so left out of a written file.
fn left_out<T: Default + PartialEq>(value: &T) -> bool {
    !EVERY_SETTING.get() && *value == T::default()
}

/// Whether a setting that is on unless a file turns it off is on (and so left out).
fn left_out_when_on(value: &bool) -> bool {
    !EVERY_SETTING.get() && *value
}

/// Every setting by name, defaults included (what a dotted name is looked up in).
fn every_setting(settings: &SolverSettings) -> serde_json::Value {
    EVERY_SETTING.set(true);
    let all = serde_json::to_value(settings);
    EVERY_SETTING.set(false);
    all.unwrap_or_default()
}

/// The settings' dotted names, for an error message.
fn known_settings_hint() -> String {
    let serde_json::Value::Object(all) = every_setting(&SolverSettings::default()) else {
        return String::new();
    };
    let mut names = Vec::new();
    for (name, value) in all {
        match value {
            serde_json::Value::Object(fields) => {
                names.extend(fields.keys().map(|f| format!("{name}.{f}")));
            }
            _ => names.push(name),
        }
    }
    format!(" (known: {})", names.join(", "))
}

/// The largest iteration cap a scene, problem file or the command line may ask for:
/// Frank-Wolfe's line search on curved shapes takes a new support every step, so a
/// million steps are seconds and a megabyte-scale active set; 2³² would never end.
pub const MAX_ITERATION_CAP: usize = 1_000_000;

/// What a contact manifold is built with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContactSettings {
    /// Points up to this far apart (in front of the reference face) are contacts, and
    /// shapes apart by up to this get a manifold (Jolt's `mMaxContactDistance`).
    pub margin: f64,
    /// A support set holds the points within this fraction of the pair's size of the
    /// support plane: a face tilted by less than about this angle (radians) is still a
    /// face.
    pub feature_band: f64,
    /// The most points a manifold keeps.
    pub max_points: usize,
    /// How many points a curved boundary (a cylinder's cap) is sampled at by the
    /// clipping rule: 8 by default, as Jolt's cylinder hands its cap to the clipping
    /// (`cCylinderTopFace` in Jolt's `Physics/Collision/Shape/CylinderShape.cpp`: eight
    /// points every 45°). Coal's patch samples its own way.
    pub curve_samples: usize,
    /// A point is certified when it lies within this fraction of the pair's size of
    /// both shapes and its depth within it of the certified depth.
    pub tolerance: f64,
}

impl Default for ContactSettings {
    fn default() -> Self {
        Self {
            margin: 1e-3,
            feature_band: 1e-3,
            max_points: 4,
            curve_samples: 8,
            tolerance: 1e-9,
        }
    }
}

impl Default for SolverSettings {
    /// Coal's defaults: tolerance 1e-6, 128 iterations.
    fn default() -> Self {
        Self {
            tolerance: 1e-6,
            criterion: Criterion::VanDenBergen,
            kind: CriterionKind::Absolute,
            max_iterations: 128,
            initial_guess: InitialGuess::CentreDifference,
            mode: QueryMode::Distance,
            tetrahedron: TetrahedronRule::RegionTree,
            supports: SupportRule::Exact,
            overlap_proof: true,
            epa: EpaSettings::default(),
            toi: ToiSettings::default(),
            interior_point: IpSettings::default(),
            lp: LpSettings::default(),
            contact: ContactSettings::default(),
        }
    }
}

impl SolverSettings {
    /// The paper's benchmark setting: ε = 1e-8, duality gap absolute, 1000 iterations.
    pub fn benchmark() -> Self {
        Self {
            tolerance: 1e-8,
            criterion: Criterion::DualityGap,
            kind: CriterionKind::Absolute,
            max_iterations: 1000,
            initial_guess: InitialGuess::CentreDifference,
            mode: QueryMode::Distance,
            tetrahedron: TetrahedronRule::RegionTree,
            supports: SupportRule::Exact,
            overlap_proof: true,
            epa: EpaSettings::default(),
            toi: ToiSettings::default(),
            interior_point: IpSettings::default(),
            lp: LpSettings::default(),
            contact: ContactSettings::default(),
        }
    }

    /// The settings with one of them set by its dotted name, as the command line's
    /// `--set epa.tolerance=1e-12` says it: `value` is read as JSON (a number, `true`,
    /// `null`) or else as a name (`DualityGap`, `SmallestIndex`). Refuses an unknown name
    /// or a value of the wrong kind, saying which, and checks the result.
    pub fn with_assignment(&self, assignment: &str) -> Result<Self, String> {
        let (key, value) = assignment.split_once('=').ok_or_else(|| {
            format!("'{assignment}': expected NAME=VALUE (e.g. epa.tolerance=1e-12)")
        })?;
        let (key, value) = (key.trim(), value.trim());
        let parsed: serde_json::Value = serde_json::from_str(value)
            .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
        let mut all = every_setting(self);
        let mut slot = &mut all;
        for part in key.split('.') {
            slot = slot
                .as_object_mut()
                .and_then(|fields| fields.get_mut(part))
                .ok_or_else(|| format!("'{key}': no such setting{}", known_settings_hint()))?;
        }
        *slot = parsed;
        let settings: SolverSettings =
            serde_json::from_value(all).map_err(|e| format!("'{key}' = '{value}': {e}"))?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks the numbers a user can type in; returns what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(format!(
                "tolerance must be finite and > 0, got {}",
                self.tolerance
            ));
        }
        if self.max_iterations == 0 {
            return Err("max_iterations must be at least 1".to_string());
        }
        if self.max_iterations > MAX_ITERATION_CAP {
            return Err(format!(
                "max_iterations must be at most {MAX_ITERATION_CAP} (a run that long takes \
                 minutes and keeps every support it took), got {}",
                self.max_iterations
            ));
        }
        if let InitialGuess::Direction(d) = self.initial_guess {
            if !d.is_finite() {
                return Err(format!("initial guess direction must be finite, got {d}"));
            }
        }
        if let QueryMode::Boolean { bound } = self.mode {
            if !bound.is_finite() {
                return Err(format!(
                    "Boolean distance bound must be finite, got {bound}"
                ));
            }
        }
        let tolerances = [
            ("epa.tolerance", self.epa.tolerance),
            ("epa.acceptable", self.epa.acceptable),
            ("toi.contact_tolerance", self.toi.contact_tolerance),
            ("toi.time_tolerance", self.toi.time_tolerance),
            ("interior_point.tolerance", self.interior_point.tolerance),
            ("interior_point.acceptable", self.interior_point.acceptable),
        ];
        for (name, value) in tolerances {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("{name} must be finite and > 0, got {value}"));
            }
        }
        let caps = [
            ("epa.max_iterations", self.epa.max_iterations),
            ("toi.max_iterations", self.toi.max_iterations),
            (
                "interior_point.max_iterations",
                self.interior_point.max_iterations,
            ),
            ("lp.max_pivots", self.lp.max_pivots.unwrap_or(1)),
        ];
        for (name, value) in caps {
            if !(1..=MAX_ITERATION_CAP).contains(&value) {
                return Err(format!(
                    "{name} must be between 1 and {MAX_ITERATION_CAP}, got {value}"
                ));
            }
        }
        Ok(())
    }
}
