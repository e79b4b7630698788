//! A small seeded random source (SplitMix64) for the benchmark protocol, sweeps and
//! tests: reproducible across platforms and crate versions, which is what a benchmark
//! seed promises.

use glam::{DQuat, DVec3};

#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    pub fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(f64::MIN_POSITIVE);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Each coordinate uniform in [lo, hi): a box's half extents, say.
    pub fn in_range3(&mut self, lo: f64, hi: f64) -> DVec3 {
        DVec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }

    /// Uniform in the cube [−scale, scale]³.
    pub fn vector(&mut self, scale: f64) -> DVec3 {
        DVec3::new(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        ) * scale
    }

    /// Uniform on the unit sphere.
    pub fn unit_vector(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.normal(), self.normal(), self.normal());
            let l = v.length();
            if l > 1e-9 {
                return v / l;
            }
        }
    }

    /// Uniform random rotation (a normalised Gaussian quaternion).
    pub fn rotation(&mut self) -> DQuat {
        loop {
            let q = DQuat::from_xyzw(self.normal(), self.normal(), self.normal(), self.normal());
            if q.length() > 1e-9 {
                return q.normalize();
            }
        }
    }
}
