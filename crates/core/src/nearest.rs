//! Nearest points in closed form: of a segment or a triangle to a point, and of two
//! segments (Ericson, "Real-Time Collision Detection", §5.1). The mesh midphase prunes
//! triangle pairs with them; a contact manifold's certificate bounds a point's distance
//! to the face it was clipped from with them. Each answer is a convex combination of the
//! corners given, so it lies in any convex shape that holds them.

use glam::DVec3;

/// The nearest points of segments `[p1, q1]` and `[p2, q2]` (Ericson, "Real-Time
/// Collision Detection", §5.1.9), degenerate segments included.
pub fn nearest_on_segments(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (DVec3, DVec3) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let (s, t);
    if a <= f64::MIN_POSITIVE && e <= f64::MIN_POSITIVE {
        return (p1, p2);
    }
    if a <= f64::MIN_POSITIVE {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= f64::MIN_POSITIVE {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// The point of triangle `[a, b, c]` nearest `p`, by the Voronoi regions of its corners,
/// edges and face (Ericson, "Real-Time Collision Detection", §5.1.5).
pub fn nearest_on_triangle(p: DVec3, [a, b, c]: [DVec3; 3]) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom == 0.0 || denom.is_nan() {
        // A collapsed triangle (its corners on a line or at one point): the nearest
        // point of its three sides.
        return [(a, b), (b, c), (c, a)]
            .into_iter()
            .map(|(x, y)| nearest_on_segment(p, x, y))
            .min_by(|x, y| {
                (*x - p)
                    .length_squared()
                    .total_cmp(&(*y - p).length_squared())
            })
            .unwrap_or(a);
    }
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// The point of segment `[a, b]` nearest `p` (`a` when the segment is a point).
pub fn nearest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let length2 = ab.length_squared();
    if length2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / length2).clamp(0.0, 1.0)
}
