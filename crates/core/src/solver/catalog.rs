//! The one table of methods: for each, the family entry it runs (a direction rule, a
//! time-of-impact rule, an LP question, ...: the entry names its family, which decides
//! the record type, the drawing and the narration), its name on the command line and in
//! files, its label in panels and legends, its colour in plots, the shapes it takes and
//! the settings it reads. Everything that lists methods reads it; a new family's
//! methods are new rows.

use super::contact::ContactRule;
use super::epa::Penetration;
pub use super::family::Family;
use super::interior_point::IpQuestion;
use super::lp::{LpQuestion, Simplex};
use super::registry::MethodEntry;
use super::toi::ToiRule;
use super::{Algorithm, DirectionRule, Method, StepRule};
use crate::shape::implicit::ImplicitBody;
use crate::shape::Shape;

/// Which shapes a method takes; any other pair gets an honest `not_applicable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeRequirement {
    /// Any shape with a support function in closed form (all kinds but implicit bodies).
    SupportMap,
    /// Polytopes given by their points (the LP test).
    Polytopes,
    /// Bodies with an implicit form and a volume (the interior point): every kind but
    /// points, flat polytopes and rounded (dilated) shapes.
    Implicit,
}

impl ShapeRequirement {
    /// `Err(why)` when `a` or `b` is not a shape the method takes.
    pub fn check(&self, a: &Shape, b: &Shape) -> Result<(), String> {
        match self {
            ShapeRequirement::SupportMap => {
                for (name, s) in [("A", a), ("B", b)] {
                    if let Shape::Implicit(i) = s {
                        return Err(format!(
                            "shape {name} is an implicit body ({}) with no support function in closed form",
                            i.what()
                        ));
                    }
                }
                Ok(())
            }
            ShapeRequirement::Implicit => {
                for (name, s) in [("A", a), ("B", b)] {
                    if let Err(why) = ImplicitBody::of_shape(s) {
                        return Err(format!("shape {name}: {why}"));
                    }
                }
                Ok(())
            }
            ShapeRequirement::Polytopes => {
                for (name, s) in [("A", a), ("B", b)] {
                    if s.vertex_points().is_none() {
                        let kind = s.kind_name();
                        let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                            "an"
                        } else {
                            "a"
                        };
                        return Err(format!(
                            "shape {name} is {article} {kind}, not a polytope given by its points"
                        ));
                    }
                }
                Ok(())
            }
        }
    }
}

/// Which settings a method reads (all of them fields of [`super::SolverSettings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsKind {
    /// The distance solvers' (tolerance, criterion, cap, initial guess, supports).
    Distance,
    /// EPA's own (`epa`: gain tolerance, expansion cap); its GJK stage keeps a
    /// certified overlap test (relative duality gap 1e-9).
    Depth,
    /// B's velocity (from the scene or problem) and `toi`: the contact tolerance, the
    /// time tolerance, the step cap.
    Motion,
    /// `interior_point`: the certified bracket's tolerance, the acceptable bracket when
    /// round-off stalls, the Newton cap.
    Barrier,
    /// `lp`: the pivot rule and the pivot cap (default: Kreuzer's columns × rows).
    Simplex,
    /// `contact`: the margin, the feature band, the most points kept, the samples of a
    /// curved boundary, the certificate's tolerance.
    Contact,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct MethodInfo {
    /// What the method runs: a value of its family's variant type.
    pub entry: &'static dyn MethodEntry,
    pub name: &'static str,
    pub label: &'static str,
    /// sRGB, distinct across the table (matplotlib's tab10 order, then more).
    pub colour: [u8; 3],
    pub shapes: ShapeRequirement,
    pub settings: SettingsKind,
}

impl MethodInfo {
    pub fn family(&self) -> Family {
        self.entry.family()
    }
}

const fn gjk(
    entry: &'static Algorithm,
    name: &'static str,
    label: &'static str,
    colour: [u8; 3],
) -> MethodInfo {
    MethodInfo {
        entry,
        name,
        label,
        colour,
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Distance,
    }
}

const fn fw(
    entry: &'static Algorithm,
    name: &'static str,
    label: &'static str,
    colour: [u8; 3],
) -> MethodInfo {
    MethodInfo {
        entry,
        name,
        label,
        colour,
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Distance,
    }
}

const fn toi(
    entry: &'static ToiRule,
    name: &'static str,
    label: &'static str,
    colour: [u8; 3],
) -> MethodInfo {
    MethodInfo {
        entry,
        name,
        label,
        colour,
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Motion,
    }
}

/// Every method, in the order panels and help texts list them.
pub const CATALOG: [MethodInfo; 22] = [
    gjk(
        &Algorithm::Gjk(DirectionRule::Vanilla),
        "gjk",
        "GJK",
        [31, 119, 180],
    ),
    gjk(
        &Algorithm::Gjk(DirectionRule::Nesterov),
        "nesterov",
        "Nesterov",
        [214, 39, 40],
    ),
    gjk(
        &Algorithm::Gjk(DirectionRule::NesterovNormalized),
        "nesterov_normalized",
        "Nesterov + normalisation",
        [148, 103, 189],
    ),
    gjk(
        &Algorithm::Gjk(DirectionRule::Polyak),
        "polyak",
        "Polyak",
        [44, 160, 44],
    ),
    gjk(
        &Algorithm::Gjk(DirectionRule::NesterovRestart),
        "nesterov_restart",
        "Nesterov + restart",
        [120, 200, 60],
    ),
    fw(
        &Algorithm::FrankWolfe(StepRule::Fixed),
        "fw_fixed",
        "FW, step 2/(k+2)",
        [140, 86, 75],
    ),
    fw(
        &Algorithm::FrankWolfe(StepRule::LineSearch),
        "fw_linesearch",
        "FW, line search",
        [255, 127, 14],
    ),
    fw(
        &Algorithm::FrankWolfe(StepRule::AwayStep),
        "fw_away",
        "FW, away steps",
        [227, 119, 194],
    ),
    fw(
        &Algorithm::FrankWolfe(StepRule::FullyCorrective),
        "fw_fully_corrective",
        "FW, fully corrective",
        [23, 190, 207],
    ),
    MethodInfo {
        entry: &Penetration,
        name: "epa",
        label: "EPA (penetration depth)",
        colour: [188, 189, 34],
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Depth,
    },
    MethodInfo {
        entry: &ContactRule::Clipping,
        name: "contact",
        label: "Contact manifold (clipping, Jolt's rule)",
        colour: [200, 80, 150],
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Contact,
    },
    MethodInfo {
        entry: &ContactRule::CoalPatch,
        name: "contact_coal",
        label: "Contact patch (Coal 3.0's computePatch)",
        colour: [140, 60, 200],
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Contact,
    },
    MethodInfo {
        entry: &ContactRule::Parry,
        name: "contact_parry",
        label: "Contact manifold (parry's contact_manifolds)",
        colour: [230, 140, 40],
        shapes: ShapeRequirement::SupportMap,
        settings: SettingsKind::Contact,
    },
    // `toi` is the ray cast: exact for translation and the fewest support calls.
    toi(
        &ToiRule::RayCast,
        "toi",
        "TOI: GJK ray cast",
        [127, 127, 127],
    ),
    toi(
        &ToiRule::Advancement,
        "toi_advancement",
        "TOI: conservative advancement",
        [0, 128, 128],
    ),
    toi(
        &ToiRule::Halving,
        "toi_halving",
        "TOI: interval halving",
        [128, 0, 64],
    ),
    toi(&ToiRule::Brent, "toi_brent", "TOI: Brent", [96, 96, 0]),
    MethodInfo {
        entry: &LpQuestion::Collision(Simplex::Tableau),
        name: "lp",
        label: "LP: collision test",
        colour: [82, 84, 163],
        shapes: ShapeRequirement::Polytopes,
        settings: SettingsKind::Simplex,
    },
    MethodInfo {
        entry: &LpQuestion::Collision(Simplex::Revised),
        name: "lp_revised",
        label: "LP: collision test (revised simplex)",
        colour: [231, 150, 156],
        shapes: ShapeRequirement::Polytopes,
        settings: SettingsKind::Simplex,
    },
    MethodInfo {
        entry: &LpQuestion::Containment,
        name: "lp_containment",
        label: "LP: A inside B?",
        colour: [140, 109, 49],
        shapes: ShapeRequirement::Polytopes,
        settings: SettingsKind::Simplex,
    },
    MethodInfo {
        entry: &IpQuestion::Distance,
        name: "interior_point",
        label: "Interior point (implicit shapes)",
        colour: [0, 84, 147],
        shapes: ShapeRequirement::Implicit,
        settings: SettingsKind::Barrier,
    },
    MethodInfo {
        entry: &IpQuestion::TimeOfImpact,
        name: "interior_point_toi",
        label: "Interior point: time of impact",
        colour: [86, 180, 233],
        shapes: ShapeRequirement::Implicit,
        settings: SettingsKind::Motion,
    },
];

/// The table's row for `method` (every method is one).
pub fn info(method: Method) -> &'static MethodInfo {
    &CATALOG[method.row()]
}

/// The row whose entry is `entry` (every variant of every family has one; the tests
/// hold the table to it).
pub fn row_of(entry: &dyn MethodEntry) -> Option<usize> {
    CATALOG.iter().position(|row| row.entry.same(entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_one_row_with_a_distinct_name_and_colour() {
        for (i, row) in CATALOG.iter().enumerate() {
            assert_eq!(row_of(row.entry), Some(i), "{}", row.name);
            assert_eq!(Method::all()[i].name(), row.name);
        }
        for a in Algorithm::ALL {
            assert_eq!(Method::from(a).entry::<Algorithm>(), Some(a));
        }
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.colour, b.colour);
            }
        }
    }

    #[test]
    fn shape_requirements_say_which_shape_does_not_fit() {
        use crate::shape::{Polytope, Sphere};
        let ball = Shape::Sphere(Sphere::new(1.0).unwrap());
        let points = [
            glam::DVec3::ZERO,
            glam::DVec3::X,
            glam::DVec3::Y,
            glam::DVec3::Z,
        ];
        let tet = Shape::Polytope(Polytope::from_points(&points).unwrap());
        let cube = Shape::Cuboid(crate::shape::Cuboid::new(glam::DVec3::ONE).unwrap());
        assert!(ShapeRequirement::Polytopes.check(&cube, &tet).is_ok());
        assert!(ShapeRequirement::SupportMap.check(&ball, &tet).is_ok());
        assert!(ShapeRequirement::Polytopes.check(&tet, &tet).is_ok());
        let why = ShapeRequirement::Polytopes.check(&tet, &ball).unwrap_err();
        assert!(why.contains("shape B is a sphere"), "{why}");
    }
}
