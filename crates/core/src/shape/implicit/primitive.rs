//! Convex implicit primitives `f(u) ≤ 0` in their own frame, with the value, gradient
//! and Hessian the interior-point method needs (Chakraborty et al., "Proximity Queries
//! between Convex Objects: An Interior Point Approach for Implicit Surfaces",
//! docs/algorithms.md, "Interior point for implicit shapes"). Each `f` is convex on all of
//! R³ and of order 1 near the boundary.
//!
//! Terms `|v|^n` with `1 ≤ n < 2` have no second derivative at `v = 0` (Chakraborty et al.'s
//! object I, where KNITRO failed; at `n = 1` not even a first). The solver sees them
//! smoothed, `(v² + δ²)^{n/2} − δ^n` with `δ = SMOOTHING`: smooth, convex, and between
//! `|v|^n − δ^n` and `|v|^n` (subadditivity of `t ↦ t^{n/2}`), so the smoothed body
//! contains the true one and lies within a relative `~δ^n` of it. The cone's axis is
//! smoothed the same way. Distances found on the smoothed bodies are then certified on
//! the true ones ([`Primitive::exact_value`]): the lower bound holds as it is (a larger
//! body is nearer), the upper bound is taken at points pulled inside the true bodies.

use glam::{DMat3, DVec3};

/// The smoothing of `|v|^n` for `n < 2` and of the cone's radial distance (in the
/// primitive's own units: `v = u_i / a_i` for a superquadric).
pub const SMOOTHING: f64 = 1e-9;

/// One term `|h·u + c|^n` of a hyperquadric.
#[derive(Clone, Debug, PartialEq)]
pub struct HyperTerm {
    pub normal: DVec3,
    pub offset: f64,
    pub exponent: f64,
}

/// A convex primitive in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Primitive {
    /// `n·u ≤ d` (n need not be unit; it is normalised at construction).
    HalfSpace { normal: DVec3, offset: f64 },
    /// `uᵀQu + b·u + c ≤ 0`, Q symmetric positive semi-definite (ellipsoids, spheres,
    /// a cylinder's side).
    Quadric { q: DMat3, b: DVec3, c: f64 },
    /// `Σ |u_i / a_i|^{n_i} ≤ 1`, one exponent `n_i ≥ 1` per axis.
    Superquadric { radii: DVec3, exponents: DVec3 },
    /// `Σ_i |h_i·u + c_i|^{n_i} ≤ 1`, `n_i ≥ 1`.
    Hyperquadric { terms: Vec<HyperTerm> },
    /// A cone along y with its apex at `y = h` and radius `r` at `y = −h`, without its
    /// base plane: `√(u_x² + u_z²) ≤ r (h − u_y) / 2h`.
    ConeSide { radius: f64, half_height: f64 },
    /// A capsule along y: the distance to the segment `|u_y| ≤ h` at most `r`, as
    /// `(dist² − r²) / r² ≤ 0`.
    Capsule { radius: f64, half_height: f64 },
}

/// `f`, `∇f` and `∇²f` at one point.
#[derive(Clone, Copy, Debug)]
pub struct Eval {
    pub value: f64,
    pub gradient: DVec3,
    pub hessian: DMat3,
}

/// `|v|^n` (smoothed for `n < 2`) with its first and second derivative.
fn power(v: f64, n: f64) -> (f64, f64, f64) {
    if n == 2.0 {
        return (v * v, 2.0 * v, 2.0);
    }
    if n < 2.0 {
        // g = q^{n/2} − δ^n, q = v² + δ²: g' = n v q^{n/2−1}, g'' = n q^{n/2−2} ((n−1) v² + δ²).
        let d2 = SMOOTHING * SMOOTHING;
        let q = v * v + d2;
        let half = q.powf(0.5 * n - 1.0);
        let value = half * q - SMOOTHING.powf(n);
        return (value, n * v * half, n * half / q * ((n - 1.0) * v * v + d2));
    }
    // One power for all three: p = |v|^{n−2}.
    let a = v.abs();
    if a == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let p = a.powf(n - 2.0);
    (p * a * a, n * p * v, n * (n - 1.0) * p)
}

/// `|v|^n` as `power` smooths it, without derivatives (one power).
fn power_value(v: f64, n: f64) -> f64 {
    if n == 2.0 {
        v * v
    } else if n < 2.0 {
        (v * v + SMOOTHING * SMOOTHING).powf(0.5 * n) - SMOOTHING.powf(n)
    } else {
        v.abs().powf(n)
    }
}

impl Primitive {
    /// `Σ |u_i / a_i|^{n_i} ≤ 1` from the files' arrays.
    pub fn superquadric(radii: [f64; 3], exponents: [f64; 3]) -> Self {
        Primitive::Superquadric {
            radii: DVec3::from_array(radii),
            exponents: DVec3::from_array(exponents),
        }
    }

    /// The value of the true, unsmoothed function (certificates use it).
    pub fn exact_value(&self, u: DVec3) -> f64 {
        match self {
            Primitive::Superquadric { radii, exponents } => {
                (0..3)
                    .map(|i| (u[i] / radii[i]).abs().powf(exponents[i]))
                    .sum::<f64>()
                    - 1.0
            }
            Primitive::Hyperquadric { terms } => {
                terms
                    .iter()
                    .map(|t| (t.normal.dot(u) + t.offset).abs().powf(t.exponent))
                    .sum::<f64>()
                    - 1.0
            }
            Primitive::ConeSide {
                radius,
                half_height,
            } => {
                let k = radius / (2.0 * half_height);
                ((u.x * u.x + u.z * u.z).sqrt() - k * (half_height - u.y)) / radius
            }
            _ => self.value(u),
        }
    }

    /// The value alone (cheaper: no derivatives).
    pub fn value(&self, u: DVec3) -> f64 {
        match self {
            Primitive::HalfSpace { normal, offset } => normal.dot(u) - offset,
            Primitive::Quadric { q, b, c } => u.dot(*q * u) + b.dot(u) + c,
            Primitive::Superquadric { radii, exponents } => {
                (0..3)
                    .map(|i| power_value(u[i] / radii[i], exponents[i]))
                    .sum::<f64>()
                    - 1.0
            }
            Primitive::Hyperquadric { terms } => {
                terms
                    .iter()
                    .map(|t| power_value(t.normal.dot(u) + t.offset, t.exponent))
                    .sum::<f64>()
                    - 1.0
            }
            _ => self.eval(u).value,
        }
    }

    /// Value, gradient and Hessian at the local point `u`.
    pub fn eval(&self, u: DVec3) -> Eval {
        match self {
            Primitive::HalfSpace { normal, offset } => Eval {
                value: normal.dot(u) - offset,
                gradient: *normal,
                hessian: DMat3::ZERO,
            },
            Primitive::Quadric { q, b, c } => Eval {
                value: u.dot(*q * u) + b.dot(u) + c,
                gradient: 2.0 * (*q * u) + *b,
                hessian: 2.0 * *q,
            },
            Primitive::Superquadric { radii, exponents } => {
                let mut e = Eval {
                    value: -1.0,
                    gradient: DVec3::ZERO,
                    hessian: DMat3::ZERO,
                };
                for i in 0..3 {
                    let (v, d1, d2) = power(u[i] / radii[i], exponents[i]);
                    e.value += v;
                    e.gradient[i] = d1 / radii[i];
                    e.hessian.col_mut(i)[i] = d2 / (radii[i] * radii[i]);
                }
                e
            }
            Primitive::Hyperquadric { terms } => {
                let mut e = Eval {
                    value: -1.0,
                    gradient: DVec3::ZERO,
                    hessian: DMat3::ZERO,
                };
                for t in terms {
                    let (v, d1, d2) = power(t.normal.dot(u) + t.offset, t.exponent);
                    e.value += v;
                    e.gradient += d1 * t.normal;
                    e.hessian += outer(t.normal, t.normal) * d2;
                }
                e
            }
            Primitive::ConeSide {
                radius,
                half_height,
            } => {
                let k = radius / (2.0 * half_height);
                let rho = (u.x * u.x + u.z * u.z + SMOOTHING * SMOOTHING).sqrt();
                let radial = DVec3::new(u.x, 0.0, u.z) / rho;
                // ∇²ρ = (I_xz − r̂ r̂ᵀ) / ρ on the xz-plane.
                let mut hessian = DMat3::from_diagonal(DVec3::new(1.0, 0.0, 1.0)) / rho;
                hessian -= outer(radial, radial) / rho;
                Eval {
                    value: (rho - SMOOTHING - k * (half_height - u.y)) / radius,
                    gradient: (radial + DVec3::new(0.0, k, 0.0)) / radius,
                    hessian: hessian / radius,
                }
            }
            Primitive::Capsule {
                radius,
                half_height,
            } => {
                let nearest = DVec3::new(0.0, u.y.clamp(-half_height, *half_height), 0.0);
                let d = u - nearest;
                let r2 = radius * radius;
                let on_side = u.y.abs() < *half_height;
                let hessian = if on_side {
                    DMat3::from_diagonal(DVec3::new(2.0, 0.0, 2.0))
                } else {
                    DMat3::from_diagonal(DVec3::splat(2.0))
                };
                Eval {
                    value: (d.length_squared() - r2) / r2,
                    gradient: 2.0 * d / r2,
                    hessian: hessian / r2,
                }
            }
        }
    }

    /// A box around the primitive's points in its frame, `None` when unbounded (a
    /// half-space, a degenerate quadric, a hyperquadric whose normals do not span).
    pub fn local_bounds(&self) -> Option<(DVec3, DVec3)> {
        match self {
            Primitive::HalfSpace { .. } => None,
            Primitive::Quadric { q, b, c } => {
                // Centre u0 = −Q⁻¹b/2; the set is (u−u0)ᵀQ(u−u0) ≤ k; half-widths √(k Q⁻¹_ii).
                let inverse = invert_spd(*q)?;
                let centre = -0.5 * (inverse * *b);
                let k = centre.dot(*q * centre) - c;
                if k < 0.0 {
                    return None;
                }
                let half = DVec3::new(inverse.x_axis.x, inverse.y_axis.y, inverse.z_axis.z)
                    .max(DVec3::ZERO)
                    * k;
                let half = DVec3::new(half.x.sqrt(), half.y.sqrt(), half.z.sqrt());
                Some((centre - half, centre + half))
            }
            Primitive::Superquadric { radii, .. } => Some((-*radii, *radii)),
            Primitive::Hyperquadric { terms } => hyperquadric_bounds(terms),
            Primitive::ConeSide {
                radius,
                half_height,
            } => {
                // Unbounded below (the base plane closes it); bounded above by the apex.
                let _ = (radius, half_height);
                None
            }
            Primitive::Capsule {
                radius,
                half_height,
            } => {
                let half = DVec3::new(*radius, half_height + radius, *radius);
                Some((-half, half))
            }
        }
    }
}

pub fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// The inverse of a symmetric positive definite matrix, `None` when (near) singular.
fn invert_spd(q: DMat3) -> Option<DMat3> {
    let det = q.determinant();
    let scale = q.x_axis.length() * q.y_axis.length() * q.z_axis.length();
    (det > 1e-14 * scale).then(|| q.inverse())
}

/// Every term has `|h_i·u + c_i| ≤ 1`, so for three independent normals `H`,
/// `u = H⁻¹(w − c)` with `|w| ≤ 1`: a box; the smallest over all triples.
fn hyperquadric_bounds(terms: &[HyperTerm]) -> Option<(DVec3, DVec3)> {
    let mut best: Option<(DVec3, DVec3)> = None;
    for i in 0..terms.len() {
        for j in i + 1..terms.len() {
            for k in j + 1..terms.len() {
                let (a, b, c) = (&terms[i], &terms[j], &terms[k]);
                let h = DMat3::from_cols(a.normal, b.normal, c.normal).transpose();
                let det = h.determinant();
                let scale = a.normal.length() * b.normal.length() * c.normal.length();
                if det.abs() <= 1e-12 * scale {
                    continue;
                }
                let inverse = h.inverse();
                let centre = -(inverse * DVec3::new(a.offset, b.offset, c.offset));
                let rows = inverse.transpose();
                let half = DVec3::new(
                    rows.x_axis.abs().element_sum(),
                    rows.y_axis.abs().element_sum(),
                    rows.z_axis.abs().element_sum(),
                );
                let candidate = (centre - half, centre + half);
                best = Some(match best {
                    Some((lo, hi)) => (lo.max(candidate.0), hi.min(candidate.1)),
                    None => candidate,
                });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central differences of the value against the gradient, and of the gradient
    /// against the Hessian (away from the capped and smoothed places).
    fn check_derivatives(p: &Primitive, u: DVec3) {
        let h = 1e-6;
        let e = p.eval(u);
        for i in 0..3 {
            let mut step = DVec3::ZERO;
            step[i] = h;
            let (plus, minus) = (p.eval(u + step), p.eval(u - step));
            let slope = (plus.value - minus.value) / (2.0 * h);
            assert!(
                (slope - e.gradient[i]).abs() < 1e-5 * (1.0 + slope.abs()),
                "{p:?} at {u}: ∂{i} {slope} vs {}",
                e.gradient[i]
            );
            let column = (plus.gradient - minus.gradient) / (2.0 * h);
            let exact = e.hessian.col(i);
            assert!(
                (column - exact).length() < 1e-4 * (1.0 + column.length()),
                "{p:?} at {u}: ∇²[{i}] {column} vs {exact}"
            );
        }
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let u = DVec3::new(0.31, -0.22, 0.17);
        let primitives = [
            Primitive::HalfSpace {
                normal: DVec3::new(0.6, 0.0, 0.8),
                offset: 0.3,
            },
            Primitive::Quadric {
                q: DMat3::from_diagonal(DVec3::new(1.0, 4.0, 9.0)),
                b: DVec3::new(0.1, 0.0, -0.2),
                c: -1.0,
            },
            Primitive::Superquadric {
                radii: DVec3::new(1.0, 0.7, 1.5),
                exponents: DVec3::new(4.0 / 3.0, 7.0 / 5.0, 15.0 / 13.0),
            },
            Primitive::Superquadric {
                radii: DVec3::new(1.0, 1.0, 1.5),
                exponents: DVec3::new(76.0 / 9.0, 71.0 / 5.0, 2.0),
            },
            Primitive::Hyperquadric {
                terms: vec![
                    HyperTerm {
                        normal: DVec3::Y,
                        offset: 0.1,
                        exponent: 16.0,
                    },
                    HyperTerm {
                        normal: DVec3::new(1.0, 0.5, 0.0),
                        offset: 0.0,
                        exponent: 1.5,
                    },
                    HyperTerm {
                        normal: DVec3::new(0.0, 0.0, 2.5),
                        offset: -0.2,
                        exponent: 2.0,
                    },
                ],
            },
            Primitive::ConeSide {
                radius: 0.5,
                half_height: 0.8,
            },
            Primitive::Capsule {
                radius: 0.4,
                half_height: 0.1,
            },
            Primitive::Capsule {
                radius: 0.4,
                half_height: 0.5,
            },
        ];
        for p in &primitives {
            check_derivatives(p, u);
        }
    }

    #[test]
    fn bounds_hold_the_boundary() {
        // Boundary points along many directions stay inside the stated box.
        let hyper = Primitive::Hyperquadric {
            terms: vec![
                HyperTerm {
                    normal: DVec3::Y,
                    offset: 0.0,
                    exponent: 16.0,
                },
                HyperTerm {
                    normal: DVec3::new(1.0, 0.5, 0.0),
                    offset: 0.0,
                    exponent: 16.0,
                },
                HyperTerm {
                    normal: DVec3::new(1.0, -0.5, 0.0),
                    offset: 0.0,
                    exponent: 16.0,
                },
                HyperTerm {
                    normal: DVec3::new(0.0, 0.0, 2.5),
                    offset: 0.0,
                    exponent: 2.0,
                },
            ],
        };
        let (lo, hi) = hyper.local_bounds().unwrap();
        let mut rng = crate::rng::SplitMix64::new(1);
        for _ in 0..500 {
            let d = rng.unit_vector();
            // Bisect for the boundary along d from the centre (inside).
            let (mut a, mut b) = (0.0, 10.0);
            for _ in 0..80 {
                let m = 0.5 * (a + b);
                if hyper.value(d * m) <= 0.0 {
                    a = m;
                } else {
                    b = m;
                }
            }
            let p = d * a;
            assert!(
                p.cmpge(lo - 1e-12).all() && p.cmple(hi + 1e-12).all(),
                "{p}"
            );
        }
    }
}
