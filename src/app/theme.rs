//! The viewer's colours for the methods: the catalog's, or in the projector theme Okabe
//! and Ito's colour-blind-safe palette ("Color Universal Design"). A value handed to the
//! panels and plots that pick colours, made from the presentation each frame (no global
//! flag).

use bevy_egui::egui;

use super::state::Presentation;
use crate::solver::catalog;
use crate::solver::Method;

/// Okabe & Ito's palette: orange, sky blue, bluish green, yellow, blue, vermillion,
/// reddish purple, black.
pub const OKABE_ITO: [[u8; 3]; 8] = [
    [230, 159, 0],
    [86, 180, 233],
    [0, 158, 115],
    [240, 228, 66],
    [0, 114, 178],
    [213, 94, 0],
    [204, 121, 167],
    [0, 0, 0],
];

/// Which palette the method colours come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Theme {
    pub projector: bool,
}

impl Theme {
    pub fn of(presentation: &Presentation) -> Self {
        Self {
            projector: presentation.projector,
        }
    }

    /// The method's colour: the catalog's, or the projector palette's by catalog order.
    pub fn method_color(&self, m: Method) -> egui::Color32 {
        let [r, g, b] = self.method_rgb(m);
        egui::Color32::from_rgb(r, g, b)
    }

    pub fn method_rgb(&self, m: Method) -> [u8; 3] {
        if self.projector {
            let index = m.row();
            OKABE_ITO[index % OKABE_ITO.len()]
        } else {
            catalog::info(m).colour
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projector_theme_takes_the_okabe_ito_palette_in_catalog_order() {
        let second = crate::solver::Method::all()[1];
        let plain = Theme::default();
        let projector = Theme { projector: true };
        assert_eq!(plain.method_rgb(second), catalog::info(second).colour);
        assert_eq!(projector.method_rgb(second), OKABE_ITO[1]);
    }
}
