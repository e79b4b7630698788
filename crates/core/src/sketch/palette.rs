//! The pictures' colours: Okabe and Ito's colour-blind-safe palette ("Color Universal
//! Design", 2008), one colour per layer, shared by the viewer and the web page.

use super::Rgba;

/// Shape A (blue) and B (orange).
pub const COLOUR_A: Rgba = Rgba::rgb(0.0, 0.447, 0.698);
pub const COLOUR_B: Rgba = Rgba::rgb(0.902, 0.624, 0.0);
/// A support point's part on A and on B: A's and B's colours darkened (Bevy's
/// `darker(0.3)` on them, as the viewer drew them before these pictures moved here).
pub const COLOUR_A_PART: Rgba = Rgba::rgb(0.0, 0.0, 0.0);
pub const COLOUR_B_PART: Rgba = Rgba::rgb(0.508, 0.344, 0.0);
/// `A ⊖ B` (greyish green).
pub const COLOUR_DIFFERENCE: Rgba = Rgba::rgb(0.45, 0.62, 0.45);
/// Bodies outside the pair in focus.
pub const COLOUR_OTHER: Rgba = Rgba::rgb(0.55, 0.55, 0.58);
/// The simplex (reddish purple), the support (vermillion), the iterate (black) and the
/// witnesses and certificates (bluish green).
pub const COLOUR_SIMPLEX: Rgba = Rgba::rgb(0.80, 0.475, 0.655);
pub const COLOUR_SUPPORT: Rgba = Rgba::rgb(0.835, 0.369, 0.0);
pub const COLOUR_ITERATE: Rgba = Rgba::rgb(0.0, 0.0, 0.0);
pub const COLOUR_WITNESS: Rgba = Rgba::rgb(0.0, 0.62, 0.45);
/// One colour per simplex vertex for its pair of points on A and B (yellow,
/// vermillion, sky blue and bluish green: apart from A's blue and B's orange).
pub const PAIR_COLOURS: [Rgba; 4] = [
    Rgba::rgb(0.80, 0.72, 0.0),
    Rgba::rgb(0.835, 0.369, 0.0),
    Rgba::rgb(0.337, 0.706, 0.914),
    Rgba::rgb(0.0, 0.620, 0.451),
];
