//! A run anyone can open: a scene's recorded runs as one self-contained web page (its
//! data, script and style inside it, no network request). The page replays what the
//! core recorded: the shapes and `A ⊖ B` as triangles, and for every step of every run
//! its narration ([`crate::solver::Run::narrate`], the words the CLI and the viewer
//! print) and its picture ([`crate::sketch`], the marks the viewer draws), with the
//! convergence plot. The renderer is a small canvas script of our own (`page.js`): the
//! pictures are lines, dots and translucent triangles, which a 2-D canvas with depth
//! sorting draws in a few hundred lines, where three.js would add 600 kB to every page.

mod data;

pub use data::{
    scene_data, text_spans, LessonData, LessonPage, PageBuilder, PageData, PairPlacement, TextSpan,
    REPLAY_NOTICE,
};

use crate::scene::Scene;
use crate::solver::Method;

const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// The scene's pair in focus run with `methods` (the scene's own when empty), as a web
/// page.
pub fn scene_page(scene: &Scene, methods: &[Method]) -> Result<String, String> {
    let data = scene_data(scene, methods)?;
    Ok(page(&data.title, &data))
}

/// The page around `data`: the script reads it from the data block (JSON, gzip'd, in
/// base64: a Frank-Wolfe run draws its path again at every step, and compressed a
/// lesson's page is a tenth of its size), and every text of the scene reaches the
/// document only as text (`textContent`), never as markup.
pub fn page(title: &str, data: &impl serde::Serialize) -> String {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "{}".to_string());
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; \
         connect-src data: blob:\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <script id=\"collidescope-data\" type=\"application/gzip-base64\">{}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        escape_html(title),
        compress(&json)
    )
}

/// `text` gzip'd, in base64 (whose letters need no escape inside a script block).
fn compress(text: &str) -> String {
    use base64::Engine;
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder
        .write_all(text.as_bytes())
        .and_then(|_| encoder.finish())
        .map(|bytes| base64::engine::general_purpose::STANDARD.encode(bytes))
        .unwrap_or_default()
}

/// The JSON data of a page written by [`page`] (for tests and tools that read pages).
pub fn page_data(page: &str) -> Option<String> {
    use base64::Engine;
    use std::io::Read;
    let marker = "type=\"application/gzip-base64\">";
    let start = page.find(marker)? + marker.len();
    let end = start + page[start..].find("</script>")?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&page[start..end])
        .ok()?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// Text as HTML character data (a title, an attribute value): the lessons' escape.
pub use crate::lesson_markup::escape_html;

#[cfg(test)]
mod tests;
