//! The slow-case explainer (issue 15): crafted scenes are classified by the cause they
//! were made for, and runs that are not slow, or slow for no listed reason, get none.

use std::path::Path;

use collidescope::scene::Scene;
use collidescope::solver::explain::{explain, CauseKind};
use collidescope::solver::Method;

fn scene(name: &str) -> Scene {
    Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(name),
    )
    .unwrap()
}

fn causes(scene: &Scene, method: &str) -> Vec<CauseKind> {
    let run = scene.run(method.parse::<Method>().unwrap());
    explain(&run).into_iter().map(|c| c.kind).collect()
}

#[test]
fn each_crafted_case_gets_its_cause() {
    let cubes = scene("cubes_frank_wolfe_zigzag.ron");
    assert!(causes(&cubes, "fw_linesearch").contains(&CauseKind::ZigZag));
    assert!(causes(&cubes, "fw_fixed").contains(&CauseKind::IterationCap));
    // GJK's support sliding across a shallow dome's nearly flat cap.
    let dome = scene("slow_plateau_dome.ron");
    assert!(causes(&dome, "gjk").contains(&CauseKind::SupportPlateau));
    // Plain Nesterov's momentum landing on the same plate corners: the simplex given to
    // the projection repeats a point or lies flat.
    let plate = scene("slow_degenerate_plate.ron");
    assert!(causes(&plate, "nesterov").contains(&CauseKind::DegenerateSimplex));
    let far = scene("ellipsoids_far.ron");
    assert!(causes(&far, "nesterov_normalized").contains(&CauseKind::MomentumOvershoot));
    // The first direction turned away from the answer.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron"),
    )
    .unwrap()
    .replace(
        "initial_guess: CentreDifference",
        "initial_guess: Direction((0.9, 0.4, 0.05))",
    );
    let turned = Scene::parse(Path::new("turned.ron"), &text).unwrap();
    assert!(causes(&turned, "gjk").contains(&CauseKind::BadInitialGuess));
}

#[test]
fn fast_or_well_behaved_runs_get_no_cause() {
    for name in [
        "boxes_face_to_face.ron",
        "needles_end_to_end.ron",
        "overlap_sphere_capsule.ron",
        "degenerate_flat.ron",
        "ellipsoids_close.ron",
        "ellipsoids_far.ron",
        "cubes_frank_wolfe_zigzag.ron",
        "slow_degenerate_plate.ron",
    ] {
        let s = scene(name);
        for method in ["gjk", "nesterov_restart"] {
            assert!(
                causes(&s, method).is_empty(),
                "{name} {method}: {:?}",
                causes(&s, method)
            );
        }
    }
    // Plain Nesterov near contact: fast, no cause.
    assert!(causes(&scene("ellipsoids_close.ron"), "nesterov").is_empty());
}
