//! Whether an engine's convex object, given by its points and the triangles it was
//! built with (Coal's `Convex(points, polygons)`), is convex: a non-convex one is what
//! Coal's hill-climbing GJK can answer wrongly on.

use glam::DVec3;

/// Where an engine's convex object built from `polygons` over `points` is not convex:
/// the vertex farthest beyond the plane of one of its polygons, on the side away from
/// the rest (a convex polytope has every point on one side of each face's plane), as
/// `(vertex, polygon, height)`; `None` when convex within round-off. The Python
/// package asks it when a Coal `Convex` comes in, the Coal export when it writes one.
pub fn convexity_defect(points: &[[f64; 3]], polygons: &[[u32; 3]]) -> Option<(usize, usize, f64)> {
    if points.len() < 4 {
        return None;
    }
    let p: Vec<DVec3> = points.iter().map(|q| DVec3::from_array(*q)).collect();
    let scale = p.iter().map(|q| q.abs().max_element()).fold(1.0, f64::max);
    let mut worst: Option<(usize, usize, f64)> = None;
    for (f, t) in polygons.iter().enumerate() {
        // A polygon naming a point it does not have says nothing (a scene refuses it).
        let (Some(&a), Some(&b), Some(&c)) = (
            p.get(t[0] as usize),
            p.get(t[1] as usize),
            p.get(t[2] as usize),
        ) else {
            continue;
        };
        let Some(normal) = (b - a).cross(c - a).try_normalize() else {
            continue;
        };
        let (mut above, mut below) = ((0usize, 0.0f64), (0usize, 0.0f64));
        for (k, q) in p.iter().enumerate() {
            let h = normal.dot(*q - a);
            if h > above.1 {
                above = (k, h);
            }
            if -h > below.1 {
                below = (k, -h);
            }
        }
        // Points on both sides: the smaller excursion is the defect there.
        let defect = if above.1 <= below.1 { above } else { below };
        if defect.1 > 1e-9 * scale && worst.is_none_or(|w| defect.1 > w.2) {
            worst = Some((defect.0, f, defect.1));
        }
    }
    worst
}
