//! A robot at a configuration as a version-2 scene: one body per link shape at its
//! world pose, the checked pairs as the scene's pairs. Checked as meshes, a link with a
//! mesh or compound is that composite (`Mesh(path, as: Mesh)`, `TriMesh` or
//! `Compound`), so `solve` of a pair's scene asks what the robot check asked. The viewer's robot mode shows it,
//! and any pair opens in the two-shape debugger as the pair in focus.

use std::path::Path;

use glam::DVec3;

use super::kinematics::shape_poses;
use super::model::{CollisionMode, RobotModel};
use crate::scene::{Body, Dimension, MemberSpec, RotationSpec, Scene, ShapeSpec};
use crate::shape::Shape;
use crate::solver::{Algorithm, Method, SolverSettings};

/// The scene-file description of a link shape (exact: hull vertices, primitives, or the
/// members of a union).
pub fn shape_spec(shape: &Shape) -> ShapeSpec {
    let arr = |v: DVec3| v.to_array();
    match shape {
        Shape::Sphere(s) => ShapeSpec::Sphere { radius: s.radius() },
        Shape::Cuboid(c) => ShapeSpec::Box {
            half_extents: arr(c.half_extents()),
        },
        Shape::Cylinder(c) => ShapeSpec::Cylinder {
            radius: c.radius(),
            half_height: c.half_height(),
        },
        Shape::Capsule(c) => ShapeSpec::Capsule {
            radius: c.radius(),
            half_height: c.half_height(),
        },
        Shape::Union(u) => ShapeSpec::UnionHull {
            members: u
                .parts()
                .iter()
                .map(|(part, pose)| MemberSpec {
                    shape: shape_spec(part),
                    translation: arr(pose.translation),
                    rotation: RotationSpec::Quaternion(pose.rotation.to_array()),
                })
                .collect(),
        },
        other => ShapeSpec::hull_of(
            other
                .vertex_points()
                .unwrap_or_default()
                .into_iter()
                .map(arr)
                .collect(),
        ),
    }
}

/// The robot at `q` as a scene whose pairs are `pairs` (indices into `model.shapes`),
/// ordered by their certified signed distance at `q` ([`super::order`]): the robot opens
/// on its deepest overlap, or else its nearest pair (the first is the pair in focus).
/// Its links are as the model was loaded ([`RobotModel::collision`]).
pub fn robot_scene(model: &RobotModel, pairs: &[(usize, usize)], q: &[f64], dir: &Path) -> Scene {
    robot_scene_as(model, pairs, q, dir, model.collision)
}

/// [`robot_scene`] with the links as hulls or as meshes (a model loaded as hulls has
/// no meshes: its links stay convex).
pub fn robot_scene_as(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    q: &[f64],
    dir: &Path,
    collision: CollisionMode,
) -> Scene {
    let poses = shape_poses(model, q);
    let bodies = model
        .shapes
        .iter()
        .zip(poses)
        .map(|(s, pose)| {
            let mesh = s.mesh.as_ref().filter(|_| collision == CollisionMode::Mesh);
            Body {
                name: Some(s.name.clone()),
                spec: mesh.map_or_else(|| shape_spec(&s.shape), |m| m.spec.clone()),
                shape: s.shape.clone(),
                composite: mesh.map(|m| m.composite.clone()),
                pose,
                mesh_report: None,
                velocity: None,
                spin: None,
            }
        })
        .collect::<Vec<Body>>();
    // A robot whose every pair is disabled (adjacent links, or through links without
    // geometry) still opens, on the nearest of all its pairs, and says so.
    let every_pair: Vec<(usize, usize)>;
    let (pairs, notes) = if pairs.is_empty() {
        every_pair = (0..bodies.len())
            .flat_map(|i| (i + 1..bodies.len()).map(move |j| (i, j)))
            .collect();
        let notes = "Robot mode: every pair of links is disabled (adjacent, or joined through \
                     links without geometry), so none is checked; the debugger shows the \
                     nearest pair anyway.";
        (every_pair.as_slice(), notes)
    } else {
        (
            pairs,
            "Robot mode: move the joints, pick a pair to open it in the debugger.",
        )
    };
    // Ordered as checked: a robot checked as meshes opens on its nearest pair as meshes.
    let pairs: Vec<(usize, usize)> = super::order::bodies_by_signed_distance(&bodies, pairs)
        .into_iter()
        .map(|(pair, _)| pair)
        .collect();
    Scene {
        name: format!("robot {}", model.name),
        notes: notes.into(),
        dimension: Dimension::Spatial,
        bodies,
        pairs,
        lesson: Vec::new(),
        questions: Vec::new(),
        answers: Vec::new(),
        methods: vec![Method::of(Algorithm::GJK)],
        settings: SolverSettings::default(),
        base_dir: dir.to_path_buf(),
    }
}

/// One pair of the robot at `q` as a two-body scene (A = link shape `i`, B = link shape
/// `j`, at their world poses): what `collidescope export` sends to an engine's
/// maintainers when that engine disagrees on the pair. The links as the model was
/// loaded.
pub fn pair_scene(model: &RobotModel, pair: (usize, usize), q: &[f64], dir: &Path) -> Scene {
    pair_scene_as(model, pair, q, dir, model.collision)
}

/// [`pair_scene`] with the links as hulls or as meshes.
pub fn pair_scene_as(
    model: &RobotModel,
    (i, j): (usize, usize),
    q: &[f64],
    dir: &Path,
    collision: CollisionMode,
) -> Scene {
    let mut scene = robot_scene_as(model, &[], q, dir, collision);
    scene.bodies = vec![scene.bodies[i].clone(), scene.bodies[j].clone()];
    scene.pairs = vec![(0, 1)];
    scene.name = format!(
        "{}: {} and {}",
        model.name, model.shapes[i].name, model.shapes[j].name
    );
    scene.notes = format!(
        "Links {} and {} of {} at configuration {:?} (actuated joints in order), as {}.",
        model.shapes[i].name,
        model.shapes[j].name,
        model.name,
        q,
        match collision {
            CollisionMode::Mesh => "meshes",
            CollisionMode::Hull => "hulls",
        }
    );
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::robot::{checked_pairs, SelfCollision};

    /// A robot whose only pair is disabled (links joined through a link without
    /// geometry) still opens on a pair, and says that none is checked.
    #[test]
    fn a_robot_with_every_pair_disabled_opens_on_its_nearest_pair() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/robots/box_pair");
        let model = RobotModel::load(&dir.join("box_pair.urdf"), None).unwrap();
        let q = crate::robot::acm::default_configuration(&model);
        let scene = robot_scene(&model, &[], &q, &dir);
        assert_eq!(scene.pairs, vec![(0, 1)]);
        assert!(scene.notes.contains("none is checked"), "{}", scene.notes);
    }

    /// A robot opens on the pair the certified nearest-pair search finds (branch and
    /// bound over bounding spheres, GJK on the candidates): the Panda at 30 random
    /// configurations, colliding ones first.
    #[test]
    fn a_robot_scene_opens_on_its_nearest_pair() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/robots");
        let urdf = root.join("panda_description/urdf/panda.urdf");
        if !urdf.exists() {
            eprintln!("skipped: {} is absent", urdf.display());
            return;
        }
        let model = RobotModel::load(&urdf, None).unwrap();
        let pairs = checked_pairs(&model, &[]);
        let mut rng = SplitMix64::new(51);
        let mut colliding = 0;
        for _ in 0..30 {
            let q = crate::robot::acm::random_configuration(&model, &mut rng);
            let scene = robot_scene(&model, &pairs, &q, &root);
            let mut checker = SelfCollision::new(pairs.clone(), Algorithm::GJK);
            let (nearest, _) = checker.nearest_pair(&model, &q).unwrap();
            let focus = scene.pairs[0];
            let (a, b) = (&scene.bodies[focus.0], &scene.bodies[focus.1]);
            let d = super::super::order::signed_distance(&a.shape, &a.pose, &b.shape, &b.pose);
            if nearest.colliding {
                colliding += 1;
                assert!(d <= 0.0, "{focus:?}: {d}");
            } else {
                let best = checker.pairs[nearest.pair];
                assert!(
                    d <= nearest.distance + 1e-9,
                    "focus {focus:?} at {d}, nearest {best:?} at {}",
                    nearest.distance
                );
            }
        }
        assert!(colliding > 0);
    }
}
