//! The benchmark protocol of docs/algorithms.md, "Accelerated GJK: Nesterov, normalised,
//! restart" (Montaut et al., "Collision Detection
//! Accelerated: An Optimization Perspective" §IV): random shape pairs, B at a random
//! rotation, then translated so that the signed distance takes each value of [`SIGNED_DISTANCES`].

use std::ops::Range;
use std::path::{Path, PathBuf};

use glam::{DMat3, DVec3};

use crate::mesh::load_obj;
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::rng::SplitMix64;
use crate::shape::{
    AffineDimension, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Polytope, Shape, Sphere,
};
use crate::solver::{solve, Algorithm, Criterion, Outcome, SolverSettings};

/// The paper's signed distances (negative: overlap).
pub const SIGNED_DISTANCES: [f64; 12] = [
    -1e-1, -1e-2, -1e-3, -1e-4, 1e-4, 1e-3, 1e-2, 1e-1, 0.5, 1.0, 2.5, 5.0,
];

/// One query: shapes `a` and `b` of a [`ProblemSet`], B placed by `b_in_a`.
#[derive(Clone, Debug)]
pub struct BenchProblem {
    pub a: usize,
    pub b: usize,
    pub b_in_a: RelativePose,
    pub target_distance: f64,
}

/// Shapes and the problems posed on them.
#[derive(Clone, Debug, Default)]
pub struct ProblemSet {
    pub shapes: Vec<Shape>,
    pub names: Vec<String>,
    pub problems: Vec<BenchProblem>,
}

/// An ellipsoid with radii ~ N(0.1, 0.025²) (at least 0.02), scaled by 1, 5 or 10.
pub fn random_ellipsoid(rng: &mut SplitMix64) -> Shape {
    let scale = [1.0, 5.0, 10.0][rng.index(3)];
    let mut radius = || (0.1 + 0.025 * rng.normal()).max(0.02) * scale;
    let radii = DVec3::new(radius(), radius(), radius());
    Shape::Ellipsoid(Ellipsoid::new(radii).expect("positive radii"))
}

/// The closest point `x*` of `A ⊖ B`, or `None` when the shapes intersect.
fn optimum(a: &Shape, b: &Shape, b_in_a: RelativePose) -> Option<DVec3> {
    let settings = SolverSettings {
        tolerance: 1e-14,
        criterion: Criterion::DualityGap,
        max_iterations: 10_000,
        ..SolverSettings::default()
    };
    let run = solve(
        Algorithm::GJK,
        MinkowskiDifference::new(a, b, b_in_a),
        settings,
    );
    match (run.outcome, run.witness_a, run.witness_b) {
        // Stalled: round-off bounds the answer to ~1e-12, which placing poses allows.
        (Outcome::Separated { .. } | Outcome::Stalled { .. }, Some(pa), Some(pb)) => Some(pa - pb),
        _ => None,
    }
}

/// Places B (rotated by `rotation`) at every signed distance: first at 3·(random unit
/// vector), further out if that overlaps, then shifted along the optimum's normal.
pub fn place_at_distances(
    a: &Shape,
    b: &Shape,
    rotation: DMat3,
    distances: &[f64],
    rng: &mut SplitMix64,
) -> Vec<RelativePose> {
    let direction = rng.unit_vector();
    translations_at_distances(
        a,
        b,
        direction * 3.0,
        |t| RelativePose::from_matrix(rotation, t),
        distances,
    )
}

/// B's poses at each signed distance from A: start at translation `start` (doubled
/// until the shapes are apart), find the optimum `x*` there, and move B along its
/// normal. `place` turns a translation into B's pose in A's frame.
pub fn translations_at_distances(
    a: &Shape,
    b: &Shape,
    start: DVec3,
    place: impl Fn(DVec3) -> RelativePose,
    distances: &[f64],
) -> Vec<RelativePose> {
    let mut start = start;
    let x_star = loop {
        if let Some(x) = optimum(a, b, place(start)) {
            break x;
        }
        start *= 2.0;
    };
    let normal = x_star.normalize();
    distances
        .iter()
        // Moving B by v moves A ⊖ B by −v: its nearest point becomes x* − v = δ n.
        .map(|delta| place(start + x_star - normal * *delta))
        .collect()
}

/// `poses` rotations × 12 distances of shapes `a` and `b`; unplaced (B at A's origin,
/// the same draws taken) unless `place`: a chunk of a run split over a cluster places
/// only its own pairs, and a report needs only the problems' shapes and targets.
fn pose_problems(
    set: &mut ProblemSet,
    (a, b): (usize, usize),
    poses: usize,
    rng: &mut SplitMix64,
    place: bool,
) {
    for _ in 0..poses {
        let rotation = DMat3::from_quat(rng.rotation());
        let placed = if place {
            place_at_distances(
                &set.shapes[a],
                &set.shapes[b],
                rotation,
                &SIGNED_DISTANCES,
                rng,
            )
        } else {
            rng.unit_vector();
            vec![RelativePose::from_matrix(rotation, DVec3::ZERO); SIGNED_DISTANCES.len()]
        };
        for (b_in_a, delta) in placed.into_iter().zip(SIGNED_DISTANCES) {
            set.problems.push(BenchProblem {
                a,
                b,
                b_in_a,
                target_distance: delta,
            });
        }
    }
}

/// `pairs` random ellipsoid pairs × `poses` rotations × 12 distances.
pub fn ellipsoid_problems(pairs: usize, poses: usize, seed: u64) -> ProblemSet {
    ellipsoid_problems_placing(pairs, poses, seed, 0..pairs)
}

/// [`ellipsoid_problems`] with only the pairs in `placed` placed (the others' problems
/// listed with B at A's origin): what a chunk or a report needs.
pub fn ellipsoid_problems_placing(
    pairs: usize,
    poses: usize,
    seed: u64,
    placed: Range<usize>,
) -> ProblemSet {
    random_pair_problems(pairs, poses, seed, placed, |rng, _| {
        (random_ellipsoid(rng), "ellipsoid")
    })
}

/// `pairs` random pairs, each side made by `make` (given the side, 0 for A, 1 for B,
/// and named by its kind, the pair's number and the side) × `poses` rotations × 12
/// distances.
fn random_pair_problems(
    pairs: usize,
    poses: usize,
    seed: u64,
    placed: Range<usize>,
    mut make: impl FnMut(&mut SplitMix64, usize) -> (Shape, &'static str),
) -> ProblemSet {
    let mut rng = SplitMix64::new(seed);
    let mut set = ProblemSet::default();
    for p in 0..pairs {
        for (side, letter) in ["a", "b"].into_iter().enumerate() {
            let (shape, kind) = make(&mut rng, side);
            set.shapes.push(shape);
            set.names.push(format!("{kind} {p}{letter}"));
        }
        let place = placed.contains(&p);
        pose_problems(&mut set, (2 * p, 2 * p + 1), poses, &mut rng, place);
    }
    set
}

/// Centres a polytope on its bounding-box centre and scales it to `radius`.
pub fn normalised(polytope: &Polytope, radius: f64) -> Polytope {
    let centre = polytope.local_centre();
    let extent = polytope
        .vertices()
        .iter()
        .map(|v| (*v - centre).length())
        .fold(0.0, f64::max);
    let scale = if extent > 0.0 { radius / extent } else { 1.0 };
    let points: Vec<DVec3> = polytope
        .vertices()
        .iter()
        .map(|v| (*v - centre) * scale)
        .collect();
    Polytope::from_points(&points).expect("a scaled hull is a valid point set")
}

/// The hulls of every OBJ in `dir` with 100–1000 hull vertices (the protocol's range);
/// the others are named and skipped.
pub fn load_hulls(dir: &Path) -> anyhow::Result<Vec<(String, Polytope)>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the mesh folder: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj")))
        .collect();
    paths.sort();
    let mut hulls = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match load_obj(&path) {
            Ok(mesh) if mesh.polytope.dimension() != AffineDimension::Solid => {
                eprintln!("skipping {name}: flat (its hull is a polygon, not a solid)");
            }
            Ok(mesh) if !(100..=1000).contains(&mesh.polytope.vertices().len()) => {
                eprintln!(
                    "skipping {name}: {} hull vertices, outside 100–1000",
                    mesh.polytope.vertices().len()
                );
            }
            Ok(mesh) => hulls.push((name, mesh.polytope)),
            Err(e) => eprintln!("skipping {name}: {e}"),
        }
    }
    if hulls.is_empty() {
        anyhow::bail!(
            "{}: no OBJ mesh with a solid hull of 100–1000 vertices",
            dir.display()
        );
    }
    Ok(hulls)
}
/// `pairs` random pairs of the given hulls (each centred, scaled to a radius in
/// [0.1, 1]) × `poses` rotations × 12 distances.
pub fn mesh_problems(
    meshes: &[(String, Polytope)],
    pairs: usize,
    poses: usize,
    seed: u64,
) -> ProblemSet {
    mesh_problems_placing(meshes, pairs, poses, seed, 0..pairs)
}

/// [`mesh_problems`] with only the pairs in `placed` placed.
pub fn mesh_problems_placing(
    meshes: &[(String, Polytope)],
    pairs: usize,
    poses: usize,
    seed: u64,
    placed: Range<usize>,
) -> ProblemSet {
    let mut rng = SplitMix64::new(seed);
    let mut set = ProblemSet::default();
    if meshes.is_empty() {
        return set;
    }
    for p in 0..pairs {
        let place = placed.contains(&p);
        for _ in 0..2 {
            let (name, hull) = &meshes[rng.index(meshes.len())];
            let radius = rng.range(0.1, 1.0);
            // An unplaced pair's hulls are never queried: not scaled (a copy each).
            set.shapes.push(if place {
                Shape::Polytope(normalised(hull, radius))
            } else {
                Shape::Point(crate::shape::PointShape)
            });
            set.names.push(name.clone());
        }
        let n = set.shapes.len();
        pose_problems(&mut set, (n - 2, n - 1), poses, &mut rng, place);
    }
    set
}

/// The primitive shapes of `bench primitives`: the protocol beyond ellipsoids and
/// hulls, for pairs whose boundary mixes curved and flat parts (capsules, cylinders,
/// cones) or is all flat (boxes), where the accelerated rules behave differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PrimitiveKind {
    Sphere,
    Ellipsoid,
    Box,
    Capsule,
    Cylinder,
    Cone,
}

impl PrimitiveKind {
    /// A random shape of this kind, every size (radius, half height, half extent) in
    /// [0.05, 1]: thin and stubby shapes alike.
    pub fn random(self, rng: &mut SplitMix64) -> Shape {
        let mut size = || rng.range(0.05, 1.0);
        let shape = match self {
            PrimitiveKind::Sphere => Sphere::new(size()).map(Shape::Sphere),
            PrimitiveKind::Ellipsoid => {
                Ellipsoid::new(DVec3::new(size(), size(), size())).map(Shape::Ellipsoid)
            }
            PrimitiveKind::Box => {
                Cuboid::new(DVec3::new(size(), size(), size())).map(Shape::Cuboid)
            }
            PrimitiveKind::Capsule => Capsule::new(size() * 0.5, size()).map(Shape::Capsule),
            PrimitiveKind::Cylinder => Cylinder::new(size(), size()).map(Shape::Cylinder),
            PrimitiveKind::Cone => Cone::new(size(), size()).map(Shape::Cone),
        };
        shape.expect("sizes in [0.05, 1] make a valid shape")
    }

    pub fn name(self) -> &'static str {
        match self {
            PrimitiveKind::Sphere => "sphere",
            PrimitiveKind::Ellipsoid => "ellipsoid",
            PrimitiveKind::Box => "box",
            PrimitiveKind::Capsule => "capsule",
            PrimitiveKind::Cylinder => "cylinder",
            PrimitiveKind::Cone => "cone",
        }
    }
}

/// `pairs` random pairs (A of kind `a`, B of kind `b`) × `poses` rotations × 12
/// distances. Overlap targets are met exactly only on smooth shapes: B moves along the
/// normal at the touching pose, which near an edge or a cone's tip may separate the
/// shapes again (such poses are labelled with their target all the same).
pub fn primitive_problems(
    a: PrimitiveKind,
    b: PrimitiveKind,
    pairs: usize,
    poses: usize,
    seed: u64,
) -> ProblemSet {
    primitive_problems_placing((a, b), pairs, poses, seed, 0..pairs)
}

/// [`primitive_problems`] with only the pairs in `placed` placed.
pub fn primitive_problems_placing(
    (a, b): (PrimitiveKind, PrimitiveKind),
    pairs: usize,
    poses: usize,
    seed: u64,
    placed: Range<usize>,
) -> ProblemSet {
    random_pair_problems(pairs, poses, seed, placed, |rng, side| {
        let kind = if side == 0 { a } else { b };
        (kind.random(rng), kind.name())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_poses_have_the_target_signed_distance() {
        let set = ellipsoid_problems(3, 2, 11);
        assert_eq!(set.problems.len(), 3 * 2 * 12);
        for p in set.problems.iter().filter(|p| p.target_distance > 0.0) {
            let d = optimum(&set.shapes[p.a], &set.shapes[p.b], p.b_in_a).map(|x| x.length());
            let d = d.expect("separated at a positive target");
            assert!(
                (d - p.target_distance).abs() < 1e-6 * p.target_distance.max(1.0),
                "{d} vs {}",
                p.target_distance
            );
        }
        for p in set.problems.iter().filter(|p| p.target_distance < 0.0) {
            assert!(
                optimum(&set.shapes[p.a], &set.shapes[p.b], p.b_in_a).is_none(),
                "overlap expected"
            );
        }
    }

    #[test]
    fn primitive_poses_meet_every_separated_target() {
        use PrimitiveKind::*;
        for (a, b) in [(Capsule, Cone), (Box, Cylinder), (Sphere, Ellipsoid)] {
            let set = primitive_problems(a, b, 4, 2, 5);
            assert_eq!(set.problems.len(), 4 * 2 * 12);
            assert!(set.names[0].starts_with(a.name()) && set.names[1].starts_with(b.name()));
            for p in set.problems.iter().filter(|p| p.target_distance > 0.0) {
                let d = optimum(&set.shapes[p.a], &set.shapes[p.b], p.b_in_a)
                    .map(|x| x.length())
                    .expect("separated at a positive target");
                assert!(
                    (d - p.target_distance).abs() < 1e-6 * p.target_distance.max(1.0),
                    "{a:?}-{b:?}: {d} vs {}",
                    p.target_distance
                );
            }
        }
    }
}
