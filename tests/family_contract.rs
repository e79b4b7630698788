//! The family contract, held for every method of the catalog: a traced run's records
//! are its family's, and everything that shows records (count, CSV, JSON, the `solve`
//! table, one sentence per step, the family's own type) agrees on them.

use collidescope::pose::{Motion, RelativePose};
use collidescope::shape::{Cuboid, Shape};
use collidescope::solver::catalog::CATALOG;
use collidescope::solver::trace::Trace;
use collidescope::solver::{Method, SolverSettings};
use collidescope::DVec3;

fn cube(half: f64) -> Shape {
    Shape::Cuboid(Cuboid::new(DVec3::splat(half)).unwrap())
}

/// B 3 apart along x, moving 4 towards A over t in [0, 1]: every method has a question.
fn run(method: Method) -> collidescope::solver::Run {
    let pose = RelativePose {
        translation: DVec3::new(3.0, 0.2, 0.1),
        rotation: collidescope::DMat3::from_rotation_z(0.3),
    };
    let motion = Motion {
        velocity: DVec3::new(-4.0, 0.0, 0.0),
        spin: DVec3::ZERO,
    };
    let (a, b) = (cube(1.0), cube(0.5));
    method.run(&a, &b, pose, Some(motion), SolverSettings::default(), true)
}

#[test]
fn every_method_records_its_own_family_and_every_view_agrees() {
    let mut recorded = 0;
    for method in Method::all() {
        let run = run(method);
        let trace = &run.trace;
        let name = method.name();
        assert_eq!(trace.family(), method.family(), "{name}");
        recorded += usize::from(!trace.is_empty());
        // CSV: the header, then one row per record, each naming the method.
        let csv = trace.csv(name);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("algorithm,k,event"), "{name}");
        assert_eq!(lines.len(), trace.len() + 1, "{name}");
        assert!(lines[1..].iter().all(|l| l.starts_with(name)), "{name}");
        // The table: a header and one line per record.
        assert_eq!(trace.table().lines().count(), trace.len() + 1, "{name}");
        // JSON: the records as the family keeps them (a list, or EPA's object).
        let json = serde_json::to_value(trace).unwrap();
        let listed = json
            .as_array()
            .or_else(|| json.get("records").and_then(|r| r.as_array()))
            .map(Vec::len);
        assert_eq!(listed, Some(trace.len()), "{name}");
        // A sentence per step, and one for past the end.
        for i in 0..=trace.len() {
            assert!(!run.narrate(i).is_empty(), "{name} step {i}");
        }
        // Copies keep every record (NaN fields make `==` false: compare the JSON); a
        // trace of another family is not equal.
        assert_eq!(serde_json::to_value(trace.clone()).unwrap(), json, "{name}");
        let other = CATALOG
            .iter()
            .map(|row| row.family())
            .find(|f| *f != method.family())
            .unwrap();
        assert_ne!(Trace::new(other), *trace, "{name}");
        // The row is the method's, and its entry gives the same method back.
        assert_eq!(Method::all()[method.row()], method);
        assert_eq!(name.parse::<Method>().unwrap(), method);
    }
    // EPA on a separated pair may answer from GJK alone; every other method records.
    assert!(
        recorded + 1 >= Method::all().len(),
        "{recorded} methods recorded"
    );
}

#[test]
fn families_have_distinct_ids_and_empty_buffers_of_their_own() {
    let mut ids: Vec<&str> = CATALOG.iter().map(|row| row.family().id()).collect();
    ids.dedup();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        ids.len(),
        "a family's rows are together, ids distinct"
    );
    for row in &CATALOG {
        let trace = Trace::new(row.family());
        assert!(
            trace.is_empty() && trace.family() == row.family(),
            "{}",
            row.name
        );
    }
}

#[test]
fn extras_reach_the_run_and_its_json() {
    use collidescope::solver::toi::ToiExtras;
    // Two balls 1.5 apart, closing at 4 per unit time: the closed form measures d(0).
    let ball = |r| Shape::Sphere(collidescope::shape::Sphere::new(r).unwrap());
    let toi = Method::toi(collidescope::solver::toi::ToiRule::RayCast).run(
        &ball(1.0),
        &ball(0.5),
        RelativePose {
            translation: DVec3::new(3.0, 0.0, 0.0),
            rotation: collidescope::DMat3::IDENTITY,
        },
        Some(Motion {
            velocity: DVec3::new(-4.0, 0.0, 0.0),
            spin: DVec3::ZERO,
        }),
        SolverSettings::default(),
        false,
    );
    let initial = toi
        .extras
        .get::<ToiExtras>()
        .and_then(|e| e.initial_distance);
    assert!(
        initial.is_some_and(|d| (d - 1.5).abs() < 1e-12),
        "{:?}",
        toi.extras
    );
    let json = serde_json::to_value(&toi).unwrap();
    assert_eq!(json["initial_distance"].as_f64(), initial);
    assert!(toi.gjk_stage().is_none());
    let epa = run(Method::epa());
    assert!(epa.extras.get::<ToiExtras>().is_none());
    let json = serde_json::to_value(&epa).unwrap();
    assert!(
        json.get("gjk_stage").is_some(),
        "EPA's GJK stage is in its JSON"
    );
}
