//! The primal-dual barrier method every interior-point query runs (Chakraborty et al.,
//! "Proximity Queries between Convex Objects: An Interior Point Approach for Implicit
//! Surfaces"; docs/algorithms.md, "Interior point for implicit shapes"), on `N ≤ 7`
//! variables: a convex quadratic or linear
//! objective and the constraints of implicit bodies, each body's point an affine function
//! of the variables (`x = shift + S z`, plus `c·z` added to every value: phase 1's `−t`).
//!
//! Iterates stay strictly feasible (`F(z) < 0`, slacks `s = −F(z)`), so every `x` lies
//! in its body: the objective at an iterate is an upper bound. The Newton system is the
//! reduced `N × N` one, `G = ∇²f₀ + Σ λ_k ∇²F_k + Σ (λ_k / s_k) ∇F_k ∇F_kᵀ`, formed in
//! O(constraints) and solved by Cholesky; `Δλ` follows from the linearised
//! complementarity `λ_k s_k = μ`. Steps: fraction-to-the-boundary (τ = 0.995) on λ,
//! backtracking on the primal step until every constraint stays negative and the
//! barrier merit decreases (Armijo). μ is held until the barrier problem is solved to
//! 10 μ, then cut to min(μ/5, μ^1.5) (IPOPT's monotone mode); the multipliers are kept
//! within a band of μ / s_k.

use glam::DVec3;

use super::{outer, ImplicitBody};

/// A body whose point is `shift + S z` (`S` is 3 × N, row-major as three rows), with
/// `extra · z` added to each of its constraint values.
pub struct Group<'a, const N: usize> {
    pub body: &'a ImplicitBody,
    pub shift: DVec3,
    pub rows: [[f64; N]; 3],
    pub extra: [f64; N],
}

impl<const N: usize> Group<'_, N> {
    fn point(&self, z: &[f64; N]) -> DVec3 {
        let mut p = self.shift;
        for (i, row) in self.rows.iter().enumerate() {
            p[i] += dot(row, z);
        }
        p
    }
}

/// The objective `½ zᵀQz + p·z`.
pub struct Objective<const N: usize> {
    pub q: [[f64; N]; N],
    pub p: [f64; N],
}

impl<const N: usize> Objective<N> {
    pub fn value(&self, z: &[f64; N]) -> f64 {
        let qz = mat_vec(&self.q, z);
        0.5 * dot(z, &qz) + dot(&self.p, z)
    }

    pub fn gradient(&self, z: &[f64; N]) -> [f64; N] {
        let mut g = mat_vec(&self.q, z);
        for (g, p) in g.iter_mut().zip(&self.p) {
            *g += p;
        }
        g
    }
}

/// The state after a step, for the caller's stopping test and records.
pub struct State<'s, const N: usize> {
    pub iteration: usize,
    pub z: [f64; N],
    /// Constraint values (all negative), and their multipliers, in group order.
    pub values: &'s [f64],
    pub multipliers: &'s [f64],
    /// `∇f₀ + Σ λ_k ∇F_k`.
    pub dual_residual: [f64; N],
    /// `Σ λ_k s_k / m`.
    pub mu: f64,
    /// The primal step length taken (0 before the first step).
    pub step: f64,
}

/// What the caller decides after each step.
pub enum Control {
    Continue,
    Stop,
}

/// Runs the method from the strictly feasible `z0`; `watch` sees the start and every
/// step, and ends it (else the iteration cap, or a step that cannot be taken, does).
/// Returns the last iterate.
pub fn run<const N: usize>(
    objective: &Objective<N>,
    groups: &[Group<'_, N>],
    z0: [f64; N],
    mu0: f64,
    max_iterations: usize,
    mut watch: impl FnMut(&State<N>) -> Control,
) -> [f64; N] {
    let m: usize = groups.iter().map(|g| g.body.constraints().len()).sum();
    let mut z = z0;
    let mut values = constraint_values(groups, &z);
    let mut lambda: Vec<f64> = values.iter().map(|f| mu0 / -f).collect();
    let mut step = 0.0;
    // The barrier parameter: held until the barrier problem is solved to κ_ε μ, then cut
    // superlinearly (IPOPT's monotone mode).
    let mut target = mu0;
    let mut gradients = vec![[0.0; N]; m];
    for iteration in 0..=max_iterations {
        // Derivatives at z: G, the gradients, the dual residual.
        let mut g = objective.q;
        let mut dual = objective.gradient(&z);
        let mut k = 0;
        for group in groups {
            // Σ over the group's constraints in its 3-D point space, then mapped once:
            // G += Sᵀ M S + cross terms with `extra` (phase 1's t), so a constraint costs
            // O(1) whatever N.
            let x = group.point(&z);
            let (mut curvature, mut pull, mut weights) = (glam::DMat3::ZERO, DVec3::ZERO, 0.0);
            let (mut dual3, mut lambda_sum) = (DVec3::ZERO, 0.0);
            for c in group.body.constraints() {
                let e = c.eval(x);
                let s = -values[k];
                let weight = lambda[k] / s;
                curvature += e.hessian * lambda[k] + outer(e.gradient, e.gradient) * weight;
                pull += e.gradient * weight;
                weights += weight;
                dual3 += e.gradient * lambda[k];
                lambda_sum += lambda[k];
                let mut grad = group.extra;
                for (i, row) in group.rows.iter().enumerate() {
                    for j in 0..N {
                        grad[j] += e.gradient[i] * row[j];
                    }
                }
                gradients[k] = grad;
                k += 1;
            }
            let rows = &group.rows;
            let extra = &group.extra;
            // Sᵀ v for a 3-vector v.
            let lift = |v: DVec3| -> [f64; N] {
                std::array::from_fn(|j| rows[0][j] * v.x + rows[1][j] * v.y + rows[2][j] * v.z)
            };
            let ms: [[f64; N]; 3] = std::array::from_fn(|i| {
                std::array::from_fn(|j| {
                    (0..3)
                        .map(|r| curvature.col(r)[i] * rows[r][j])
                        .sum::<f64>()
                })
            });
            let cross = lift(pull);
            for a in 0..N {
                for b in 0..N {
                    let through: f64 = (0..3).map(|i| rows[i][a] * ms[i][b]).sum();
                    g[a][b] += through
                        + cross[a] * extra[b]
                        + extra[a] * cross[b]
                        + weights * extra[a] * extra[b];
                }
            }
            let d = lift(dual3);
            for a in 0..N {
                dual[a] += d[a] + lambda_sum * extra[a];
            }
        }
        let mu = lambda.iter().zip(&values).map(|(l, f)| -l * f).sum::<f64>() / m as f64;
        let state = State {
            iteration,
            z,
            values: &values,
            multipliers: &lambda,
            dual_residual: dual,
            mu,
            step,
        };
        if let Control::Stop = watch(&state) {
            break;
        }
        if iteration == max_iterations {
            break;
        }
        let dual_size = dual.iter().fold(0.0f64, |m, r| m.max(r.abs()));
        let centring = lambda
            .iter()
            .zip(&values)
            .fold(0.0f64, |m, (l, f)| m.max((-l * f - target).abs()));
        if dual_size.max(centring) <= 10.0 * target {
            target = (0.2 * target).min(target.powf(1.5)).max(1e-300);
        }
        // rhs = −(∇f₀ + Σ (μ / s_k) ∇F_k)
        let mut rhs = objective.gradient(&z);
        for (grad, f) in gradients.iter().zip(&values) {
            for a in 0..N {
                rhs[a] += target / -f * grad[a];
            }
        }
        for r in rhs.iter_mut() {
            *r = -*r;
        }
        let Some(dz) = solve_spd(g, rhs) else {
            break;
        };
        // Δλ_k = (μ − λ_k s_k + λ_k ∇F_k·Δz) / s_k
        let dlambda: Vec<f64> = (0..m)
            .map(|k| {
                let s = -values[k];
                (target - lambda[k] * s + lambda[k] * dot(&gradients[k], &dz)) / s
            })
            .collect();
        let tau = (1.0 - target).max(0.99);
        let mut dual_step: f64 = 1.0;
        for (l, d) in lambda.iter().zip(&dlambda) {
            if *d < 0.0 {
                dual_step = dual_step.min(-tau * l / d);
            }
        }
        // Primal: stay strictly inside, with a decrease of the barrier merit.
        let merit = |z: &[f64; N], values: &[f64]| objective.value(z) - target * log_sum(values);
        let slope: f64 = {
            let mut grad_merit = objective.gradient(&z);
            for (grad, f) in gradients.iter().zip(&values) {
                for a in 0..N {
                    grad_merit[a] += target / -f * grad[a];
                }
            }
            dot(&grad_merit, &dz)
        };
        let current = merit(&z, &values);
        let mut alpha = 1.0;
        let mut accepted = None;
        for _ in 0..60 {
            let trial: [f64; N] = std::array::from_fn(|a| z[a] + alpha * dz[a]);
            let trial_values = constraint_values(groups, &trial);
            let inside = trial_values
                .iter()
                .zip(&values)
                .all(|(t, f)| *t < 0.0 && *t <= (1.0 - tau) * f);
            if inside && merit(&trial, &trial_values) <= current + 1e-4 * alpha * slope.min(0.0) {
                accepted = Some((trial, trial_values));
                break;
            }
            alpha *= 0.5;
        }
        let Some((trial, trial_values)) = accepted else {
            break;
        };
        z = trial;
        values = trial_values;
        // The multipliers take their own step, kept within a band of the central
        // path's μ / s_k so that they cannot run away from the points.
        let dual_step = dual_step.min(1.0);
        for ((l, d), f) in lambda.iter_mut().zip(&dlambda).zip(&values) {
            let central = target / -f;
            *l = (*l + dual_step * d).clamp(central * 1e-10, central * 1e10);
        }
        step = alpha;
    }
    z
}

/// `Σ ln(−f_k)` with one logarithm per run of products (a logarithm costs as much as
/// the rest of a half-space's step).
fn log_sum(values: &[f64]) -> f64 {
    let (mut sum, mut product) = (0.0, 1.0f64);
    for f in values {
        product *= -f;
        if !(1e-150..=1e150).contains(&product) {
            sum += product.ln();
            product = 1.0;
        }
    }
    sum + product.ln()
}

/// Every constraint's value at `z`, in group order.
pub fn constraint_values<const N: usize>(groups: &[Group<'_, N>], z: &[f64; N]) -> Vec<f64> {
    let mut out = Vec::new();
    for group in groups {
        let x = group.point(z);
        let shift = dot(&group.extra, z);
        out.extend(group.body.constraints().iter().map(|c| c.value(x) + shift));
    }
    out
}

pub fn dot<const N: usize>(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

fn mat_vec<const N: usize>(m: &[[f64; N]; N], v: &[f64; N]) -> [f64; N] {
    std::array::from_fn(|i| dot(&m[i], v))
}

/// Solves `G x = r` for a symmetric positive (semi-)definite `G` by Cholesky, adding a
/// small multiple of the identity when a pivot is not positive.
fn solve_spd<const N: usize>(g: [[f64; N]; N], r: [f64; N]) -> Option<[f64; N]> {
    let scale = (0..N)
        .map(|i| g[i][i].abs())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    let mut shift = 0.0;
    for _ in 0..8 {
        if let Some(x) = cholesky_solve(g, r, shift) {
            if x.iter().all(|v| v.is_finite()) {
                return Some(x);
            }
        }
        shift = if shift == 0.0 {
            1e-14 * scale
        } else {
            shift * 100.0
        };
    }
    None
}

fn cholesky_solve<const N: usize>(g: [[f64; N]; N], r: [f64; N], shift: f64) -> Option<[f64; N]> {
    let mut l = [[0.0; N]; N];
    for i in 0..N {
        for j in 0..=i {
            let mut sum = g[i][j] + if i == j { shift } else { 0.0 };
            sum -= (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if sum <= 0.0 {
                    return None;
                }
                l[i][i] = sum.sqrt();
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    }
    let mut y = [0.0; N];
    for i in 0..N {
        let mut sum = r[i];
        for k in 0..i {
            sum -= l[i][k] * y[k];
        }
        y[i] = sum / l[i][i];
    }
    let mut x = [0.0; N];
    for i in (0..N).rev() {
        let mut sum = y[i];
        for k in i + 1..N {
            sum -= l[k][i] * x[k];
        }
        x[i] = sum / l[i][i];
    }
    Some(x)
}
