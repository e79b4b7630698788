//! The construction of `A ⊖ B` (layer "construction"): copies of −B placed at point
//! after point of A sweep out the difference, animated on the clock of the core's
//! [`crate::sketch::Construction`] (which web pages animate too), drawn where `A ⊖ B`
//! is drawn, the newest strongest.

use bevy::prelude::*;

use super::minkowski::DifferenceFrame;
use crate::app::state::{Layers, Model, ViewerSet};
use crate::sketch::{copy_colour, Construction};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_construction
            .after(super::minkowski::DrawDifference)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_construction(
    model: Res<Model>,
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    time: Res<Time>,
    mut built: Local<Option<(u64, Construction)>>,
    mut gizmos: Gizmos,
) {
    if !layers.construction {
        return;
    }
    if built.as_ref().map(|b| b.0) != Some(model.revision) {
        *built = Some((model.revision, Construction::of(model.pair_scene())));
    }
    let Some((_, construction)) = built.as_ref() else {
        return;
    };
    let shown = construction.shown(f64::from(time.elapsed_secs()));
    for (k, a) in construction.points_of_a.iter().take(shown).enumerate() {
        let newest = k + 1 == shown;
        let colour = super::sketch::colour(copy_colour(newest));
        for [p, q] in &construction.minus_b {
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
