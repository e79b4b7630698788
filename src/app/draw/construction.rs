//! The construction of `A ⊖ B` (layer "construction"), as the CSE442 explorable of the
//! Minkowski difference animates it: `A ⊖ B = ∪ (a − B)` over the points a of A, so a
//! copy of −B placed at point after point of A sweeps out the difference. The copies
//! appear one after another (a new one every fifth of a second, then the sweep starts
//! again), drawn where `A ⊖ B` is drawn, the newest strongest.

use bevy::prelude::*;

use super::minkowski::{DifferenceFrame, COLOR_DIFFERENCE};
use crate::app::state::{Layers, Model, ViewerSet};
use crate::tessellate::coarse_mesh;

/// Seconds between two copies.
const STEP_SECONDS: f32 = 0.2;
/// Copies at most (a smooth A is sampled).
const MAX_COPIES: usize = 42;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_construction
            .after(super::minkowski::DrawDifference)
            .in_set(ViewerSet::Draw),
    );
}

/// −B's edges and the points of A it is placed at (A's frame), for one pose.
#[derive(Default)]
struct Construction {
    revision: Option<u64>,
    minus_b: Vec<[glam::DVec3; 2]>,
    points_of_a: Vec<glam::DVec3>,
}

fn draw_construction(
    model: Res<Model>,
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    time: Res<Time>,
    mut built: Local<Construction>,
    mut gizmos: Gizmos,
) {
    if !layers.construction {
        return;
    }
    if built.revision != Some(model.revision) {
        let scene = model.pair_scene();
        let b_in_a = scene.b_in_a();
        let b = coarse_mesh(&scene.b().shape);
        let minus = |i: u32| -b_in_a.transform_point(b.vertices[i as usize]);
        let a = coarse_mesh(&scene.a().shape);
        let every = a.vertices.len().div_ceil(MAX_COPIES).max(1);
        *built = Construction {
            revision: Some(model.revision),
            minus_b: b
                .edges
                .iter()
                .map(|[p, q]| [minus(*p), minus(*q)])
                .collect(),
            points_of_a: a.vertices.iter().step_by(every).copied().collect(),
        };
    }
    let count = built.points_of_a.len();
    if count == 0 {
        return;
    }
    // A pause of a few steps once every copy is shown, then again.
    let shown = ((time.elapsed_secs() / STEP_SECONDS) as usize % (count + 5)).min(count);
    for (k, a) in built.points_of_a.iter().take(shown).enumerate() {
        let newest = k + 1 == shown;
        let colour = if newest {
            COLOR_DIFFERENCE.darker(0.45)
        } else {
            COLOR_DIFFERENCE.with_alpha(0.45)
        };
        for [p, q] in &built.minus_b {
            gizmos.line(
                frame.world_point(*a + *p),
                frame.world_point(*a + *q),
                colour,
            );
        }
        if newest {
            gizmos.sphere(
                Isometry3d::from_translation(frame.world_point(*a)),
                frame.radius * 0.02,
                colour,
            );
        }
    }
}
