use glam::DVec3;

use super::error::{require, require_positive, ShapeError};
use super::SupportMap;

/// `Σ |x_i / a_i|^p ≤ 1` with one exponent `p ≥ 1`: an octahedron at p = 1, the
/// ellipsoid at p = 2, tending to the box as p grows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Superellipsoid {
    radii: DVec3,
    exponent: f64,
}

impl Superellipsoid {
    pub fn new(radii: DVec3, exponent: f64) -> Result<Self, ShapeError> {
        for (name, r) in [
            ("radius x", radii.x),
            ("radius y", radii.y),
            ("radius z", radii.z),
        ] {
            require_positive("superellipsoid", name, r)?;
        }
        require(
            "superellipsoid",
            "exponent",
            exponent,
            "finite and ≥ 1",
            |p| p >= 1.0,
        )?;
        Ok(Self { radii, exponent })
    }

    pub fn radii(&self) -> DVec3 {
        self.radii
    }

    pub fn exponent(&self) -> f64 {
        self.exponent
    }
}

impl SupportMap for Superellipsoid {
    /// Hölder's equality case with the dual exponent `q = p/(p−1)`:
    /// `s_i = a_i sign(d_i) |a_i d_i|^{q−1} / ‖a∘d‖_q^{q−1}`, computed on `|a∘d| / max`
    /// so that no power overflows.
    fn local_support(&self, dir: DVec3) -> DVec3 {
        let ad = self.radii * dir;
        let abs = ad.abs();
        let largest = abs.max_element();
        if !(largest > 0.0 && largest.is_finite()) {
            return DVec3::ZERO;
        }
        let signs = DVec3::new(ad.x.signum(), ad.y.signum(), ad.z.signum());
        if self.exponent == 1.0 {
            // The octahedron: the vertex on the axis with the largest |a_i d_i|.
            let axis = if abs.x >= abs.y && abs.x >= abs.z {
                0
            } else if abs.y >= abs.z {
                1
            } else {
                2
            };
            let mut s = DVec3::ZERO;
            s[axis] = self.radii[axis] * signs[axis];
            return s;
        }
        let q = self.exponent / (self.exponent - 1.0);
        let u = abs / largest;
        let powered = DVec3::new(u.x.powf(q - 1.0), u.y.powf(q - 1.0), u.z.powf(q - 1.0));
        let norm_q = (powered * u).element_sum().powf(1.0 / q);
        let scale = norm_q.powf(q - 1.0);
        self.radii * signs * powered / scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside_value(s: &Superellipsoid, p: DVec3) -> f64 {
        let u = (p / s.radii()).abs();
        u.x.powf(s.exponent()) + u.y.powf(s.exponent()) + u.z.powf(s.exponent())
    }

    #[test]
    fn support_points_lie_on_the_surface_and_maximise_the_dot() {
        for &p in &[1.0, 1.5, 2.0, 3.0, 8.0] {
            let s = Superellipsoid::new(DVec3::new(1.0, 0.5, 2.0), p).unwrap();
            for d in [
                DVec3::new(1.0, 2.0, -0.5),
                DVec3::new(-0.3, 0.1, 0.9),
                DVec3::X,
            ] {
                let sp = s.local_support(d);
                assert!((inside_value(&s, sp) - 1.0).abs() < 1e-9, "p={p} d={d}");
                // No sampled surface point beats the support value.
                for i in 0..200 {
                    let t = i as f64 * 0.7;
                    let probe = DVec3::new(
                        t.cos() * (t * 0.3).sin(),
                        (t * 0.3).cos(),
                        t.sin() * (t * 0.3).sin(),
                    );
                    let scale = inside_value(&s, probe).powf(-1.0 / p);
                    assert!((probe * scale).dot(d) <= sp.dot(d) + 1e-9);
                }
            }
        }
    }

    #[test]
    fn exponent_two_is_the_ellipsoid() {
        let radii = DVec3::new(1.0, 0.5, 2.0);
        let s = Superellipsoid::new(radii, 2.0).unwrap();
        let e = super::super::Ellipsoid::new(radii).unwrap();
        let d = DVec3::new(0.3, -0.8, 0.2);
        assert!((s.local_support(d) - e.local_support(d)).length() < 1e-12);
    }
}
