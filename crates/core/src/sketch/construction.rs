//! The construction of `A ⊖ B` (layer "construction"), as the CSE442 explorable of the
//! Minkowski difference animates it: `A ⊖ B = ∪ (a − B)` over the points a of A, so a
//! copy of −B placed at point after point of A sweeps out the difference. The copies
//! appear one after another (a new one every fifth of a second, then the sweep starts
//! again), the newest strongest: the viewer and the web page animate the same copies
//! on the same clock.

use glam::DVec3;

use super::{Rgba, COLOUR_DIFFERENCE};
use crate::scene::Scene;
use crate::tessellate::coarse_mesh;

/// Seconds between two copies.
pub const STEP_SECONDS: f64 = 0.2;
/// Copies at most (a smooth A is sampled).
pub const MAX_COPIES: usize = 42;
/// Steps of pause once every copy is shown, before the sweep starts again.
pub const PAUSE_STEPS: usize = 5;

/// −B's edges and the points of A it is placed at (A's frame).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Construction {
    pub minus_b: Vec<[DVec3; 2]>,
    pub points_of_a: Vec<DVec3>,
}

impl Construction {
    /// The construction of the pair in focus of `scene`, at its poses.
    pub fn of(scene: &Scene) -> Construction {
        let b_in_a = scene.b_in_a();
        let b = coarse_mesh(&scene.b().shape);
        let minus = |i: u32| -b_in_a.transform_point(b.vertices[i as usize]);
        let a = coarse_mesh(&scene.a().shape);
        let every = a.vertices.len().div_ceil(MAX_COPIES).max(1);
        Construction {
            minus_b: (b.edges.iter())
                .map(|[p, q]| [minus(*p), minus(*q)])
                .collect(),
            points_of_a: a.vertices.iter().step_by(every).copied().collect(),
        }
    }

    /// How many copies are shown `seconds` into the animation.
    pub fn shown(&self, seconds: f64) -> usize {
        let count = self.points_of_a.len();
        let steps = (seconds.max(0.0) / STEP_SECONDS) as usize;
        (steps % (count + PAUSE_STEPS)).min(count)
    }
}

/// The colour of a copy: the newest strongest.
pub fn copy_colour(newest: bool) -> Rgba {
    if newest {
        COLOUR_DIFFERENCE.darker(0.45)
    } else {
        COLOUR_DIFFERENCE.with_alpha(0.45)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_appear_one_by_one_then_pause_and_start_again() {
        let c = Construction {
            minus_b: Vec::new(),
            points_of_a: vec![DVec3::ZERO; 3],
        };
        let at = |steps: f64| c.shown(steps * STEP_SECONDS + 0.01);
        assert_eq!(
            [at(0.0), at(1.0), at(3.0), at(7.0), at(8.0)],
            [0, 1, 3, 3, 0]
        );
    }
}
