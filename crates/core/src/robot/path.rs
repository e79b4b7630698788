//! A smooth random joint path: from one random configuration to the next with a
//! smoothstep in time, as a robot moving between goals does. The viewer's play mode
//! walks it by wall-clock time; `bench robot` samples it at a fixed joint resolution
//! (a motion checker's dense path check), where warm starts pay.

use super::acm::random_configuration;
use super::model::RobotModel;
use crate::rng::SplitMix64;

/// Where the path is: between `from` and `to` at `t` ∈ [0, 1].
pub struct SmoothPath {
    from: Vec<f64>,
    to: Vec<f64>,
    t: f64,
    rng: SplitMix64,
}

impl SmoothPath {
    /// A path starting at `start`, its goals drawn from `seed`.
    pub fn new(model: &RobotModel, start: Vec<f64>, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let to = random_configuration(model, &mut rng);
        Self {
            from: start,
            to,
            t: 0.0,
            rng,
        }
    }

    /// Moves on by `dt` of a segment (a segment takes 1) and returns the configuration.
    pub fn advance(&mut self, model: &RobotModel, dt: f64) -> Vec<f64> {
        self.t += dt;
        if self.t >= 1.0 {
            self.from = std::mem::take(&mut self.to);
            self.to = random_configuration(model, &mut self.rng);
            self.t = 0.0;
        }
        let s = self.t * self.t * (3.0 - 2.0 * self.t);
        self.from
            .iter()
            .zip(&self.to)
            .map(|(a, b)| a + (b - a) * s)
            .collect()
    }

    /// `n` configurations along the path whose joints move at most `resolution`
    /// (radians or metres) from one to the next.
    pub fn sample(model: &RobotModel, n: usize, resolution: f64, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = SplitMix64::new(seed);
        let mut configs = Vec::with_capacity(n);
        let mut from = random_configuration(model, &mut rng);
        while configs.len() < n {
            let to = random_configuration(model, &mut rng);
            let span = from
                .iter()
                .zip(&to)
                .map(|(a, b)| (b - a).abs())
                .fold(0.0, f64::max);
            // The smoothstep's steepest slope is 1.5: steps of span·1.5/m ≤ resolution.
            let steps = ((1.5 * span / resolution).ceil() as usize).max(1);
            for k in 1..=steps {
                if configs.len() == n {
                    break;
                }
                let t = k as f64 / steps as f64;
                let s = t * t * (3.0 - 2.0 * t);
                configs.push(from.iter().zip(&to).map(|(a, b)| a + (b - a) * s).collect());
            }
            from = to;
        }
        configs
    }
}
