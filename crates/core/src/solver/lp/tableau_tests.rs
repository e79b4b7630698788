use super::*;

#[test]
fn finds_a_feasible_point_or_proves_there_is_none() {
    // x + y = 1, x − y = 0.5: x = 0.75, y = 0.25.
    let mut t = Tableau::new(&[1.0, 1.0, 1.0, -1.0], &[1.0, 0.5], 2);
    let (end, pivots) = t.solve(|_, _| {});
    assert_eq!(end, Phase1::Optimal);
    assert!(pivots >= 2 && t.objective().abs() < 1e-15);
    let x = t.solution();
    assert!((x[0] - 0.75).abs() < 1e-15 && (x[1] - 0.25).abs() < 1e-15);
    // x + y = 1, x + y = 2: infeasible, optimum 1 (the duals certify it).
    let mut t = Tableau::new(&[1.0, 1.0, 1.0, 1.0], &[1.0, 2.0], 2);
    t.solve(|_, _| {});
    assert!((t.objective() - 1.0).abs() < 1e-15);
    let y = t.duals();
    // yᵀA ≤ 0 on every column (no column can improve), yᵀb = the optimum.
    assert!(y[0] + y[1] <= 1e-15);
    assert!((y[0] * 1.0 + y[1] * 2.0 - 1.0).abs() < 1e-15);
}

fn collision_tableau(a: &[[f64; 3]], b: &[[f64; 3]], ties: TieRule) -> Tableau {
    let points = |ps: &[[f64; 3]]| {
        ps.iter()
            .map(|p| glam::DVec3::from_array(*p))
            .collect::<Vec<_>>()
    };
    let mut t = crate::solver::lp::collision_tableau(&points(a), &points(b));
    t.ties = ties;
    t
}

#[test]
fn without_the_safeguard_cancellation_corrupts_the_tableau() {
    // Points of a 3 × 3 × 3 lattice jittered by 5e-10 (near ties everywhere), found
    // by a search over 200 000 such inputs: plain Bland (the
    // smallest basic index among ratio ties) pivots on a tiny element here and its
    // objective, a sum of non-negative artificials, comes out at −4.8e-7: round-off
    // has taken over (2.5 % of those inputs; none cycled to the cap with either
    // rule). The largest-pivot safeguard keeps the objective a sum of non-negative
    // numbers, within round-off.
    let a = [
        [2.0000000004618594, 1.9999999997857298, 1.0000000004928182],
        [
            1.9999999995754139,
            3.320792354155565e-10,
            -3.6259178735221523e-10,
        ],
        [
            -1.1183722934482533e-10,
            4.900825526969993e-10,
            2.0000000003876126,
        ],
        [2.00000000014071, 2.9776461267049995e-10, 1.0000000004161365],
        [
            0.9999999997375808,
            2.0095530625642634e-10,
            -1.4277258348233513e-10,
        ],
        [0.9999999999758425, 0.999999999556177, 1.99999999985109],
        [
            1.999999999857426,
            -2.133809365970786e-10,
            1.9999999998993316,
        ],
    ];
    let b = [
        [1.0000000003607123, 1.0000000004189524, 2.000000000031596],
        [
            3.541184577579382e-10,
            1.9999999997627271,
            1.0000000004894558,
        ],
        [2.0000000003098206, 2.000000000341306, 1.0000000002819518],
        [2.000000000145582, 1.0000000002590068, 1.999999999572939],
    ];
    let mut plain = collision_tableau(&a, &b, TieRule::SmallestIndex);
    plain.solve(|_, _| {});
    assert!(plain.objective() < -1e-8, "{}", plain.objective());
    let mut safe = collision_tableau(&a, &b, TieRule::LargestPivot);
    safe.solve(|_, _| {});
    assert!(safe.objective() > -1e-12, "{}", safe.objective());
    assert!(safe.solution().iter().all(|x| *x > -1e-9));
}

/// Run to the end; whether some basis came back (a cycle) and the last pivot's rule.
fn run(t: &mut Tableau) -> (Phase1, bool, Vec<TieRule>) {
    let mut seen = std::collections::HashSet::new();
    let mut repeated = false;
    let mut rules = Vec::new();
    let (end, _) = t.solve(|t, pivot| {
        let mut basis = t.basis.clone();
        basis.sort_unstable();
        repeated |= !seen.insert(basis);
        rules.push(pivot.rule);
    });
    (end, repeated, rules)
}

/// GJK's distance between the hulls (the independent verdict).
fn gjk_distance(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    use crate::minkowski::MinkowskiDifference;
    use crate::pose::RelativePose;
    use crate::shape::{Polytope, Shape};
    use crate::solver::{solve, Algorithm, DirectionRule, SolverSettings};
    let shape = |ps: &[[f64; 3]]| {
        let points: Vec<_> = ps.iter().map(|p| glam::DVec3::from_array(*p)).collect();
        Shape::Polytope(Polytope::from_points(&points).unwrap())
    };
    let (sa, sb) = (shape(a), shape(b));
    let pose = RelativePose::from_matrix(glam::DMat3::IDENTITY, glam::DVec3::ZERO);
    let settings = SolverSettings {
        tolerance: 1e-12,
        max_iterations: 1000,
        ..SolverSettings::default()
    };
    let md = MinkowskiDifference::new(&sa, &sb, pose);
    let outcome = solve(Algorithm::Gjk(DirectionRule::Vanilla), md, settings).outcome;
    outcome.distance().unwrap()
}

#[test]
fn kreuzers_rule_as_written_cycles_where_the_safeguard_does_not() {
    // Lattice points of spacing 1e-3 jittered by 5e-7 (found by a search over 100 000
    // degenerate inputs at scales 1e-3 … 1e3): Kreuzer's absolute ε = 1e-4 lets a row
    // whose ratio is not the minimum leave, a right-hand side goes negative, and the
    // Kreuzer's rule visits the same basis again and again until its cap.
    let mut kreuzer = collision_tableau(
        &KREUZER_CYCLES_A,
        &KREUZER_CYCLES_B,
        TieRule::KreuzerAsWritten,
    );
    let (end, repeated, _) = run(&mut kreuzer);
    assert_eq!(end, Phase1::PivotCap);
    assert!(repeated);
    // The safeguard ends at the optimum, and the objective says "apart" as GJK does.
    let mut safe = collision_tableau(&KREUZER_CYCLES_A, &KREUZER_CYCLES_B, TieRule::LargestPivot);
    let (end, repeated, _) = run(&mut safe);
    assert_eq!((end, repeated), (Phase1::Optimal, false));
    let distance = gjk_distance(&KREUZER_CYCLES_A, &KREUZER_CYCLES_B);
    assert!(distance > 3e-4 && safe.objective() > 1e-6);
}

#[test]
fn a_repeated_basis_hands_the_safeguard_over_to_plain_bland() {
    // The largest pivot among ties is not Bland's leaving rule, so it can cycle: on
    // these lattice points at scale 1e3 (found by the same search) it came back to a
    // basis and, without the hand-over, pivoted to the cap. With it, the rest of the
    // run is plain Bland and ends at the optimum: apart, as GJK says.
    let mut t = collision_tableau(&REPEAT_A, &REPEAT_B, TieRule::LargestPivot);
    let (end, repeated, rules) = run(&mut t);
    assert_eq!(end, Phase1::Optimal);
    assert!(repeated);
    let switch = rules
        .iter()
        .position(|r| *r == TieRule::SmallestIndex)
        .unwrap();
    assert!(rules[switch..].iter().all(|r| *r == TieRule::SmallestIndex));
    assert!(gjk_distance(&REPEAT_A, &REPEAT_B) > 800.0 && t.objective() > 0.1);
    // The revised simplex follows the same rules to the same end.
    let points =
        |ps: &[[f64; 3]]| -> Vec<_> { ps.iter().map(|p| glam::DVec3::from_array(*p)).collect() };
    let mut revised = crate::solver::lp::collision_revised(&points(&REPEAT_A), &points(&REPEAT_B));
    let (end, _) = revised.solve(|_, _| {});
    assert_eq!(end, Phase1::Optimal);
    assert!(crate::solver::lp::pivoting::Phase1Solver::objective(&revised) > 0.1);
}

const KREUZER_CYCLES_A: [[f64; 3]; 9] = [
    [
        0.0010003784585153248,
        0.0020002924374972453,
        7.190991730695085e-8,
    ],
    [
        1.4802239154356255e-7,
        0.0019995266121903364,
        4.972080141875812e-7,
    ],
    [
        -3.501985824205599e-7,
        -3.730815373672263e-7,
        0.0009995401551856021,
    ],
    [
        0.0010004688036502152,
        0.000999731239792323,
        -1.220419670916816e-7,
    ],
    [
        -3.77567468739961e-7,
        0.001000288298413454,
        0.0010000532891329807,
    ],
    [
        -4.7145215669212496e-7,
        -1.9645657842581723e-7,
        0.0020004526438869596,
    ],
    [
        -3.0126465959112756e-7,
        -1.4212319326295465e-7,
        0.000999683814425499,
    ],
    [
        0.0020001231757607882,
        0.001999603921404322,
        3.0757675897583606e-7,
    ],
    [
        0.0010001374633069947,
        3.1374755682214515e-7,
        -4.921317182792293e-7,
    ],
];
const KREUZER_CYCLES_B: [[f64; 3]; 3] = [
    [
        0.0020002064074973063,
        0.0020002088965442267,
        0.0010003426961090489,
    ],
    [
        2.7217519133077184e-7,
        0.0020001136862703005,
        0.0010002598472944695,
    ],
    [
        0.002000277702025664,
        3.4950094436767623e-7,
        0.002000075821095886,
    ],
];
const REPEAT_A: [[f64; 3]; 8] = [
    [
        -7.207042773200623e-5,
        1000.0004984585769,
        -9.709025443485331e-5,
    ],
    [2000.00011033783, 2000.0004720713891, 2000.0004796966039],
    [1000.0003436256608, 1999.9996551638887, 1999.9996580557413],
    [999.9998146624669, 999.999972692045, -0.00019557307614688322],
    [
        -0.00041091233218620214,
        -0.0003504143931189055,
        8.987805869987253e-5,
    ],
    [
        0.00010754819706831353,
        999.9995396625332,
        0.00042729423969696713,
    ],
    [
        -9.76149520175551e-6,
        1000.0002131478034,
        -0.0003261553423819622,
    ],
    [
        -0.00014951895627362288,
        1000.0001495082886,
        999.9996771410658,
    ],
];
const REPEAT_B: [[f64; 3]; 8] = [
    [2999.999764848322, 1999.9995524996484, 1000.0001852669731],
    [2999.999637131338, 1000.0003544526639, 2000.0003730387666],
    [
        3999.999944195563,
        -8.405371145935659e-5,
        0.0004730288062481235,
    ],
    [
        2999.9997347416165,
        -0.000411320399621225,
        1999.9999678961271,
    ],
    [
        1999.9998114693117,
        -0.0001722005954128466,
        0.0003487357344050896,
    ],
    [2999.999771545459, 1999.9997961518334, 1000.0002504400976],
    [3000.000390546696, 1999.9997954206735, 1000.0003344189447],
    [2000.000171143133, 2000.0000275014668, 0.0004607642251475612],
];
