//! A primitive geom naming a mesh (`<geom type="capsule" mesh="arm"/>`) is sized from
//! the mesh, as MuJoCo's compiler sizes it (`mjCMesh::FitGeom`): the mesh's volume
//! inertia about its centre of mass, in its principal axes, gives an equivalent box,
//! and the primitive takes that box's sizes (the default), or the mesh's bounding box
//! in those axes (`<compiler fitaabb="true">`); `fitscale` scales the result. The geom
//! sits at the mesh's centre of mass, turned onto its principal axes.
//!
//! The inertia is the convex hull's (MuJoCo's `inertia="convex"`; its default `legacy`
//! gives the same for a convex mesh and for inline vertices, which MuJoCo hulls too).

use glam::{DMat3, DQuat, DVec3};

use crate::shape::{AffineDimension, Polytope};

/// A fitted primitive: MuJoCo's three sizes, and the geom's offset in its own frame.
pub(super) struct Fit {
    pub(super) size: [f64; 3],
    pub(super) rotation: DQuat,
    pub(super) translation: DVec3,
}

/// The volume, centre of mass and inertia (about that centre, per unit density) of the
/// convex hull of `points`, by MuJoCo's pyramid sums over the hull's triangles.
fn hull_inertia(points: &[DVec3]) -> Result<(f64, DVec3, DMat3, Vec<DVec3>), String> {
    let hull = Polytope::from_points(points).map_err(|e| e.to_string())?;
    if hull.dimension() != AffineDimension::Solid {
        return Err("the mesh is flat: it has no volume to fit a geom to".into());
    }
    let v = hull.vertices();
    let triangles: Vec<[DVec3; 3]> = hull
        .faces()
        .iter()
        .map(|f| [v[f[0] as usize], v[f[1] as usize], v[f[2] as usize]])
        .collect();
    // The faces' area-weighted centroid: an inner point, the pyramids' apex.
    let (mut area_sum, mut facecen) = (0.0, DVec3::ZERO);
    for [a, b, c] in &triangles {
        let area = 0.5 * (*b - *a).cross(*c - *a).length();
        area_sum += area;
        facecen += area * (*a + *b + *c) / 3.0;
    }
    facecen /= area_sum;
    let pyramid = |apex: DVec3, [a, b, c]: [DVec3; 3]| {
        let cross = (b - a).cross(c - a);
        ((a + b + c) / 3.0 - apex).dot(cross).abs() / 6.0
    };
    let (mut volume, mut com) = (0.0, DVec3::ZERO);
    for t in &triangles {
        let vol = pyramid(facecen, *t);
        volume += vol;
        com += vol * ((t[0] + t[1] + t[2]) / 3.0 * 0.75 + facecen * 0.25);
    }
    if volume.is_nan() || volume <= 0.0 {
        return Err("the mesh has no volume to fit a geom to".into());
    }
    com /= volume;
    // Second moments of each pyramid from the centre of mass (Tonon's formula, C = 20).
    let mut p = [[0.0f64; 3]; 3];
    for t in &triangles {
        let [d, e, f] = [t[0] - com, t[1] - com, t[2] - com];
        let vol = pyramid(DVec3::ZERO, [d, e, f]);
        for r in 0..3 {
            for s in 0..3 {
                p[r][s] += vol / 20.0
                    * (2.0 * (d[r] * d[s] + e[r] * e[s] + f[r] * f[s])
                        + d[r] * e[s]
                        + d[s] * e[r]
                        + d[r] * f[s]
                        + d[s] * f[r]
                        + e[r] * f[s]
                        + e[s] * f[r]);
            }
        }
    }
    let trace = p[0][0] + p[1][1] + p[2][2];
    let inertia = DMat3::from_cols_array_2d(&[
        [trace - p[0][0], -p[0][1], -p[0][2]],
        [-p[1][0], trace - p[1][1], -p[1][2]],
        [-p[2][0], -p[2][1], trace - p[2][2]],
    ]);
    Ok((volume, com, inertia, v.to_vec()))
}

/// The eigenvalues of a symmetric 3×3 matrix, largest first (MuJoCo's order), and
/// their eigenvectors as a right-handed rotation's columns (cyclic Jacobi).
fn principal_axes(m: DMat3) -> ([f64; 3], DMat3) {
    // a[i][j]: row i, column j (symmetric); v's columns become the eigenvectors.
    let mut a = m.to_cols_array_2d();
    let mut v = DMat3::IDENTITY.to_cols_array_2d();
    for _ in 0..64 {
        let off = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
        let diagonal = a[0][0].powi(2) + a[1][1].powi(2) + a[2][2].powi(2);
        if off <= 1e-32 * diagonal {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            // The turn that zeroes a[p][q] (Numerical Recipes' Jacobi rotation).
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = if theta == 0.0 {
                1.0
            } else {
                theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
            };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut().chain(v.iter_mut()) {
                let (kp, kq) = (row[p], row[q]);
                row[p] = c * kp - s * kq;
                row[q] = s * kp + c * kq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * row_p[k] - s * row_q[k];
                a[q][k] = s * row_p[k] + c * row_q[k];
            }
        }
    }
    let mut order = [0usize, 1, 2];
    order.sort_by(|&x, &y| a[y][y].total_cmp(&a[x][x]));
    let values = order.map(|k| a[k][k]);
    let column = |k: usize| DVec3::new(v[0][k], v[1][k], v[2][k]);
    let mut cols = order.map(column);
    if cols[0].cross(cols[1]).dot(cols[2]) < 0.0 {
        cols[2] = -cols[2];
    }
    (values, DMat3::from_cols(cols[0], cols[1], cols[2]))
}

/// The primitive `kind` fitted to the mesh `points` (MuJoCo's `FitGeom`).
pub(super) fn fit(points: &[DVec3], kind: &str, fitaabb: bool, scale: f64) -> Result<Fit, String> {
    let (volume, com, inertia, vertices) = hull_inertia(points)?;
    let (eig, axes) = principal_axes(inertia);
    let rotation = DQuat::from_mat3(&axes).normalize();
    let mut translation = com;
    let size = if !fitaabb {
        let side = |i: usize, j: usize, k: usize| {
            0.5 * (6.0 * (eig[j] + eig[k] - eig[i]) / volume).max(0.0).sqrt()
        };
        let b = [side(0, 1, 2), side(1, 0, 2), side(2, 0, 1)];
        match kind {
            "sphere" => [(b[0] + b[1] + b[2]) / 3.0, 0.0, 0.0],
            "capsule" => {
                let r = (b[0] + b[1]) / 2.0;
                [r, (b[2] - r / 2.0).max(0.0), 0.0]
            }
            "cylinder" => [(b[0] + b[1]) / 2.0, b[2], 0.0],
            _ => b,
        }
    } else {
        // The vertices in the principal frame, about the centre of mass.
        let local: Vec<DVec3> = vertices
            .iter()
            .map(|p| axes.transpose() * (*p - com))
            .collect();
        let (lo, hi) = local.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let cen = (lo + hi) / 2.0;
        // The geom sits at the box's centre (MuJoCo 4 turns it out of the principal
        // frame; checked against its compiled geom_pos).
        translation += axes * cen;
        aabb_sizes(hi - cen, kind)
    };
    Ok(Fit {
        size: size.map(|s| s * scale),
        rotation,
        translation,
    })
}

/// MuJoCo's sizes from the bounding box (`fitaabb`, as MuJoCo 3.3 and 4 compile it):
/// half its sides for a box or an ellipsoid, the largest for a sphere, a capsule's or a
/// cylinder's radius the larger of x and y, the cylinder's half length z, the
/// capsule's z less its radius (its caps end at the box).
fn aabb_sizes(half: DVec3, kind: &str) -> [f64; 3] {
    let radius = half.x.max(half.y);
    match kind {
        "sphere" => [half.max_element(), 0.0, 0.0],
        "capsule" => [radius, (half.z - radius).max(0.0), 0.0],
        "cylinder" => [radius, half.z, 0.0],
        _ => half.to_array(),
    }
}
