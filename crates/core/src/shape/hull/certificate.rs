//! A proof, in time near linear in the input, that a closed triangulated surface bounds
//! a convex polytope containing every input point: the check's fast path, which stands
//! in for testing every point against every face (quadratic: 6 s on 50 000 points on a
//! sphere).
//!
//! Convexity follows Mehlhorn, Näher, Schilz, Schirra, Seel, Seidel and Uhrig,
//! "Checking geometric programs or verification of geometric structures": a closed,
//! oriented surface is the boundary of a convex polytope when it is locally convex at
//! every edge, some point `o` lies strictly on the inner side of every face, and a ray
//! from `o` meets exactly one face. The ray here leaves `o` towards a corner of the
//! first face, pushed symbolically into that face (Edelsbrunner and Mücke, "Simulation
//! of Simplicity"), so it meets no edge or vertex and every test has a sign.
//!
//! Containment then costs a walk per point, not a pass over the faces: the cones from
//! `o` over the faces tile space, so a point lies in the polytope when it lies below
//! the face whose cone holds it (it is then in the tetrahedron of `o` and that face).
//! The cone is found by walking across edges towards the point (Devillers, Pion and
//! Teillaud, "Walking in a triangulation", the stochastic walk), starting from the last
//! face found for a nearby direction. Every decision is an exact orientation sign; the
//! walk only chooses which signs to compute, so a long walk is slow, never wrong.

use glam::DVec3;

use super::orientation::height;
use super::surface::Surface;

/// Why the fast proof could not be made (the caller then tests every point against
/// every face).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoCertificate {
    /// No tried point lies strictly inside every face.
    NoInteriorPoint,
    /// The ray from the interior point meets another face too (the surface winds
    /// around it more than once, or touches the ray).
    WindsTwice,
    /// Some edge folds inward.
    ReflexEdge { face: usize, edge: usize },
}

/// A surface proved to bound a convex polytope, with a point strictly inside it.
pub struct ConvexCertificate<'a> {
    points: &'a [DVec3],
    triangles: &'a [[usize; 3]],
    across: &'a [[usize; 3]],
    inside: DVec3,
    /// Each face's corners, side by side: walks read them in face order, not scattered
    /// over the input.
    corners: Vec<[DVec3; 3]>,
}

/// Proves that `triangles` (a closed surface with adjacency `surface`, outward) bound
/// a convex polytope.
pub fn certify_convex<'a>(
    points: &'a [DVec3],
    triangles: &'a [[usize; 3]],
    surface: &'a Surface,
) -> Result<ConvexCertificate<'a>, NoCertificate> {
    let inside = interior_point(points, triangles).ok_or(NoCertificate::NoInteriorPoint)?;
    let certificate = ConvexCertificate {
        points,
        triangles,
        across: &surface.across,
        inside,
        corners: triangles.iter().map(|t| t.map(|v| points[v])).collect(),
    };
    certificate.locally_convex()?;
    if certificate.faces_on_ray() != 1 {
        return Err(NoCertificate::WindsTwice);
    }
    Ok(certificate)
}

/// A point strictly inside every face, exactly: of the mean of the hull's vertices and
/// the centre of their bounding box, the one farthest from the nearest face plane (so
/// that the ball around it skips more walks); failing both, the mean of the first face
/// and the vertex farthest below it.
fn interior_point(points: &[DVec3], triangles: &[[usize; 3]]) -> Option<DVec3> {
    let below_all = |o: DVec3| {
        triangles
            .iter()
            .all(|t| height(points[t[0]], points[t[1]], points[t[2]], o) < 0.0)
    };
    let nearest_plane = |o: DVec3| {
        triangles
            .iter()
            .map(|t| {
                let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
                let n = (b - a).cross(c - a);
                n.dot(a - o) / n.length()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut is_vertex = vec![false; points.len()];
    for &v in triangles.iter().flatten() {
        is_vertex[v] = true;
    }
    let used: Vec<usize> = (0..points.len()).filter(|&i| is_vertex[i]).collect();
    let mean = used.iter().map(|&v| points[v]).sum::<DVec3>() / used.len() as f64;
    let (lo, hi) = used.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), &v| (lo.min(points[v]), hi.max(points[v])),
    );
    let centre = lo * 0.5 + hi * 0.5;
    let (first, second) = if nearest_plane(centre) > nearest_plane(mean) {
        (centre, mean)
    } else {
        (mean, centre)
    };
    if let Some(o) = [first, second].into_iter().find(|o| below_all(*o)) {
        return Some(o);
    }
    let t = triangles[0];
    let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
    let normal = (b - a).cross(c - a);
    let deepest = used
        .iter()
        .map(|&v| points[v])
        .min_by(|p, q| normal.dot(*p - a).total_cmp(&normal.dot(*q - a)))?;
    let centroid = (a + b + c + deepest) / 4.0;
    below_all(centroid).then_some(centroid)
}

impl ConvexCertificate<'_> {
    fn corners(&self, face: usize) -> [DVec3; 3] {
        self.corners[face]
    }

    /// Every edge is convex or flat: the far corner of the face across it is not above
    /// the face.
    fn locally_convex(&self) -> Result<(), NoCertificate> {
        for (face, t) in self.triangles.iter().enumerate() {
            let [a, b, c] = self.corners(face);
            for (edge, &g) in self.across[face].iter().enumerate() {
                if g < face {
                    continue; // each edge once
                }
                let (from, to) = (t[edge], t[(edge + 1) % 3]);
                let apex = self.triangles[g]
                    .into_iter()
                    .find(|&v| v != from && v != to);
                match apex {
                    Some(v) if height(a, b, c, self.points[v]) <= 0.0 => {}
                    _ => return Err(NoCertificate::ReflexEdge { face, edge }),
                }
            }
        }
        Ok(())
    }

    /// How many faces' cones (from the interior point) hold the ray towards the first
    /// face's first corner, pushed into that face: towards `a + ε(b − a) + ε²(c − a)`
    /// for an infinitesimal ε. A side test of that point is the first nonzero of the
    /// tests of `a`, `b` and `c` (the determinant is affine in the point); all three are
    /// zero only when the plane holds the whole first face, which a sound surface never
    /// has (that face would be seen edge-on from inside): the ray is then said to meet
    /// the face, and the proof fails.
    fn faces_on_ray(&self) -> usize {
        let [a, b, c] = self.corners(0);
        let o = self.inside;
        let side = |p: DVec3, q: DVec3| {
            [a, b, c]
                .into_iter()
                .map(|x| height(o, p, q, x))
                .find(|s| *s != 0.0)
                .unwrap_or(1.0)
        };
        (0..self.triangles.len())
            .filter(|&g| {
                let [p, q, r] = self.corners(g);
                side(p, q) > 0.0 && side(q, r) > 0.0 && side(r, p) > 0.0
            })
            .count()
    }

    /// The points (by index) not proved inside: those below no face whose cone holds
    /// them. Hull vertices are skipped (they lie on the proved boundary).
    pub fn points_not_proved_inside(&self) -> Vec<usize> {
        let mut is_vertex = vec![false; self.points.len()];
        for &v in self.triangles.iter().flatten() {
            is_vertex[v] = true;
        }
        let mut walk = Walk::new(self.triangles.len());
        let mut cells = DirectionCells::new(self.inside);
        let ball = self.inscribed_ball_squared();
        let half = self.inscribed_box();
        let mut unproved = Vec::new();
        // A cell no walk ended in yet starts from the last face found (the points of a
        // mesh come in runs of neighbours), not from face 0.
        let mut last_found = 0;
        for (i, &p) in self.points.iter().enumerate() {
            let offset = p - self.inside;
            if is_vertex[i] || offset.length_squared() < ball || offset.abs().cmplt(half).all() {
                continue;
            }
            let cell = cells.cell(p);
            let start = match cells.last_face[cell] {
                usize::MAX => last_found,
                face => face,
            };
            let found = self.walk_to_cone(&mut walk, start, p);
            match found {
                Some(face) => {
                    cells.last_face[cell] = face;
                    last_found = face;
                    let [a, b, c] = self.corners(face);
                    if height(a, b, c, p) > 0.0 {
                        unproved.push(i);
                    }
                }
                None => unproved.push(i),
            }
        }
        unproved
    }

    /// The squared radius of a ball around the interior point inside every face's
    /// plane: each face's float distance less its round-off slack (the bound the
    /// face-by-face test skips points with), the smallest, less a millionth. Points in
    /// it need no walk: the margin is a million times the rounding of a point's float
    /// distance to the centre.
    fn inscribed_ball_squared(&self) -> f64 {
        let size = self.size();
        let radius = (0..self.triangles.len())
            .map(|face| self.clearance(face, size).map_or(0.0, |(_, d)| d))
            .fold(f64::INFINITY, f64::min);
        if radius.is_finite() && radius > 0.0 {
            let radius = radius * (1.0 - 1e-6);
            radius * radius
        } else {
            0.0
        }
    }

    /// The diagonal of the points' bounding box: the size the faces' slack scales with.
    fn size(&self) -> f64 {
        let (lo, hi) = super::check::bounds(self.points);
        (hi - lo).length()
    }

    /// Face `face`'s unit normal and the interior point's float distance to its plane
    /// less the round-off slack the face-by-face test allows (`size` the points' extent);
    /// `None` for a face without area. The inscribed ball and box are both made of it.
    fn clearance(&self, face: usize, size: f64) -> Option<(DVec3, f64)> {
        let [a, b, c] = self.corners(face);
        let n = (b - a).cross(c - a);
        let area2 = n.length();
        if area2 <= 0.0 || area2.is_nan() {
            return None;
        }
        let slack = 64.0 * f64::EPSILON * size * ((b - a).length() * (c - a).length() / area2);
        Some((n / area2, n.dot(a - self.inside) / area2 - slack))
    }

    /// Half extents of a box around the interior point inside every face's plane, in
    /// the proportions of the hull's bounding box: the ball's test in the box's norm
    /// (each face's float distance less its round-off slack against the box's reach
    /// `|n|·h` towards it), with the same millionth less. A hull much wider than deep
    /// (a cube of points, a mesh) has a box far bigger than its ball.
    fn inscribed_box(&self) -> DVec3 {
        let (lo, hi) = super::check::bounds(self.points);
        let shape = (hi - lo) * 0.5;
        let size = (hi - lo).length();
        let scale = (0..self.triangles.len())
            .map(|face| {
                self.clearance(face, size)
                    .map_or(0.0, |(unit, d)| d / unit.abs().dot(shape))
            })
            .fold(f64::INFINITY, f64::min);
        if scale.is_finite() && scale > 0.0 {
            shape * (scale * (1.0 - 1e-6))
        } else {
            DVec3::ZERO
        }
    }

    /// The face whose closed cone from the interior point holds `p`, by a stochastic
    /// visibility walk from `start`; `None` after too many steps.
    fn walk_to_cone(&self, walk: &mut Walk, start: usize, p: DVec3) -> Option<usize> {
        let o = self.inside;
        let mut face = start;
        let mut came_from = usize::MAX;
        for _ in 0..walk.max_steps {
            let t = self.corners(face);
            let first = walk.next_offset();
            let mut next = None;
            for k in 0..3 {
                let edge = (first + k) % 3;
                let g = self.across[face][edge];
                if g == came_from {
                    continue; // p is strictly on this face's side of that plane
                }
                if height(o, t[edge], t[(edge + 1) % 3], p) < 0.0 {
                    next = Some(g);
                    break;
                }
            }
            match next {
                Some(g) => {
                    came_from = face;
                    face = g;
                }
                None => return Some(face),
            }
        }
        None
    }
}

/// The walk's step limit and its source of edge orders (a stochastic walk cannot cycle
/// for long; a fixed order can, on a triangulation that is not Delaunay).
struct Walk {
    max_steps: usize,
    state: u32,
}

impl Walk {
    fn new(faces: usize) -> Self {
        Self {
            max_steps: 64 + 4 * (faces as f64).sqrt() as usize,
            state: 0x9E37_79B9,
        }
    }

    fn next_offset(&mut self) -> usize {
        // xorshift32: any cheap sequence that is not periodic in 3 will do.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 17;
        self.state ^= self.state << 5;
        (self.state % 3) as usize
    }
}

/// Directions from the interior point, binned on the faces of a cube (6 × 16 × 16
/// cells), each remembering the last face a walk ended on: a walk starts near its goal.
struct DirectionCells {
    centre: DVec3,
    last_face: Vec<usize>,
}

const CELLS: usize = 16;

impl DirectionCells {
    fn new(centre: DVec3) -> Self {
        Self {
            centre,
            last_face: vec![usize::MAX; 6 * CELLS * CELLS],
        }
    }

    fn cell(&self, p: DVec3) -> usize {
        let d = p - self.centre;
        let a = d.abs();
        let (major, u, v) = if a.x >= a.y && a.x >= a.z {
            (0, d.y, d.z)
        } else if a.y >= a.z {
            (1, d.z, d.x)
        } else {
            (2, d.x, d.y)
        };
        let m = a[major];
        if m <= 0.0 || m.is_nan() {
            return 0;
        }
        let bin = |w: f64| (((w / m + 1.0) * 0.5 * CELLS as f64) as usize).min(CELLS - 1);
        let side = 2 * major + usize::from(d[major] < 0.0);
        (side * CELLS + bin(u)) * CELLS + bin(v)
    }
}
