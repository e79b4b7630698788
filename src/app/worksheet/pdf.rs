//! A worksheet as PDF: its Markdown turned into one HTML page (pulldown-cmark, with the
//! lesson markup's sub- and superscripts already written as tags) and printed by the
//! system's Chromium in headless mode. No network: the page holds its own style.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The page a worksheet prints from: A4, a serif body, tables with rules.
const STYLE: &str = "@page { size: A4; margin: 18mm 16mm; }
body { font-family: 'DejaVu Serif', 'Noto Serif', serif; font-size: 11pt; line-height: 1.45; }
h1 { font-size: 17pt; } h2 { font-size: 14pt; margin-top: 1.4em; } h3 { font-size: 12pt; }
code { font-family: 'DejaVu Sans Mono', monospace; font-size: 9.5pt; }
li { margin: 0.35em 0; } blockquote { color: #333; border-left: 3px solid #aaa; margin-left: 0; padding-left: 0.8em; }
";

/// The HTML page of a worksheet's Markdown (`title` escaped into the head).
pub fn html_page(title: &str, markdown: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(markdown, pulldown_cmark::Options::ENABLE_TABLES);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, parser);
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        crate::lesson_markup::escape_html(title)
    )
}

/// The Chromium this machine has (`chromium`, `chromium-browser`, `google-chrome`).
pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Prints `html` to the PDF file `out` with headless Chromium.
pub fn print_pdf(html: &str, out: &Path) -> Result<(), String> {
    let browser = chromium().ok_or_else(|| {
        format!(
            "{}: no Chromium on this machine to print the PDF with (install Debian's \
             `chromium`); the Markdown is written beside it",
            out.display()
        )
    })?;
    let dir = std::env::temp_dir().join(format!("collidescope-worksheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let page = dir.join("sheet.html");
    std::fs::write(&page, html).map_err(|e| format!("{}: {e}", page.display()))?;
    let out_abs = std::path::absolute(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let status = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--print-to-pdf={}", out_abs.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .map_err(|e| format!("{}: cannot run {}: {e}", out.display(), browser.display()))?;
    let _ = std::fs::remove_dir_all(&dir);
    let written = std::fs::metadata(&out_abs).is_ok_and(|m| m.len() > 0);
    if !status.status.success() || !written {
        return Err(format!(
            "{}: Chromium did not print the PDF ({}): {}",
            out.display(),
            status.status,
            String::from_utf8_lossy(&status.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    Ok(())
}
