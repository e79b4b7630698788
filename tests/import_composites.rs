//! parry/rapier captures of composite shapes (issue 45): a `TriMesh` with its flags, a
//! `Compound` of convex parts and a `HeightField` with its cell statuses, written by
//! parry's own types in both precisions, come in as the scene's `TriMesh`, `Compound`
//! and `HeightField` (every number widened exactly from an f32 capture), and the
//! midphase's certified answer holds parry3d-f64's own query on parry's own shapes.
//! For an f32 capture the cross-check runs parry3d (f32), the engine the user ran,
//! beside parry3d-f64: far from the origin the f32 answer leaves the certified bracket
//! and the cross-check says so. Bad captures are refused naming the element.

mod common;

use std::path::{Path, PathBuf};

use collidescope::composite::midphase::bracket;
use collidescope::cross_check::{
    compare_composite, pair_size, parry_composite_answers, Agreement, ParryBuild,
};
use collidescope::scene::{Scene, ShapeSpec};
use collidescope::solver::{Algorithm, Method, Outcome};

fn temp_dir(tag: &str) -> common::TempDir {
    common::TempDir::new(&format!("import-composite-{tag}"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports")
        .join(name)
}

/// The test shapes, built by one parry crate from f64 numbers rounded by `round` (the
/// identity for parry3d-f64; `as f32` widened for the f64 oracle of an f32 capture).
macro_rules! shapes {
    ($module:ident, $parry:ident, $real:ty) => {
        mod $module {
            use $parry::math::{Pose, Rotation, Vector};
            use $parry::shape::{HeightFieldCellStatus, SharedShape, TriMesh, TriMeshFlags};

            fn r(x: f64) -> $real {
                x as $real
            }

            fn vec(x: f64, y: f64, z: f64) -> Vector {
                Vector::new(r(x), r(y), r(z))
            }

            pub fn pose(t: [f64; 3], axis: [f64; 3], angle: f64) -> Pose {
                let axis = vec(axis[0], axis[1], axis[2]).normalize();
                Pose::from_parts(
                    vec(t[0], t[1], t[2]),
                    Rotation::from_axis_angle(axis, r(angle)),
                )
            }

            /// Rolling ground, `n` cells a side over [-2, 2]² in x–z, heights along y, with
            /// parry's internal-edge correction (as rapier users build terrain).
            pub fn terrain(n: usize) -> SharedShape {
                terrain_at(n, [0.0; 3])
            }

            /// [`terrain`] with its vertices written at `offset` (a tile modelled in world
            /// coordinates, its pose the identity).
            pub fn terrain_at(n: usize, offset: [f64; 3]) -> SharedShape {
                let mut v = Vec::new();
                for j in 0..=n {
                    for i in 0..=n {
                        let x = -2.0 + 4.0 * i as f64 / n as f64;
                        let z = -2.0 + 4.0 * j as f64 / n as f64;
                        let y = if x < 0.0 {
                            0.0
                        } else {
                            0.3 * (1.3 * x).sin() * (0.9 * z).cos()
                        };
                        v.push(vec(x + offset[0], y + offset[1], z + offset[2]));
                    }
                }
                let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
                let mut t = Vec::new();
                for j in 0..n {
                    for i in 0..n {
                        t.push([id(i, j), id(i, j + 1), id(i + 1, j)]);
                        t.push([id(i + 1, j), id(i, j + 1), id(i + 1, j + 1)]);
                    }
                }
                SharedShape::new(
                    TriMesh::with_flags(v, t, TriMeshFlags::FIX_INTERNAL_EDGES).unwrap(),
                )
            }

            /// An open bowl: y = (x² + z²) / 4 over [-2, 2]².
            pub fn bowl(n: usize) -> SharedShape {
                let mut v = Vec::new();
                for j in 0..=n {
                    for i in 0..=n {
                        let x = -2.0 + 4.0 * i as f64 / n as f64;
                        let z = -2.0 + 4.0 * j as f64 / n as f64;
                        v.push(vec(x, 0.25 * (x * x + z * z), z));
                    }
                }
                let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
                let mut t = Vec::new();
                for j in 0..n {
                    for i in 0..n {
                        t.push([id(i, j), id(i, j + 1), id(i + 1, j + 1)]);
                        t.push([id(i, j), id(i + 1, j + 1), id(i + 1, j)]);
                    }
                }
                SharedShape::trimesh(v, t).unwrap()
            }

            /// A chair-like compound: a seat, a ball, a leaning capsule, a hull.
            pub fn compound() -> SharedShape {
                let hull = [
                    vec(0.0, 0.0, 0.0),
                    vec(0.4, 0.0, 0.1),
                    vec(0.1, 0.5, 0.0),
                    vec(0.1, 0.1, 0.4),
                ];
                SharedShape::compound(vec![
                    (
                        pose([-0.6, 0.0, 0.0], [0.0, 1.0, 0.0], 0.3),
                        SharedShape::cuboid(r(0.3), r(0.2), r(0.25)),
                    ),
                    (
                        pose([0.5, 0.3, 0.1], [1.0, 0.0, 0.0], 0.0),
                        SharedShape::ball(r(0.25)),
                    ),
                    (
                        pose([0.0, 0.6, -0.3], [1.0, 0.2, 0.0], 0.7),
                        SharedShape::capsule_y(r(0.3), r(0.1)),
                    ),
                    (
                        pose([0.2, -0.5, 0.4], [0.0, 0.0, 1.0], 0.2),
                        SharedShape::convex_hull(&hull).unwrap(),
                    ),
                ])
            }

            /// 6 × 7 heights, scale (4, 1, 3), some cells zigzag, some triangles removed.
            pub fn field() -> SharedShape {
                let (n, m) = (6, 7);
                let heights = $parry::utils::Array2::from_fn(n, m, |i, j| {
                    r(0.3 * ((i * 5 + j * 3) % 7) as f64 / 7.0 + 0.05 * j as f64)
                });
                let mut field = $parry::shape::HeightField::new(heights, vec(4.0, 1.0, 3.0));
                for i in 0..n - 1 {
                    for j in 0..m - 1 {
                        let bits = match (i + 2 * j) % 5 {
                            1 => 0b001,
                            3 => 0b010,
                            4 if i > 2 => 0b101,
                            _ => 0,
                        };
                        field.cells_statuses_mut()[(i, j)] =
                            HeightFieldCellStatus::from_bits_truncate(bits);
                    }
                }
                SharedShape::new(field)
            }

            pub fn ball(radius: f64) -> SharedShape {
                SharedShape::ball(r(radius))
            }

            pub fn cuboid(h: [f64; 3]) -> SharedShape {
                SharedShape::cuboid(r(h[0]), r(h[1]), r(h[2]))
            }

            pub fn capsule(half: f64, radius: f64) -> SharedShape {
                SharedShape::capsule_y(r(half), r(radius))
            }
        }
    };
}

shapes!(s64, parry3d_f64, f64);
shapes!(s32, parry3d, f32);

/// A case: the composite's maker, its pose, the other shape, its pose, what it shows.
struct Case {
    name: &'static str,
    composite: fn() -> (parry3d_f64::shape::SharedShape, parry3d::shape::SharedShape),
    pos1: ([f64; 3], [f64; 3], f64),
    other: fn() -> (parry3d_f64::shape::SharedShape, parry3d::shape::SharedShape),
    pos2: ([f64; 3], [f64; 3], f64),
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "ball over rolling ground",
            composite: || (s64::terrain(10), s32::terrain(10)),
            pos1: ([0.1, -0.2, 0.05], [0.0, 1.0, 0.0], 0.3),
            other: || (s64::ball(0.3), s32::ball(0.3)),
            pos2: ([0.9, 0.55, -0.1], [1.0, 0.0, 0.0], 0.0),
        },
        Case {
            name: "box resting across internal edges of the flat half",
            composite: || (s64::terrain(10), s32::terrain(10)),
            pos1: ([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.0),
            other: || {
                (
                    s64::cuboid([0.25, 0.1, 0.25]),
                    s32::cuboid([0.25, 0.1, 0.25]),
                )
            },
            pos2: ([-1.2, 0.1005, 0.4], [0.0, 1.0, 0.0], 0.2),
        },
        Case {
            name: "ball in a bowl's hollow (inside the hull, apart from the mesh)",
            composite: || (s64::bowl(12), s32::bowl(12)),
            pos1: ([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.1),
            other: || (s64::ball(0.25), s32::ball(0.25)),
            pos2: ([0.3, 1.0, 0.2], [1.0, 0.0, 0.0], 0.0),
        },
        Case {
            name: "box beside a compound",
            composite: || (s64::compound(), s32::compound()),
            pos1: ([0.2, 0.1, -0.3], [0.3, 1.0, 0.1], 0.8),
            other: || (s64::cuboid([0.2, 0.3, 0.1]), s32::cuboid([0.2, 0.3, 0.1])),
            pos2: ([1.6, 0.4, -0.2], [1.0, 0.5, 0.2], 0.4),
        },
        Case {
            name: "capsule sunk into a compound's ball",
            composite: || (s64::compound(), s32::compound()),
            pos1: ([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.0),
            other: || (s64::ball(0.2), s32::ball(0.2)),
            pos2: ([0.8, 0.35, 0.1], [1.0, 0.0, 0.0], 0.0),
        },
        Case {
            name: "ball over a height field",
            composite: || (s64::field(), s32::field()),
            pos1: ([0.3, -0.1, 0.2], [0.2, 1.0, 0.0], 0.4),
            other: || (s64::ball(0.3), s32::ball(0.3)),
            pos2: ([0.5, 0.9, -0.4], [1.0, 0.0, 0.0], 0.0),
        },
        Case {
            name: "capsule sunk into a height field",
            composite: || (s64::field(), s32::field()),
            pos1: ([0.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.0),
            other: || (s64::capsule(0.3, 0.1), s32::capsule(0.3, 0.1)),
            pos2: ([-0.4, 0.3, 0.3], [0.0, 0.0, 1.0], 1.2),
        },
    ]
}

/// parry3d-f64's own signed distance on its own shapes: `distance`, then `contact`'s
/// depth on an overlap; a height field answers `contact` only (within a wide prediction).
fn parry64_signed(
    pos1: &parry3d_f64::math::Pose,
    s1: &dyn parry3d_f64::shape::Shape,
    pos2: &parry3d_f64::math::Pose,
    s2: &dyn parry3d_f64::shape::Shape,
) -> f64 {
    if s1.as_heightfield().is_none() && s2.as_heightfield().is_none() {
        let d = parry3d_f64::query::distance(pos1, s1, pos2, s2)
            .unwrap()
            .distance;
        if d > 0.0 {
            return d;
        }
        return parry3d_f64::query::contact(pos1, s1, pos2, s2, 0.0)
            .unwrap()
            .map_or(0.0, |c| c.dist);
    }
    parry3d_f64::query::contact(pos1, s1, pos2, s2, 10.0)
        .unwrap()
        .expect("within the prediction")
        .dist
}

/// An f32 shape's JSON with every float read as the f32 it is and widened, for
/// parry3d-f64's types to read (integers, indices and grid sizes, stay).
fn widened_json(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            let x: f32 = n.to_string().parse().unwrap();
            Value::from(f64::from(x))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(widened_json).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, widened_json(v))).collect())
        }
        other => other,
    }
}

/// The f64 pose of an f32 capture: every number the f32 one holds, widened.
fn widened_pose(p: &parry3d::math::Pose) -> parry3d_f64::math::Pose {
    let (t, q) = (p.translation, p.rotation);
    parry3d_f64::math::Pose::from_parts(
        parry3d_f64::math::Vector::new(t.x.into(), t.y.into(), t.z.into()),
        parry3d_f64::math::Rotation::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into()),
    )
}

/// Runs GJK through the midphase and EPA on an overlap; the certified signed-distance
/// bracket.
fn certified(scene: &Scene) -> (f64, f64, Outcome) {
    let gjk = scene
        .run_composite(Algorithm::GJK, scene.settings, false, None)
        .unwrap();
    if gjk.answer.lower > 0.0 {
        return (gjk.answer.lower, gjk.answer.upper, gjk.answer.outcome);
    }
    let epa = scene
        .run_composite(Method::epa(), scene.settings, false, None)
        .unwrap();
    let (lo, hi) = match epa.answer.outcome {
        Outcome::Penetrating { depth, .. } => (-depth, -depth),
        ref other => bracket(other),
    };
    (lo, hi, epa.answer.outcome)
}

fn tight(scene: &Scene) -> Scene {
    let mut s = scene.clone();
    s.settings.tolerance = 1e-12;
    s
}

#[test]
fn composite_captures_import_in_both_precisions_and_answer_as_parry() {
    let dir = temp_dir("both");
    for (k, case) in cases().iter().enumerate() {
        let (c64, c32) = (case.composite)();
        let (o64, o32) = (case.other)();
        for precision in ["f64", "f32"] {
            let path = dir.join(format!("{k}_{precision}.json"));
            let (p1, p2) = (case.pos1, case.pos2);
            let (pos1, pos2, json) = if precision == "f64" {
                let (pos1, pos2) = (s64::pose(p1.0, p1.1, p1.2), s64::pose(p2.0, p2.1, p2.2));
                let json = serde_json::to_string(&(pos1, &c64, pos2, &o64)).unwrap();
                (pos1, pos2, json)
            } else {
                let (pos1, pos2) = (s32::pose(p1.0, p1.1, p1.2), s32::pose(p2.0, p2.1, p2.2));
                let json = serde_json::to_string(&(pos1, &c32, pos2, &o32)).unwrap();
                (widened_pose(&pos1), widened_pose(&pos2), json)
            };
            std::fs::write(&path, json).unwrap();
            let what = format!("{} ({precision})", case.name);
            let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(scene.focus_is_composite(), "{what}");
            let crate_name = if precision == "f64" {
                "parry3d-f64"
            } else {
                "parry3d (f32)"
            };
            assert!(scene.notes.contains(crate_name), "{what}: {}", scene.notes);
            assert!(
                scene.notes.contains("shape1 is a "),
                "{what}: {}",
                scene.notes
            );

            // The oracle: parry3d-f64 on parry's own shapes (an f32 capture's numbers
            // widened: its f32 shapes read back by parry3d-f64's types).
            let oracle: parry3d_f64::shape::SharedShape = if precision == "f64" {
                c64.clone()
            } else {
                serde_json::from_value(widened_json(serde_json::to_value(&c32).unwrap())).unwrap()
            };
            let other: parry3d_f64::shape::SharedShape = if precision == "f64" {
                o64.clone()
            } else {
                serde_json::from_value(widened_json(serde_json::to_value(&o32).unwrap())).unwrap()
            };
            let theirs = parry64_signed(&pos1, &*oracle, &pos2, &*other);

            // Saved and loaded back: the same specs and poses to the bit.
            let saved = path.with_extension("ron");
            scene.save(&saved).unwrap();
            let again = collidescope::input::open(&saved).unwrap();
            for (x, y) in scene.bodies.iter().zip(&again.bodies) {
                assert_eq!(x.spec, y.spec, "{what}");
                assert_eq!(x.pose, y.pose, "{what}");
            }

            let scene = tight(&scene);
            let (lower, upper, outcome) = certified(&scene);
            let slack = 1e-7;
            assert!(
                lower - slack <= theirs && theirs <= upper + slack,
                "{what}: certified [{lower:e}, {upper:e}] ({outcome:?}), parry3d-f64 {theirs:e}"
            );
            eprintln!("{what}: certified [{lower:e}, {upper:e}], parry3d-f64 {theirs:e}");

            // The cross-check: parry3d-f64 agrees; an f32 capture also runs parry3d (f32).
            let run = scene
                .run_composite(Algorithm::GJK, scene.settings, false, None)
                .unwrap();
            let answers = parry_composite_answers(&scene);
            assert_eq!(
                answers.len(),
                if precision == "f32" { 2 } else { 1 },
                "{what}"
            );
            for answer in &answers {
                let agreement = compare_composite(&run, &scene.settings, answer, pair_size(&scene));
                eprintln!(
                    "  {}: {} -> {agreement}",
                    answer.build.crate_name(),
                    answer.describe()
                );
                assert!(
                    agreement.agrees(),
                    "{what}: {} {agreement}",
                    answer.build.crate_name()
                );
            }
        }
    }
}

/// The spec holds parry's numbers: the TriMesh's vertices, indices and flags bits
/// (FIX_INTERNAL_EDGES kept, said in the notes), the height field's rows, scale and cell
/// statuses in parry's layout, the compound's parts at their poses; f32 ones widened.
#[test]
fn composite_specs_hold_parrys_numbers_and_flags() {
    let dir = temp_dir("specs");
    // TriMesh, f32: vertices widened, indices, FIX_INTERNAL_EDGES.
    let terrain = s32::terrain(4);
    let pose = s32::pose([0.1, 0.2, 0.3], [0.0, 1.0, 0.0], 0.0);
    let path = dir.join("mesh.json");
    std::fs::write(
        &path,
        serde_json::to_string(&(pose, &terrain, pose, &s32::ball(0.1))).unwrap(),
    )
    .unwrap();
    let file = collidescope::import::import_file(&path).unwrap();
    let parry3d::shape::TypedShape::TriMesh(mesh) = terrain.as_typed_shape() else {
        unreachable!()
    };
    let ShapeSpec::TriMesh {
        vertices,
        triangles,
        flags,
    } = &file.bodies[0].shape
    else {
        panic!("{:?}", file.bodies[0].shape)
    };
    assert_eq!(
        *flags,
        parry3d::shape::TriMeshFlags::FIX_INTERNAL_EDGES.bits()
    );
    assert_eq!(triangles, mesh.indices());
    for (ours, theirs) in vertices.iter().zip(mesh.vertices()) {
        assert_eq!(*ours, [theirs.x, theirs.y, theirs.z].map(f64::from));
    }
    assert!(file.notes.contains("FIX_INTERNAL_EDGES"), "{}", file.notes);
    // The RON keeps the flags; a TriMesh without flags writes none (older files read).
    let ron = file.to_ron().unwrap();
    assert!(ron.contains("flags: 144"), "{ron}");

    // HeightField, f64: rows along z, entries along x, statuses row-major.
    let field = s64::field();
    let pose = s64::pose([0.0; 3], [0.0, 1.0, 0.0], 0.0);
    let path = dir.join("field.json");
    std::fs::write(
        &path,
        serde_json::to_string(&(pose, &field, pose, &s64::ball(0.1))).unwrap(),
    )
    .unwrap();
    let file = collidescope::import::import_file(&path).unwrap();
    let parry3d_f64::shape::TypedShape::HeightField(theirs) = field.as_typed_shape() else {
        unreachable!()
    };
    let ShapeSpec::HeightField {
        heights,
        scale,
        cells,
    } = &file.bodies[0].shape
    else {
        panic!()
    };
    assert_eq!(*scale, [4.0, 1.0, 3.0]);
    for (i, row) in heights.iter().enumerate() {
        for (j, h) in row.iter().enumerate() {
            assert_eq!(*h, theirs.heights()[(i, j)]);
        }
    }
    for i in 0..5 {
        for j in 0..6 {
            assert_eq!(cells[i * 6 + j], theirs.cells_statuses()[(i, j)].bits());
        }
    }
    // Compound: the parts and their poses.
    let path = dir.join("compound.json");
    let compound = s32::compound();
    let pose = s32::pose([0.0; 3], [0.0, 1.0, 0.0], 0.0);
    std::fs::write(
        &path,
        serde_json::to_string(&(pose, &compound, pose, &s32::ball(0.1))).unwrap(),
    )
    .unwrap();
    let file = collidescope::import::import_file(&path).unwrap();
    let ShapeSpec::Compound { parts } = &file.bodies[0].shape else {
        panic!()
    };
    assert_eq!(parts.len(), 4);
    assert!(matches!(parts[1].shape, ShapeSpec::Sphere { radius } if radius == f64::from(0.25f32)));
    assert_eq!(parts[0].translation, [f64::from(-0.6f32), 0.0, 0.0]);
    assert!(
        file.notes.contains("Compound of 4 convex parts"),
        "{}",
        file.notes
    );
}

/// A ground tile modelled in world coordinates 3e4 from the origin (its pose the
/// identity) and a ball 1e-3 over it: the capture's numbers are f32, the scene certifies
/// the gap in f64, and parry3d (f32), the engine the user ran, works on coordinates of
/// 3e4 whose f32 spacing is 2e-3: its answer leaves the bracket and the cross-check shows
/// that failure beside parry3d-f64's agreement.
#[test]
fn an_f32_capture_far_from_the_origin_shows_parry_f32_failing() {
    let dir = temp_dir("far");
    let offset = [30000.0, 250.0, -20000.0];
    let ground = s32::terrain_at(6, offset);
    // The tile turned about the origin, the ball over a point of its flat half, 1e-3
    // above it along the tile's up (placed in f64, rounded to f32 as a capture holds it).
    let pos1 = s32::pose([0.0; 3], [0.3, 1.0, 0.2], 0.01);
    let turn = |p: [f64; 3]| {
        let q = pos1.rotation;
        let q = glam::DQuat::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into());
        q * glam::DVec3::from_array(p)
    };
    let c =
        turn([offset[0] - 1.1, offset[1], offset[2] + 0.4]) + turn([0.0, 1.0, 0.0]) * (0.4 + 1e-3);
    let centre = parry3d::math::Vector::new(c.x as f32, c.y as f32, c.z as f32);
    let pos2 = parry3d::math::Pose::from_parts(centre, parry3d::math::Rotation::IDENTITY);
    let path = dir.join("far.json");
    std::fs::write(
        &path,
        serde_json::to_string(&(pos1, &ground, pos2, &s32::ball(0.4))).unwrap(),
    )
    .unwrap();
    let scene = tight(&collidescope::input::open(&path).unwrap());
    let (lower, upper, _) = certified(&scene);
    assert!(lower > 0.0 && upper < 5e-3, "[{lower:e}, {upper:e}]");
    let run = scene
        .run_composite(Algorithm::GJK, scene.settings, false, None)
        .unwrap();
    let answers = parry_composite_answers(&scene);
    let by = |b: ParryBuild| answers.iter().find(|a| a.build == b).unwrap();
    let f64_says = compare_composite(
        &run,
        &scene.settings,
        by(ParryBuild::F64),
        pair_size(&scene),
    );
    let f32_says = compare_composite(
        &run,
        &scene.settings,
        by(ParryBuild::F32),
        pair_size(&scene),
    );
    eprintln!(
        "certified [{lower:e}, {upper:e}]; parry3d-f64 {} {f64_says}; parry3d (f32) {} {f32_says}",
        by(ParryBuild::F64).describe(),
        by(ParryBuild::F32).describe()
    );
    assert!(f64_says.agrees(), "{f64_says}");
    assert!(!f32_says.agrees(), "parry3d (f32) {f32_says}");
    assert!(
        !matches!(f32_says, Agreement::NotComparable(_)),
        "{f32_says}"
    );
    // parry3d (f32) itself, on the capture as the user ran it, is off the bracket too.
    let theirs = parry3d::query::distance(&pos1, &*ground, &pos2, &*s32::ball(0.4))
        .unwrap()
        .distance;
    assert!(
        f64::from(theirs) < lower - 1e-5 || f64::from(theirs) > upper + 1e-5,
        "{theirs} in [{lower:e}, {upper:e}]"
    );
}

/// Bad composite captures are refused naming the file, the argument and the element.
#[test]
fn bad_composite_captures_name_the_element() {
    let dir = temp_dir("bad");
    let pose = s64::pose([0.0; 3], [0.0, 1.0, 0.0], 0.0);
    let ball = s64::ball(0.1);
    let write = |name: &str, value: serde_json::Value| {
        let path = dir.join(name);
        std::fs::write(&path, value.to_string()).unwrap();
        let e = collidescope::import::import_file(&path)
            .and_then(|f| {
                Scene::from_scene_file(f, &path).map_err(|e| collidescope::import::ImportError {
                    path: path.clone(),
                    message: e.to_string(),
                })
            })
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains(name), "{e}");
        e
    };
    let capture = |shape: &parry3d_f64::shape::SharedShape| {
        serde_json::to_value((pose, shape, pose, &ball)).unwrap()
    };
    // A NaN vertex (serde_json writes null).
    let mut v = capture(&s64::bowl(2));
    v[1]["TriMesh"]["vertices"][4][1] = serde_json::Value::Null;
    let e = write("nan_vertex.json", v);
    assert!(e.contains("shape1 (TriMesh): vertex 4"), "{e}");
    // An index out of range.
    let mut v = capture(&s64::bowl(2));
    v[1]["TriMesh"]["indices"][3][2] = 99.into();
    let e = write("index.json", v);
    assert!(e.contains("triangle 3") && e.contains("99"), "{e}");
    // A height field of the wrong size: its data one short of rows × columns.
    let mut v = capture(&s64::field());
    v[1]["HeightField"]["heights"]["data"]
        .as_array_mut()
        .unwrap()
        .pop();
    let e = write("short_field.json", v);
    assert!(
        e.contains("shape1 (HeightField)") && e.contains("6 rows × 7 columns"),
        "{e}"
    );
    // Its cell statuses for another grid.
    let mut v = capture(&s64::field());
    v[1]["HeightField"]["status"]["nrows"] = 3.into();
    let e = write("status.json", v);
    assert!(e.contains("cell statuses"), "{e}");
    // A NaN height.
    let mut v = capture(&s64::field());
    v[1]["HeightField"]["heights"]["data"][8] = serde_json::Value::Null;
    let e = write("nan_height.json", v);
    assert!(e.contains("row 2, column 1"), "{e}");
    // A compound holding a mesh (parry's constructor refuses one; a capture may hold it).
    let mut v = capture(&s64::compound());
    v[1]["Compound"]["shapes"][1][1] = serde_json::to_value(s64::bowl(2)).unwrap();
    let e = write("nested.json", v);
    assert!(e.contains("part 1 is a TriMesh"), "{e}");
    // A mesh with no triangles.
    let mut v = capture(&s64::bowl(2));
    v[1]["TriMesh"]["indices"] = serde_json::json!([]);
    let e = write("empty.json", v);
    assert!(e.contains("no triangles"), "{e}");
}

/// The committed captures (made by `COLLIDESCOPE_WRITE_CAPTURES=1 cargo test --test
/// import_composites write_the_fixture_captures`, parry's own serialisation of the
/// shapes above): each imports and certifies what parry3d-f64 answers.
#[test]
fn the_committed_captures_import() {
    for (name, composite) in FIXTURES {
        let path = fixture(name);
        let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(scene.notes.contains(composite), "{name}: {}", scene.notes);
        let scene = tight(&scene);
        let (lower, upper, _) = certified(&scene);
        let run = scene
            .run_composite(Algorithm::GJK, scene.settings, false, None)
            .unwrap();
        for answer in parry_composite_answers(&scene) {
            let agreement = compare_composite(&run, &scene.settings, &answer, pair_size(&scene));
            eprintln!(
                "{name}: [{lower:e}, {upper:e}] {}: {} {agreement}",
                answer.build.crate_name(),
                answer.describe()
            );
            if answer.build == ParryBuild::F64 {
                assert!(agreement.agrees(), "{name}: {agreement}");
            }
        }
    }
}

const FIXTURES: [(&str, &str); 4] = [
    (
        "parry_trimesh_fix_internal_edges_f32.json",
        "FIX_INTERNAL_EDGES",
    ),
    ("parry_bowl_trimesh_f64.json", "TriMesh"),
    ("parry_compound_f64.json", "Compound"),
    ("parry_heightfield_f32.json", "HeightField"),
];

#[test]
fn write_the_fixture_captures() {
    if std::env::var_os("COLLIDESCOPE_WRITE_CAPTURES").is_none() {
        return;
    }
    let all = cases();
    let pick = |i: usize, f32: bool| -> String {
        let case = &all[i];
        let (c64, c32) = (case.composite)();
        let (o64, o32) = (case.other)();
        let (p1, p2) = (case.pos1, case.pos2);
        if f32 {
            let (pos1, pos2) = (s32::pose(p1.0, p1.1, p1.2), s32::pose(p2.0, p2.1, p2.2));
            serde_json::to_string(&(pos1, &c32, pos2, &o32)).unwrap()
        } else {
            let (pos1, pos2) = (s64::pose(p1.0, p1.1, p1.2), s64::pose(p2.0, p2.1, p2.2));
            serde_json::to_string(&(pos1, &c64, pos2, &o64)).unwrap()
        }
    };
    for (name, json) in [
        (FIXTURES[0].0, pick(1, true)),
        (FIXTURES[1].0, pick(2, false)),
        (FIXTURES[2].0, pick(3, false)),
        (FIXTURES[3].0, pick(5, true)),
    ] {
        std::fs::write(fixture(name), json).unwrap();
    }
}
