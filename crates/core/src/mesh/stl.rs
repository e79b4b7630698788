//! STL meshes in both encodings. A binary file may begin with the word "solid" (many
//! exporters write it into the 80-byte header), so the encoding is decided by the
//! binary layout first: `84 + 50 · count` bytes with the count at bytes 80..84. ASCII
//! files are read with `stl_io`.

use std::io::Cursor;
use std::path::Path;

use glam::DVec3;

/// The vertices of an STL file (duplicates kept: the hull does not mind).
pub fn read_stl_points(path: &Path) -> Result<Vec<DVec3>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let points = stl_points(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if points.is_empty() {
        let place = if is_binary(&bytes) {
            "binary STL: bytes 80-83 say 0 triangles".to_string()
        } else {
            let text = String::from_utf8_lossy(&bytes);
            let at = text
                .lines()
                .position(|l| l.trim_start().starts_with("endsolid"))
                .map_or(1, |n| n + 1);
            format!("ASCII STL: line {at}: `endsolid` before any facet")
        };
        return Err(format!(
            "{}: {place}: the mesh has no triangles",
            path.display()
        ));
    }
    if let Some(k) = points.iter().position(|p| !p.is_finite()) {
        // Only a binary file can hold one (stl_io refuses an ASCII one): its place.
        let (triangle, corner) = (k / 3, k % 3);
        return Err(format!(
            "{}: binary STL: byte {}, triangle {triangle} vertex {corner}: ({}) is not finite",
            path.display(),
            84 + 50 * triangle + 12 + 12 * corner,
            points[k]
        ));
    }
    Ok(points)
}

/// Where an ASCII STL that stl_io refused goes wrong (stl_io names no line): the
/// first line that is not the grammar stl_io reads (`solid NAME`, then `facet normal
/// x y z`, `outer loop`, three `vertex x y z`, `endloop`, `endfacet`, ..., `endsolid`),
/// or a number that is not a finite f32, with the line and the word.
fn ascii_fault(text: &str) -> Option<String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, words)| !words.is_empty());
    if !text.lines().next().is_some_and(|l| l.starts_with("solid ")) {
        return Some("line 1: an ASCII STL begins `solid NAME`".into());
    }
    lines.next();
    let last = text.lines().count().max(1);
    let numbers = |line: usize, words: &[&str]| -> Option<String> {
        words.iter().find_map(|w| match w.parse::<f32>() {
            Ok(x) if x.is_finite() => None,
            Ok(_) => Some(format!(
                "line {line}: `{w}` is not a finite number (as an f32)"
            )),
            Err(_) => Some(format!("line {line}: `{w}` is not a number")),
        })
    };
    let shown = |words: &[&str]| words.join(" ");
    loop {
        let Some((line, words)) = lines.next() else {
            return Some(format!(
                "line {last}: the file ends where `facet normal` or `endsolid` should come"
            ));
        };
        if words[0] == "endsolid" {
            return None;
        }
        if words.len() != 5 || words[0] != "facet" || words[1] != "normal" {
            return Some(format!(
                "line {line}: expected `facet normal x y z`, got `{}`",
                shown(&words)
            ));
        }
        if let Some(bad) = numbers(line, &words[2..]) {
            return Some(bad);
        }
        let expected: [&[&str]; 6] = [
            &["outer", "loop"],
            &["vertex"],
            &["vertex"],
            &["vertex"],
            &["endloop"],
            &["endfacet"],
        ];
        for want in expected {
            let Some((line, words)) = lines.next() else {
                return Some(format!(
                    "line {last}: the file ends where `{}` should come",
                    want.join(" ")
                ));
            };
            if want == ["vertex"] {
                if words.len() != 4 || words[0] != "vertex" {
                    return Some(format!(
                        "line {line}: expected `vertex x y z`, got `{}`",
                        shown(&words)
                    ));
                }
                if let Some(bad) = numbers(line, &words[1..]) {
                    return Some(bad);
                }
            } else if words != want {
                return Some(format!(
                    "line {line}: expected `{}`, got `{}`",
                    want.join(" "),
                    shown(&words)
                ));
            }
        }
    }
}

/// stl_io's refusal of ASCII text, with the line it names none of.
fn ascii_refusal(text: &[u8], e: std::io::Error) -> String {
    let fault = std::str::from_utf8(text).ok().and_then(ascii_fault);
    match fault {
        Some(fault) => format!("ASCII STL: {fault} ({e})"),
        None => format!("ASCII STL: line 1 onwards: not readable: {e}"),
    }
}

/// The triangles of an STL file: what a visual mesh draws.
pub fn read_stl_triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if is_binary(&bytes) {
        return Ok(binary_points(&bytes)
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect());
    }
    stl_points(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // ASCII (the points read): its indexed faces.
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let mesh = stl_io::read_stl(&mut Cursor::new(text))
        .map_err(|e| format!("{}: {}", path.display(), ascii_refusal(text, e)))?;
    let v = |i: usize| {
        let p = mesh.vertices[i];
        DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2]))
    };
    Ok(mesh
        .faces
        .iter()
        .map(|f| [v(f.vertices[0]), v(f.vertices[1]), v(f.vertices[2])])
        .collect())
}

/// The vertices of STL bytes: binary when the layout says so; ASCII when the text
/// (after an optional UTF-8 byte-order mark) begins with `solid` and is text
/// throughout; otherwise a binary file whose length and triangle count disagree, said
/// with both numbers (a count below the triangles stored was read as that many).
fn stl_points(bytes: &[u8]) -> Result<Vec<DVec3>, String> {
    if is_binary(bytes) {
        return Ok(binary_points(bytes));
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if text.trim_ascii_start().starts_with(b"solid") && std::str::from_utf8(text).is_ok() {
        let mesh = stl_io::read_stl(&mut Cursor::new(text)).map_err(|e| ascii_refusal(text, e))?;
        return Ok(mesh
            .vertices
            .iter()
            .map(|v| DVec3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2])))
            .collect());
    }
    if bytes.len() < 84 {
        return Err(format!(
            "not an STL file: it ends at byte {}, inside a binary STL's 84-byte header, and is \
             not text beginning with 'solid'",
            bytes.len()
        ));
    }
    let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    let expected = 84 + 50 * count;
    let stored = (bytes.len() as u64 - 84) / 50;
    if (bytes.len() as u64) < expected {
        Err(format!(
            "truncated binary STL: bytes 80-83 say {count} triangles ({expected} bytes), the \
             file ends at byte {} ({stored} whole triangles)",
            bytes.len()
        ))
    } else {
        Err(format!(
            "binary STL: bytes 80-83 say {count} triangles, but the file holds {stored} \
             ({} bytes, the last whole triangle ending at byte {}): the count or the file is wrong",
            bytes.len(),
            84 + 50 * stored
        ))
    }
}

fn is_binary(bytes: &[u8]) -> bool {
    if bytes.len() < 84 {
        return false;
    }
    let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
    bytes.len() == 84 + 50 * count
}

fn binary_points(bytes: &[u8]) -> Vec<DVec3> {
    let f =
        |at: usize| f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    bytes[84..]
        .chunks_exact(50)
        .flat_map(|record| {
            let base = record.as_ptr() as usize - bytes.as_ptr() as usize;
            (0..3).map(move |v| {
                let at = base + 12 + 12 * v;
                DVec3::new(f64::from(f(at)), f64::from(f(at + 4)), f64::from(f(at + 8)))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {

    /// three faults that all read "failed to fill whole buffer", and a count
    /// below the triangles stored, which was read silently as that many.
    #[test]
    fn each_fault_of_a_binary_file_is_said_with_its_numbers() {
        let t = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let whole = binary(b"", &[t, t]);
        let truncated = &whole[..whole.len() - 10];
        let err = stl_points(truncated).unwrap_err();
        assert!(
            err.contains("truncated") && err.contains("2 triangles"),
            "{err}"
        );
        let mut too_few = whole.clone();
        too_few[80..84].copy_from_slice(&1u32.to_le_bytes());
        let err = stl_points(&too_few).unwrap_err();
        assert!(
            err.contains("say 1 triangles") && err.contains("holds 2"),
            "{err}"
        );
        let err = stl_points(b"tiny").unwrap_err();
        assert!(err.contains("84-byte header"), "{err}");
    }

    /// stl_io names no line; the refusal does, with the word.
    #[test]
    fn an_ascii_fault_is_said_with_its_line_and_word() {
        let good = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        assert_eq!(ascii_fault(good), None);
        for (from, to, expected) in [
            (
                "vertex 1 0 0",
                "vertex 1 nan 0",
                "line 5: `nan` is not a finite number",
            ),
            (
                "vertex 1 0 0",
                "vertex 1 x 0",
                "line 5: `x` is not a number",
            ),
            (
                "vertex 1 0 0",
                "vertex 1 0",
                "line 5: expected `vertex x y z`",
            ),
            (
                "normal 0 0 1",
                "normal 0 0 inf",
                "line 2: `inf` is not a finite",
            ),
            ("endloop\n", "", "line 7: expected `endloop`"),
            ("endsolid t\n", "", "line 8: the file ends"),
        ] {
            let text = good.replacen(from, to, 1);
            let err = stl_points(text.as_bytes()).unwrap_err();
            assert!(err.contains(expected) && err.contains("ASCII STL"), "{err}");
        }
    }

    #[test]
    fn an_ascii_file_with_a_byte_order_mark_reads() {
        let text = "\u{feff}solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        assert_eq!(stl_points(text.as_bytes()).unwrap().len(), 3);
    }

    use super::*;

    fn binary(header: &[u8], triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
        let mut out = vec![0u8; 80];
        out[..header.len()].copy_from_slice(header);
        out.extend((triangles.len() as u32).to_le_bytes());
        for t in triangles {
            out.extend([0u8; 12]);
            for v in t {
                for c in v {
                    out.extend(c.to_le_bytes());
                }
            }
            out.extend([0u8; 2]);
        }
        out
    }

    #[test]
    fn binary_files_that_begin_with_solid_and_ascii_files_both_read() {
        let dir = std::env::temp_dir().join(format!("collidescope-stl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tri = [[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.5]]];
        let path = dir.join("solid_header.stl");
        std::fs::write(&path, binary(b"solid exported by a CAD tool", &tri)).unwrap();
        let points = read_stl_points(&path).unwrap();
        assert_eq!(points.len(), 3);
        assert_eq!(points[2], DVec3::new(0.0, 1.0, 0.5));
        let ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 2 0 0\nvertex 0 3 1\nendloop\nendfacet\nendsolid t\n";
        let path = dir.join("ascii.stl");
        std::fs::write(&path, ascii).unwrap();
        let points = read_stl_points(&path).unwrap();
        assert!(points.contains(&DVec3::new(0.0, 3.0, 1.0)));
        let path = dir.join("empty.stl");
        std::fs::write(&path, binary(b"", &[])).unwrap();
        let why = read_stl_points(&path).unwrap_err();
        assert!(
            why.contains("empty.stl") && why.contains("no triangles"),
            "{why}"
        );
    }
}
