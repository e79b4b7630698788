//! The step pictures the core builds (`collidescope::sketch`, drawn by the viewer and
//! the web page) against the narration of the same steps: the iterate a picture
//! labels is the one the next step's text names.

use std::path::Path;

use collidescope::scene::Scene;
use collidescope::sketch::{step_sketch, DifferenceSpace, Layers, SketchContext};
use collidescope::solver::narration::subscript;
use collidescope::DVec3;

fn context(scene: &Scene) -> SketchContext {
    SketchContext {
        layers: Layers::default(),
        space: DifferenceSpace {
            anchor: DVec3::new(-3.0, 0.0, 0.0),
            rotation: scene.a().pose.rotation,
            radius: 1.0,
        },
        pose_a: scene.a().pose,
        pose_b: scene.b().pose,
        marker: 0.01,
        planar: scene.dimension == collidescope::scene::Dimension::Planar,
    }
}

/// Every distance run of the lessons: the x that step i's picture labels is the x step
/// i + 1 takes its support against ("in direction −x₈"), and a last step that brings no
/// progress labels the x its text names, through steps that count no iteration
/// (Nesterov's momentum stop then the final test, lesson 6).
#[test]
fn a_pictured_iterate_is_the_one_the_next_step_names() {
    let mut checked = 0;
    for entry in std::fs::read_dir(Path::new("scenes/lessons")).unwrap() {
        let path = entry.unwrap().path();
        let Ok(scene) = Scene::load(&path) else {
            continue;
        };
        let mut scenes = vec![scene.clone()];
        for k in 1..scene.pairs.len() {
            let mut other = scene.clone();
            other.focus_pair(k).unwrap();
            scenes.push(other);
        }
        for scene in scenes {
            let context = context(&scene);
            for &method in &scene.methods {
                let run = scene.run(method);
                for i in 0..run.trace.len() {
                    // The next step names this step's x; a step that brings no
                    // progress leaves x where it was, named as its own text names it.
                    let this = run.narrate(i);
                    let next = if this.contains("brings no progress") {
                        this
                    } else if i + 1 < run.trace.len() {
                        run.narrate(i + 1)
                    } else {
                        continue;
                    };
                    let Some(at) = next.find("direction −x") else {
                        continue;
                    };
                    let named: String = next[at + "direction −".len()..]
                        .chars()
                        .take_while(|c| *c == 'x' || ('₀'..='₉').contains(c))
                        .collect();
                    let Some(sketch) = step_sketch(&run, i, &context) else {
                        continue;
                    };
                    let labels: Vec<&str> = sketch
                        .labels
                        .iter()
                        .map(|l| l.text.as_str())
                        .filter(|t| t.starts_with('x'))
                        .collect();
                    assert!(
                        labels.contains(&named.as_str()),
                        "{}: {} step {}: picture labels {labels:?}, next step says {next}",
                        path.display(),
                        method.name(),
                        i + 1
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} steps checked");
    assert_eq!(subscript(8), "₈");
}

/// A time of impact's pictures: B's path from where it starts to where the motion ends,
/// each probe on that path at its time, B's ghost at the step's time (its mesh moved
/// along the path), and at the end the contact with its time; checked on every method
/// of a scene that moves B.
#[test]
fn a_time_of_impact_picture_puts_probes_and_ghost_on_the_path() {
    use collidescope::sketch::{toi_sketch, Mark, Motion};
    use collidescope::solver::toi::ToiRecord;
    let scene = Scene::load(Path::new("scenes/toi_box_landing.ron")).unwrap();
    let motion = Motion::of(&scene, true).expect("B moves");
    let start = scene.b().pose.translation;
    let shift = scene.a().pose.rotation * scene.relative_velocity().unwrap();
    let context = context(&scene);
    let mut checked = 0;
    for method in &scene.methods {
        let run = scene.run(*method);
        let Some(records) = run.trace.steps::<ToiRecord>() else {
            continue;
        };
        for (i, record) in records.iter().enumerate() {
            let sketch = toi_sketch(&run, records, i, &context, &motion).unwrap();
            let arrow = sketch.marks.iter().find_map(|m| match m {
                Mark::Arrow { from, to, .. } => Some((*from, *to)),
                _ => None,
            });
            assert_eq!(arrow, Some((start, start + shift)), "{method:?} step {i}");
            // Each probe so far is a marker on the path at its time.
            let markers: Vec<DVec3> = (sketch.marks.iter())
                .filter_map(|m| match m {
                    Mark::Marker { at, .. } => Some(*at),
                    _ => None,
                })
                .collect();
            for r in records[..=i]
                .iter()
                .filter(|r| (0.0..=1.0).contains(&r.time))
            {
                let on_path = start + shift * r.time;
                assert!(
                    markers.iter().any(|m| (*m - on_path).length() < 1e-9),
                    "{method:?} step {i}: no probe at t = {}",
                    r.time
                );
            }
            // The ghost: B's mesh moved by the step's time along the path.
            let t = record.time.clamp(0.0, 1.0);
            let ghost = &sketch.faces[1];
            let centre = (ghost.triangles.iter().flatten()).fold(DVec3::ZERO, |s, p| s + *p)
                / (3 * ghost.triangles.len()) as f64;
            let expected = start + shift * t;
            assert!(
                (centre - expected).length() < 1e-6 * (1.0 + expected.length()),
                "{method:?} step {i}: ghost at {centre}, B at t = {t} is at {expected}"
            );
            let text = sketch.labels.iter().map(|l| l.text.as_str());
            assert!(
                text.clone().any(|l| l == format!("t = {:.6}", record.time)),
                "{method:?} step {i}"
            );
            if i + 1 == records.len() {
                assert!(
                    text.clone().any(|l| l.starts_with("impact at t = ")),
                    "{method:?}: {:?}",
                    sketch.labels
                );
            }
        }
        checked += 1;
    }
    assert!(
        checked >= 2,
        "the scene runs at least two time-of-impact methods"
    );
}

/// GJK's Voronoi regions as pictures: in the plane the regions tile a box around the
/// simplex and the origin lies in the region drawn in the origin's tint; in space the
/// origin's region is drawn for every step after the first. With the region layer off,
/// none.
#[test]
fn gjk_pictures_carry_the_region_that_holds_the_origin() {
    use collidescope::sketch::{region_sketch, ORIGIN_REGION_TINT, ORIGIN_REGION_TINT_3D};
    use collidescope::solver::{Algorithm, DirectionRule, GjkRecord, Method};
    for (file, tint) in [
        ("scenes/lessons/04_voronoi_regions.ron", ORIGIN_REGION_TINT),
        ("scenes/lessons/03_gjk_two_boxes.ron", ORIGIN_REGION_TINT_3D),
    ] {
        let scene = Scene::load(Path::new(file)).unwrap();
        let mut context = context(&scene);
        let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
        let run = scene.run(gjk);
        let records = run.trace.steps::<GjkRecord>().unwrap();
        for i in 0..records.len() {
            let sketch = region_sketch(records, i, &context);
            let origin: Vec<_> = sketch.faces.iter().filter(|f| f.colour == tint).collect();
            // In space a lone first vertex has no region drawn (its cone is all space).
            if !context.planar && i == 0 {
                assert!(origin.is_empty());
                continue;
            }
            assert_eq!(
                origin.len(),
                1,
                "{file} step {i}: one region holds the origin"
            );
            if context.planar {
                // O (at the anchor, lifted with the regions) is under one of its triangles.
                let o = context.space.world_point(DVec3::ZERO);
                let inside = origin[0].triangles.iter().any(|t| {
                    let [a, b, c] = t.map(|p| p.truncate() - o.truncate());
                    let s = [a.perp_dot(b), b.perp_dot(c), c.perp_dot(a)];
                    s.iter().all(|v| *v >= -1e-12) || s.iter().all(|v| *v <= 1e-12)
                });
                assert!(inside, "{file} step {i}: O outside the origin's region");
            }
        }
        context.layers.region = false;
        assert!(region_sketch(records, 0, &context).faces.is_empty());
    }
}
