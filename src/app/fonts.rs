//! The papers' notation in every text of the viewer: Noto Sans Math (assets/fonts, OFL)
//! registered after egui's own fonts, so that ⊖, ⟨ ⟩, ∈, ∇, arrows and subscripts render
//! where egui's default fonts have no glyph for them.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{egui, EguiContexts, EguiPrimaryContextPass};

/// The font, built into the program (no file to find at run time).
const MATH_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansMath-Regular.ttf");

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        install_math_font.before(super::ui::ViewerUi),
    );
}

/// egui's fonts, with Noto Sans Math as the last fallback of both families.
pub fn font_definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        "noto-sans-math".into(),
        Arc::new(egui::FontData::from_static(MATH_FONT)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push("noto-sans-math".into());
    }
    fonts
}

fn install_math_font(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    contexts.ctx_mut()?.set_fonts(font_definitions());
    *done = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The notation's glyphs come from the math font once it is installed (egui's own
    /// fonts lack ⊖ and ⟨ ⟩: checked first, so that the test can fail).
    #[test]
    fn the_papers_symbols_have_glyphs() {
        let plain = egui::Context::default();
        let _ = plain.run_ui(egui::RawInput::default(), |_| {});
        let missing = plain.fonts_mut(|f| !f.has_glyph(&egui::FontId::proportional(15.0), '⊖'));
        assert!(missing, "egui's own fonts have ⊖: this test proves nothing");
        let ctx = egui::Context::default();
        ctx.set_fonts(font_definitions());
        let _ = ctx.run_ui(egui::RawInput::default(), |_| {});
        let font = egui::FontId::proportional(15.0);
        ctx.fonts_mut(|fonts| {
            for c in ['⊖', '⟨', '⟩', '∈', '∇', '←', '₃', '∥'] {
                assert!(fonts.has_glyph(&font, c), "no glyph for {c}");
            }
        });
    }
}
