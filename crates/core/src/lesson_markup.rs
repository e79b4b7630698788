//! The light markup of lesson texts and questions, read the same way by every place
//! that shows them (the viewer's text panel, worksheets, web pages): `**bold**`,
//! `` `code` ``, subscripts `x_k` (one letter or digit) and `s_{A⊖B}` (braced), and
//! superscripts `R^T` and `^{−1}`. Written once here so that a lesson's `s_{A⊖B}`
//! never reaches a reader as raw underscores.

/// Where a run of text sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    Normal,
    Sub,
    Super,
}

/// A run of text with one style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub bold: bool,
    pub code: bool,
    pub script: Script,
}

/// The text cut into styled runs (markup removed).
pub fn spans(text: &str) -> Vec<Span> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Span> = Vec::new();
    let (mut bold, mut code) = (false, false);
    let mut push = |text: String, bold: bool, code: bool, script: Script| {
        if text.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if last.bold == bold && last.code == code && last.script == script => {
                last.text.push_str(&text)
            }
            _ => out.push(Span {
                text,
                bold,
                code,
                script,
            }),
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            code = !code;
            i += 1;
            continue;
        }
        if code {
            push(c.to_string(), bold, true, Script::Normal);
            i += 1;
            continue;
        }
        if c == '*' && chars.get(i + 1) == Some(&'*') {
            bold = !bold;
            i += 2;
            continue;
        }
        if (c == '_' || c == '^') && i > 0 && attaches(chars[i - 1]) {
            let script = if c == '_' { Script::Sub } else { Script::Super };
            if chars.get(i + 1) == Some(&'{') {
                if let Some(len) = chars[i + 2..].iter().position(|&e| e == '}') {
                    let inner: String = chars[i + 2..i + 2 + len].iter().collect();
                    push(inner, bold, false, script);
                    i += len + 3;
                    continue;
                }
            } else if let Some(&next) = chars.get(i + 1) {
                let word_ends = chars.get(i + 2).is_none_or(|n| !n.is_alphanumeric());
                if next.is_alphanumeric() && word_ends {
                    push(next.to_string(), bold, false, script);
                    i += 2;
                    continue;
                }
            }
        }
        push(c.to_string(), bold, false, Script::Normal);
        i += 1;
    }
    out
}

/// Whether a sub- or superscript may hang on this character (`x_k`, `∥x∥_2`, `R^T`).
fn attaches(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, ')' | '∥' | '⟩' | ']' | '|')
}

/// The text with the markup removed and scripts written out plainly: Unicode sub- and
/// superscripts where the fonts have every character (`x₁`, `2⁻⁵²`), else as plain text
/// writes them (`x_k`, `R^T`, `s_(A⊖B)`).
pub fn plain(text: &str) -> String {
    let fallback = |mark: char, t: &str| {
        if t.chars().count() == 1 {
            format!("{mark}{t}")
        } else {
            format!("{mark}({t})")
        }
    };
    spans(text)
        .into_iter()
        .map(|s| match s.script {
            Script::Normal => s.text,
            Script::Sub => scripted(&s.text, SUBSCRIPTS).unwrap_or_else(|| fallback('_', &s.text)),
            Script::Super => {
                scripted(&s.text, SUPERSCRIPTS).unwrap_or_else(|| fallback('^', &s.text))
            }
        })
        .collect()
}

/// The numbers written in a text (`0.5`, `1e-6`, `9.99851e−4`; a digit right after a
/// letter or a point is not a start, so `w₁₂` and `x2` are not numbers): each number's
/// range of characters (`chars()` positions) and its token, minus signs as ASCII.
/// Worksheets blank them and the lesson tests check them against the runs.
pub fn numbers_in(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let chars: Vec<char> = text.chars().collect();
    let digit = |k: usize| chars.get(k).is_some_and(|c| c.is_ascii_digit());
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts =
            digit(i) && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while digit(j) || (chars.get(j) == Some(&'.') && digit(j + 1)) {
            j += 1;
        }
        if chars.get(j) == Some(&'e') {
            let sign = usize::from(
                chars
                    .get(j + 1)
                    .is_some_and(|c| matches!(c, '-' | '−' | '+')),
            );
            let mut e = j + 1 + sign;
            if digit(e) {
                while digit(e) {
                    e += 1;
                }
                j = e;
            }
        }
        let token: String = chars[i..j].iter().collect::<String>().replace('−', "-");
        out.push((i..j, token));
        i = j;
    }
    out
}

/// The text as HTML (escaped): `<b>`, `<code>`, `<sub>`, `<sup>`.
pub fn html(text: &str) -> String {
    render(text, ("<b>", "</b>"), ("<code>", "</code>"), |t, _| {
        escape_html(t)
    })
}

/// The text as Markdown for worksheets: bold and code as Markdown writes them, scripts as
/// `<sub>`/`<sup>` tags (Markdown renderers pass them through), `&`, `<` and `>`
/// escaped outside code so that text never becomes a tag.
pub fn markdown(text: &str) -> String {
    render(text, ("**", "**"), ("`", "`"), |t, code| {
        if code {
            t.to_string()
        } else {
            t.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        }
    })
}

/// The spans written out with `bold` and `code` around their runs, scripts as
/// `<sub>`/`<sup>`, each run's text through `escape` (told whether it is code).
fn render(
    text: &str,
    bold: (&str, &str),
    code: (&str, &str),
    escape: impl Fn(&str, bool) -> String,
) -> String {
    let mut out = String::new();
    for s in spans(text) {
        let mut t = escape(&s.text, s.code);
        t = match s.script {
            Script::Normal => t,
            Script::Sub => format!("<sub>{t}</sub>"),
            Script::Super => format!("<sup>{t}</sup>"),
        };
        if s.code {
            t = format!("{}{t}{}", code.0, code.1);
        }
        if s.bold {
            t = format!("{}{t}{}", bold.0, bold.1);
        }
        out.push_str(&t);
    }
    out
}

/// `&`, `<`, `>` and quotes escaped: text from a lesson file never becomes markup.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Sub- and superscript characters the viewer's fonts have (egui's and Noto Sans Math
/// hold the digits and signs, not the letters: `ₖ` or `ᵀ` would show as boxes).
const SUBSCRIPTS: &[(char, char)] = &[
    ('0', '₀'),
    ('1', '₁'),
    ('2', '₂'),
    ('3', '₃'),
    ('4', '₄'),
    ('5', '₅'),
    ('6', '₆'),
    ('7', '₇'),
    ('8', '₈'),
    ('9', '₉'),
    ('+', '₊'),
    ('−', '₋'),
];

const SUPERSCRIPTS: &[(char, char)] = &[
    ('0', '⁰'),
    ('1', '¹'),
    ('2', '²'),
    ('3', '³'),
    ('4', '⁴'),
    ('5', '⁵'),
    ('6', '⁶'),
    ('7', '⁷'),
    ('8', '⁸'),
    ('9', '⁹'),
    ('+', '⁺'),
    ('−', '⁻'),
];

/// `text` with each character replaced from `table`, or `None` when one has none.
fn scripted(text: &str, table: &[(char, char)]) -> Option<String> {
    text.chars()
        .map(|c| table.iter().find(|(from, _)| *from == c).map(|(_, to)| *to))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts_superscripts_bold_and_code() {
        let s = spans("**s_{A⊖B}(d)** = s_A(d) − s_B(−d), R^T d, `curve_samples`, x_k∥");
        let subs: Vec<&str> = s
            .iter()
            .filter(|s| s.script == Script::Sub)
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(subs, ["A⊖B", "A", "B", "k"]);
        assert!(s.iter().any(|s| s.script == Script::Super && s.text == "T"));
        assert!(s.iter().any(|s| s.code && s.text == "curve_samples"));
        assert!(s[0].bold && s[0].text == "s");
        assert_eq!(
            plain("x_k and R^T and s_{A⊖B} and w_{12}"),
            "x_k and R^T and s_(A⊖B) and w₁₂"
        );
        assert_eq!(html("a < b_{i} **c**"), "a &lt; b<sub>i</sub> <b>c</b>");
    }

    #[test]
    fn underscores_inside_words_and_alone_stay() {
        // A snake_case word is a word, not a subscript; a lone underscore stays.
        assert_eq!(plain("feature_band and _x"), "feature_band and _x");
        assert_eq!(plain("2^{−52} and 2^{x+y}"), "2⁻⁵² and 2^(x+y)");
    }
}
