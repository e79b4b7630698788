//! The interior point (issue 12, in progress) on the problem file of implicit shapes:
//! every distance it reports is within 1e-6·max(1, d) of the truth, and every run it
//! cannot finish says so with a bracket that holds the truth.

mod common;

use collidescope::solver::{Method, Outcome, SolverSettings};

#[test]
fn implicit_sample_answers_are_right_or_honest() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let path = dir.join("implicit_sample.json");
    let file = collidescope::bench::problems::ProblemFile::load(&path).unwrap();
    let shapes = file.build_shapes().unwrap();
    let truths: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut answered = 0;
    for (i, p) in file.problems.iter().enumerate() {
        let truth = &truths["problems"][i];
        let d = truth["true_distance"].as_f64().unwrap();
        let touching = truth["truth"] == "touching";
        let label = format!("problem {i} ({})", truth["origin"]);
        let run = Method::InteriorPoint.run(
            &shapes[p.a],
            &shapes[p.b],
            p.b_in_a(),
            None,
            SolverSettings::default(),
            false,
        );
        match run.summary.outcome {
            Outcome::Separated { distance } => {
                answered += 1;
                assert!(!truth["truth"].as_str().unwrap().starts_with("overlap"), "{label}");
                let limit = if touching { 1e-6 } else { 1e-6 * d.max(1.0) };
                assert!((distance - d).abs() <= limit, "{label}: {distance} vs {d}");
            }
            Outcome::Intersecting => {
                answered += 1;
                assert!(d == 0.0, "{label}: intersecting, truth {d}");
            }
            Outcome::IterationCap {
                lower_bound,
                upper_bound,
            } => assert!(
                lower_bound <= d + 1e-9 && d <= upper_bound + 1e-9,
                "{label}: [{lower_bound}, {upper_bound}] misses {d}"
            ),
            other => panic!("{label}: {other}"),
        }
    }
    // Two pairs still end at the cap: n = 20 against a superquadric with an n = 1 axis,
    // where round-off stops the dual residual near 5e-9 (issue 12 continues).
    assert!(answered >= 40, "{answered} of {}", file.problems.len());
}
