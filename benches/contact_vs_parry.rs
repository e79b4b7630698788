//! A contact manifold, ours (the certified normal by GJK/EPA, support sets, clipping,
//! reduction and every point's certificate: Jolt's rule) against parry3d-f64's
//! `contact_manifolds` (its default dispatcher on shapes built once, prediction 1e-3) on
//! the same pairs in the same process, by category: boxes resting flat, boxes tilted by
//! up to 1e-3 rad, cylinders on their caps, capsules lying on a box, and random hulls in
//! contact. Each category is 50 seeded poses, 1e-4 to 1e-2 deep.

use collidescope::parry_bridge::{native, parry_gjk_distance, parry_pose};
use collidescope::pose::RelativePose;
use collidescope::rng::SplitMix64;
use collidescope::shape::{Capsule, Cuboid, Cylinder, Polytope, Shape};
use collidescope::solver::contact::{ContactRule, ContactSettings, Detail};
use collidescope::solver::epa::EpaSettings;
use std::time::Instant;

use criterion::{criterion_group, Criterion};
use glam::{DMat3, DVec3};
use parry3d_f64::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};

type Category = (&'static str, Shape, Shape, Vec<RelativePose>);

/// B pushed along `direction` from A's centre until it touches A (parry's GJK,
/// bisected), then `depth` deeper.
fn touching(a: &Shape, b: &Shape, turn: DMat3, direction: DVec3, depth: f64) -> RelativePose {
    let (mut lo, mut hi) = (0.0, 8.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let pose = RelativePose::from_matrix(turn, direction * mid);
        if parry_gjk_distance(a, b, &pose) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    RelativePose::from_matrix(turn, direction * (lo - depth))
}

fn categories() -> Vec<Category> {
    let mut rng = SplitMix64::new(9);
    let slab = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 2.0, 0.5)).unwrap());
    let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let cylinder = Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap());
    let capsule = Shape::Capsule(Capsule::new(0.2, 0.6).unwrap());
    let standing = DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2);
    let lying = DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let resting = |rng: &mut SplitMix64, turn: DMat3, height: f64| {
        let depth = 10f64.powf(rng.range(-4.0, -2.0));
        let t = DVec3::new(
            rng.range(-1.2, 1.2),
            rng.range(-1.2, 1.2),
            0.5 + height - depth,
        );
        RelativePose::from_matrix(turn, t)
    };
    let flat: Vec<_> = (0..50)
        .map(|_| {
            let yaw = DMat3::from_rotation_z(rng.range(0.0, 6.3));
            resting(&mut rng, yaw, 0.5)
        })
        .collect();
    let tilted: Vec<_> = (0..50)
        .map(|_| {
            let turn = DMat3::from_rotation_z(rng.range(0.0, 6.3))
                * DMat3::from_rotation_x(rng.range(-1e-3, 1e-3));
            resting(&mut rng, turn, 0.5)
        })
        .collect();
    let caps: Vec<_> = (0..50).map(|_| resting(&mut rng, standing, 0.5)).collect();
    let sides: Vec<_> = (0..50)
        .map(|_| {
            let yaw = DMat3::from_rotation_z(rng.range(0.0, 6.3));
            resting(&mut rng, yaw * lying, 0.2)
        })
        .collect();
    let cloud: Vec<DVec3> = (0..16).map(|_| rng.vector(0.6)).collect();
    let hull = Shape::Polytope(Polytope::from_points(&cloud).unwrap());
    let hulls: Vec<_> = (0..50)
        .map(|_| {
            let turn = DMat3::from_quat(rng.rotation());
            let direction = rng.unit_vector();
            let depth = 10f64.powf(rng.range(-4.0, -2.0));
            touching(&hull, &hull, turn, direction, depth)
        })
        .collect();
    vec![
        ("boxes resting flat", slab.clone(), cube.clone(), flat),
        ("boxes tilted by up to 1e-3", slab.clone(), cube, tilted),
        ("cylinders on their caps", slab.clone(), cylinder, caps),
        ("capsules lying on a box", slab, capsule, sides),
        ("random hulls in contact", hull.clone(), hull, hulls),
    ]
}

/// Ours: Jolt's rule, certified, as a query asks for it (no clipping stages kept).
fn ours(a: &Shape, b: &Shape, pose: &RelativePose) {
    let (epa, contact) = (EpaSettings::default(), ContactSettings::default());
    let manifold = ContactRule::Clipping.manifold_with(Detail::Result, a, b, *pose, epa, contact);
    std::hint::black_box(&manifold);
}

/// parry's manifolds into `out`, prediction = our margin.
fn theirs(
    (pa, pb): (
        &dyn parry3d_f64::shape::Shape,
        &dyn parry3d_f64::shape::Shape,
    ),
    pos12: &parry3d_f64::math::Pose,
    out: &mut Vec<ContactManifold<(), ()>>,
) {
    out.clear();
    let mut workspace = None;
    DefaultQueryDispatcher
        .contact_manifolds(
            pos12,
            pa,
            pb,
            ContactSettings::default().margin,
            out,
            &mut workspace,
        )
        .unwrap();
    std::hint::black_box(&out);
}

fn manifolds(c: &mut Criterion) {
    for (name, a, b, poses) in categories() {
        let (pa, pb) = (native(&a).unwrap(), native(&b).unwrap());
        let parry_poses: Vec<_> = poses.iter().map(parry_pose).collect();
        let mut group = c.benchmark_group(format!("contact {name}: {} poses", poses.len()));
        group.bench_function("ours (Jolt's rule, certified)", |bench| {
            bench.iter(|| poses.iter().for_each(|pose| ours(&a, &b, pose)))
        });
        group.bench_function("parry3d-f64 contact_manifolds", |bench| {
            let mut out: Vec<ContactManifold<(), ()>> = Vec::new();
            bench.iter(|| {
                for pos12 in &parry_poses {
                    theirs((pa.as_ref(), pb.as_ref()), pos12, &mut out);
                }
            })
        });
        group.finish();
    }
}

/// The measure: for each pose, ours and parry's time (the fastest of several
/// batches, one after the other), their ratio, and per category the median ratio and
/// the median times.
fn per_pose_medians() {
    let time = |f: &mut dyn FnMut()| {
        const REPEATS: u32 = 200;
        (0..7)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..REPEATS {
                    f();
                }
                start.elapsed().as_secs_f64() / f64::from(REPEATS)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        0.5 * (v[(n - 1) / 2] + v[n / 2])
    };
    println!("\nper pose (fastest of 7 batches of 200), medians over the category's poses:");
    println!(
        "{:<30} {:>10} {:>10} {:>14}",
        "category", "ours µs", "parry µs", "median ratio"
    );
    for (name, a, b, poses) in categories() {
        let (pa, pb) = (native(&a).unwrap(), native(&b).unwrap());
        let (mut ours_us, mut parry_us, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for pose in &poses {
            let pos12 = parry_pose(pose);
            let mut out: Vec<ContactManifold<(), ()>> = Vec::new();
            let t_ours = time(&mut || ours(&a, &b, pose));
            let t_parry = time(&mut || theirs((pa.as_ref(), pb.as_ref()), &pos12, &mut out));
            ours_us.push(t_ours * 1e6);
            parry_us.push(t_parry * 1e6);
            ratios.push(t_ours / t_parry);
        }
        println!(
            "{:<30} {:>10.3} {:>10.3} {:>14.2}",
            name,
            median(ours_us),
            median(parry_us),
            median(ratios)
        );
    }
}

criterion_group!(benches, manifolds);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // Not while profiling one benchmark (perf would see every category's poses).
    if !std::env::args().any(|a| a == "--profile-time") {
        per_pose_medians();
    }
}
