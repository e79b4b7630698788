//! Text from a scene (its name and notes, which come from files written by others, and
//! the file's own name) as it may enter generated code: a string literal escaped for its
//! language, a comment that cannot end early, an identifier that is one. Nothing a
//! scene holds reaches a script unescaped, so no name can break an export or place code
//! in it.

use std::fmt::Write;

/// `text` as a Python string literal that evaluates back to it: single-quoted, ASCII
/// only (every other character as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`), so no line break,
/// quote, backslash sequence or invisible character of `text` is read as source.
pub(crate) fn python_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => {
                let code = c as u32;
                let _ = match code {
                    0..=0xff => write!(out, "\\x{code:02x}"),
                    0x100..=0xffff => write!(out, "\\u{code:04x}"),
                    _ => write!(out, "\\U{code:08x}"),
                };
            }
        }
    }
    out.push('\'');
    out
}

/// `text` as a Rust string literal that evaluates back to it (ASCII only: `\n`, `\"`,
/// `\u{..}`, ...).
pub(crate) fn rust_str(text: &str) -> String {
    format!("\"{}\"", text.escape_default())
}

/// Characters a comment shows escaped: line breaks of any language (`\n`, `\r`, U+0085,
/// U+2028, U+2029, form feed), NUL (Python refuses a source holding one), every other
/// control, and the invisible ones that reorder or hide text (bidirectional overrides and
/// isolates, which rustc refuses in comments, zero-width characters, the BOM).
fn shown_escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// `text` on one line of a comment (Python's `#`, Rust's `//` and `//!`): backslashes
/// doubled, line breaks and invisible characters written as `\n`, `\r`, `\t` or
/// `\u{..}`, so the comment cannot end before its line does, and reads unambiguously.
/// Never put into a `/* */` block (none of the exports does).
pub(crate) fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if shown_escaped(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` as comment lines, each starting with `prefix` (`"# "`, `"//! "`): one per line
/// of the text (split at `\n` and `\r\n`; any other break is shown escaped).
pub(crate) fn comment_lines(prefix: &str, text: &str) -> String {
    text.lines()
        .map(|line| match line {
            "" => format!("{}\n", prefix.trim_end()),
            _ => format!("{prefix}{}\n", comment(line)),
        })
        .collect()
}

/// A Rust (and Python) identifier made from `text`: lower-case ASCII letters, digits and
/// `_` (every run of other characters one `_`), at most 48 characters, after `prefix`
/// (which must start with a letter and end with `_`): never empty, never starting with a
/// digit, never a keyword (a keyword has no `_`-ended prefix).
pub(crate) fn identifier(prefix: &str, text: &str) -> String {
    let mut tail = String::new();
    for c in text.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            tail.push(c);
        } else if !tail.ends_with('_') && !tail.is_empty() {
            tail.push('_');
        }
        if tail.len() >= 48 {
            break;
        }
    }
    let tail = tail.trim_end_matches('_');
    let mut out = prefix.to_string();
    if tail.is_empty() {
        out.truncate(out.trim_end_matches('_').len());
    } else {
        out.push_str(tail);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_ascii_and_single_line() {
        let hostile = "a\"\"\"b'''c\\N{BULLET}\\x41\\u0041\n\r\r\n\u{2028}\u{85}\0*/\"#🎉\u{202e}";
        for lit in [python_str(hostile), rust_str(hostile)] {
            assert!(lit.is_ascii(), "{lit}");
            assert!(!lit.contains(['\n', '\r', '\0']), "{lit}");
        }
        let c = comment(hostile);
        assert!(!c.contains(|ch: char| shown_escaped(ch)), "{c}");
        assert!(c.contains("🎉"), "printable characters stay readable: {c}");
    }

    #[test]
    fn identifiers_are_plain() {
        assert_eq!(
            identifier("collidescope_", "Two Boxes (1e-3)"),
            "collidescope_two_boxes_1e_3"
        );
        assert_eq!(identifier("collidescope_", "\"\"\"\n"), "collidescope");
        assert_eq!(identifier("collidescope_", "fn"), "collidescope_fn");
        let long = identifier("collidescope_", &"x".repeat(500));
        assert!(long.len() <= "collidescope_".len() + 48);
    }

    #[test]
    fn comment_lines_split_at_line_ends_only() {
        assert_eq!(
            comment_lines("# ", "a\r\nb\rc\n\nd"),
            "# a\n# b\\rc\n#\n# d\n"
        );
    }
}
