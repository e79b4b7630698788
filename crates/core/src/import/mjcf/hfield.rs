//! `<hfield>` assets as MuJoCo compiles them: elevations written inline or read from a
//! PNG image or MuJoCo's binary height-field file, normalised to [0, 1].
//!
//! Every rule here is MuJoCo's own (`src/user/user_objects.cc`: `mjCHField::Compile`,
//! `LoadPNG`, `LoadCustom`; `src/xml/xml_native_reader.cc` for the inline rows), checked
//! against the `mujoco` 4.0.0 wheel by `tests/mjcf_hfield.rs`:
//!
//! - The file is found where meshes are: the model's directory, then the compiler's
//!   `meshdir` (`assetdir` when no `meshdir` is given; `texturedir` plays no part).
//! - Its format is its extension's: `.png` (any case) is an image, anything else MuJoCo's
//!   binary format; a `content_type` of `image/png` or `image/vnd.mujoco.hfield` overrides.
//! - A PNG's gray is lodepng's conversion to 8-bit gray: a gray pixel's value (16-bit ones
//!   by their high byte, 1-, 2- and 4-bit ones scaled to 0..255), a color pixel's *red*
//!   channel (a palette entry's red), alpha ignored. Its top row lies at +y: MuJoCo stores
//!   the image's rows bottom first.
//! - A binary file is `nrow` and `ncol` (`i32`) then `nrow × ncol` `f32`, little-endian,
//!   its first row at −y (stored as read).
//! - Inline `elevation` is written top (+y) row first; MuJoCo stores it reversed.
//! - The elevations, in `f32` as MuJoCo holds them, less their least, over their range
//!   when it exceeds 1e-14 (`mjEPS`).
//!
//! This reader is stricter than MuJoCo where MuJoCo silently drops what the model says:
//! with a file, `nrow`/`ncol` must be absent (or 0, MuJoCo's default) or match the file's,
//! and `elevation` must be absent (MuJoCo ignores both); a binary file's elevations must
//! be finite (MuJoCo keeps a NaN, which no distance could use).

use std::io::Cursor;
use std::path::Path;

use roxmltree::Node;

use super::numbers;
use super::settings::{asset_path, Compiler};

/// A `<hfield>` asset as MuJoCo compiles it: `nrow` rows of `ncol` normalised elevations,
/// the first row at +y (the reverse of MuJoCo's `hfield_data`, whose first row is at −y),
/// and `size` (radius x, radius y, elevation z, base z).
pub(super) struct HField {
    pub(super) rows: Vec<Vec<f64>>,
    pub(super) size: [f64; 4],
}

/// Elevations in MuJoCo's storage order: `nrow` rows of `ncol`, the first at −y.
#[derive(Debug)]
struct Grid {
    nrow: usize,
    ncol: usize,
    data: Vec<f32>,
}

/// Where the elevations of a file come from, as MuJoCo decides it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Format {
    Png,
    Binary,
}

/// A `<hfield>` asset: its name (the file's stem when it has none, as MuJoCo names it)
/// and the compiled field.
pub(super) fn read_hfield(
    node: Node,
    compiler: &Compiler,
    model_dir: &Path,
) -> Result<(String, HField), String> {
    let file = node.attribute("file");
    let name = match (node.attribute("name"), file) {
        (Some(name), _) => name.to_string(),
        (None, Some(file)) => file_stem(file),
        (None, None) => return Err("an hfield without a name".into()),
    };
    let size = read_size(node, &name)?;
    let mut grid = match file {
        Some(file) => {
            refuse_manual_grid(node, &name)?;
            let format = file_format(file, node.attribute("content_type"))
                .map_err(|e| format!("hfield {name}: {e}"))?;
            let path = asset_path(compiler, model_dir, file);
            let grid = read_file(&path, format).map_err(|e| format!("hfield {name}: {e}"))?;
            check_declared_counts(node, &name, &grid, &path)?;
            grid
        }
        None => read_inline(node, &name)?,
    };
    if grid.nrow < 2 || grid.ncol < 2 {
        return Err(format!(
            "hfield {name}: {} rows of {} elevations: at least 2 of each",
            grid.nrow, grid.ncol
        ));
    }
    normalise(&mut grid.data);
    Ok((
        name,
        HField {
            rows: rows_top_first(&grid),
            size,
        },
    ))
}

/// MuJoCo's name for an unnamed asset: the file name without its directory and
/// extension.
fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
}

/// `size`: radius x, radius y, elevation z and base z, all positive (MuJoCo refuses a
/// zero base too: "size parameter is not positive in hfield").
fn read_size(node: Node, name: &str) -> Result<[f64; 4], String> {
    let text = node
        .attribute("size")
        .ok_or_else(|| format!("hfield {name}: no size (radius_x radius_y elevation_z base_z)"))?;
    let size = numbers(text, "size")?;
    let [rx, ry, ez, base] = size[..] else {
        return Err(format!(
            "hfield {name}: size needs 4 numbers, {} given",
            size.len()
        ));
    };
    if !(rx > 0.0 && ry > 0.0 && ez > 0.0 && base > 0.0) {
        return Err(format!(
            "hfield {name}: size=\"{text}\": the radii, elevation and base must all be > 0"
        ));
    }
    Ok([rx, ry, ez, base])
}

/// A count attribute (`nrow`, `ncol`), if written.
fn count(node: Node, name: &str, attr: &str) -> Result<Option<usize>, String> {
    node.attribute(attr)
        .map(|text| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| format!("hfield {name}: {attr}=\"{text}\" is not a count"))
        })
        .transpose()
}

/// With a file, elevations written inline are a second, conflicting source: MuJoCo reads
/// the file and drops them without a word, which would hide the model's mistake.
fn refuse_manual_grid(node: Node, name: &str) -> Result<(), String> {
    if node.attribute("elevation").is_some() {
        return Err(format!(
            "hfield {name}: both file=\"{}\" and elevation: give one (MuJoCo would read the \
             file and ignore the elevations)",
            node.attribute("file").unwrap_or_default()
        ));
    }
    Ok(())
}

/// With a file, the file says the grid's size: `nrow` and `ncol`, when written and not
/// MuJoCo's default 0, must be the file's (MuJoCo ignores them; a mismatch means the model
/// expects another file).
fn check_declared_counts(node: Node, name: &str, grid: &Grid, path: &Path) -> Result<(), String> {
    for (attr, actual) in [("nrow", grid.nrow), ("ncol", grid.ncol)] {
        match count(node, name, attr)? {
            Some(declared) if declared != 0 && declared != actual => {
                return Err(format!(
                    "hfield {name}: {attr}=\"{declared}\", but {} has {} rows of {} \
                     elevations (leave nrow and ncol out with a file)",
                    path.display(),
                    grid.nrow,
                    grid.ncol
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// MuJoCo's choice of loader: the `content_type` attribute when written (only PNG and
/// MuJoCo's own type are height fields), else the extension (`.png` in any case is an
/// image, any other file MuJoCo's binary format).
fn file_format(file: &str, content_type: Option<&str>) -> Result<Format, String> {
    match content_type.map(str::trim) {
        Some("image/png") => Ok(Format::Png),
        Some("image/vnd.mujoco.hfield") => Ok(Format::Binary),
        Some(other) => Err(format!(
            "content_type=\"{other}\": a height field is image/png or image/vnd.mujoco.hfield"
        )),
        None if Path::new(file)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png")) =>
        {
            Ok(Format::Png)
        }
        None => Ok(Format::Binary),
    }
}

/// The elevations of the file at `path` in `format`; errors name the file.
fn read_file(path: &Path, format: Format) -> Result<Grid, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    match format {
        Format::Png => png_grid(&bytes)
            .map_err(|e| format!("{}: not a PNG image MuJoCo reads: {e}", path.display())),
        Format::Binary => binary_grid(&bytes).map_err(|e| {
            format!(
                "{}: not a MuJoCo binary height field (nrow, ncol as int32, then nrow × ncol \
                 float32): {e}",
                path.display()
            )
        }),
    }
}

/// A PNG image's grays, as lodepng converts it to 8-bit gray for MuJoCo, in MuJoCo's
/// order: the image's bottom row first.
fn png_grid(bytes: &[u8]) -> Result<Grid, String> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    // To 8 bits per sample (a 16-bit sample's high byte, low depths scaled to 0..255) and
    // palette entries to their colors, as lodepng's conversion reads them.
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buffer = vec![
        0;
        reader
            .output_buffer_size()
            .ok_or("the image is too large to decode")?
    ];
    let frame = reader.next_frame(&mut buffer).map_err(|e| e.to_string())?;
    let (width, height) = (frame.width as usize, frame.height as usize);
    // The first sample of a pixel is its gray, or its red: lodepng's gray is red.
    let samples = frame.color_type.samples();
    let gray = |row: usize, col: usize| f32::from(buffer[row * frame.line_size + col * samples]);
    let data = (0..height)
        .rev()
        .flat_map(|row| (0..width).map(move |col| (row, col)))
        .map(|(row, col)| gray(row, col))
        .collect();
    Ok(Grid {
        nrow: height,
        ncol: width,
        data,
    })
}

/// MuJoCo's binary height field: `nrow`, `ncol` (`i32`), then `nrow × ncol` `f32`, rows
/// in MuJoCo's order (the first at −y), little-endian; the length must be exactly that.
fn binary_grid(bytes: &[u8]) -> Result<Grid, String> {
    if bytes.len() < 8 {
        return Err(format!(
            "{} bytes, shorter than its 8-byte header",
            bytes.len()
        ));
    }
    let int = |k: usize| i32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap());
    let (nrow, ncol) = (int(0), int(1));
    if nrow < 1 || ncol < 1 {
        return Err(format!(
            "its header says nrow {nrow}, ncol {ncol}: not positive"
        ));
    }
    let (nrow, ncol) = (nrow as usize, ncol as usize);
    let expected = 8 + 4 * nrow as u64 * ncol as u64;
    if bytes.len() as u64 != expected {
        return Err(format!(
            "{} bytes where its header's nrow × ncol = {nrow} × {ncol} says {expected}",
            bytes.len()
        ));
    }
    let data: Vec<f32> = bytes[8..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if let Some(k) = data.iter().position(|x| !x.is_finite()) {
        return Err(format!(
            "elevation {k} (row {} from −y, column {}) is {}",
            k / ncol,
            k % ncol,
            data[k]
        ));
    }
    Ok(Grid { nrow, ncol, data })
}

/// Inline elevations: `nrow`, `ncol` and `elevation` (all zero when left out, as MuJoCo
/// leaves a field to be filled at run time), written top (+y) row first and read as
/// `f32`, as MuJoCo reads them; stored in MuJoCo's order, the written rows reversed.
fn read_inline(node: Node, name: &str) -> Result<Grid, String> {
    let required = |attr: &str| {
        count(node, name, attr)?
            .ok_or_else(|| format!("hfield {name}: no {attr} (and no file to read)"))
    };
    let (nrow, ncol) = (required("nrow")?, required("ncol")?);
    let written = match node.attribute("elevation") {
        Some(text) => floats(text, "elevation")?,
        None => vec![0.0; nrow * ncol],
    };
    if written.len() != nrow * ncol {
        return Err(format!(
            "hfield {name}: elevation holds {} numbers, nrow × ncol = {nrow} × {ncol} = {}",
            written.len(),
            nrow * ncol
        ));
    }
    let data = written
        .chunks(ncol.max(1))
        .rev()
        .flatten()
        .copied()
        .collect();
    Ok(Grid { nrow, ncol, data })
}

/// Whitespace-separated finite numbers, each rounded once to `f32` as MuJoCo's parser
/// reads them (not through `f64`, which could round twice).
fn floats(text: &str, name: &str) -> Result<Vec<f32>, String> {
    text.split_whitespace()
        .map(|w| match w.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!(
                "{name}=\"{text}\": `{w}` is not a finite single-precision number"
            )),
        })
        .collect()
}

/// MuJoCo's normalisation, in its `f32` arithmetic so the result is its `hfield_data` to
/// the bit: each elevation less the least, over the range when the range exceeds
/// `mjEPS` (1e-14). MuJoCo's running least and greatest start at 1e10 and −1e10, so a field
/// entirely above 1e10 is measured from 1e10 (below −1e10, up to −1e10): kept as it is.
fn normalise(data: &mut [f32]) {
    let (low, high) = data.iter().fold((1e10_f32, -1e10_f32), |(low, high), &x| {
        (low.min(x), high.max(x))
    });
    let range = high - low;
    for x in data.iter_mut() {
        *x -= low;
        if f64::from(range) > 1e-14 {
            *x /= range;
        }
    }
}

/// The rows the scene's height field takes: MuJoCo's rows reversed (the first at +y),
/// widened to `f64` exactly.
fn rows_top_first(grid: &Grid) -> Vec<Vec<f64>> {
    grid.data
        .chunks(grid.ncol)
        .rev()
        .map(|row| row.iter().map(|&x| f64::from(x)).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binary(nrow: i32, ncol: i32, values: &[f32]) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend(nrow.to_le_bytes());
        bytes.extend(ncol.to_le_bytes());
        for v in values {
            bytes.extend(v.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn binary_rows_stay_in_file_order_and_bad_files_say_why() {
        let grid = binary_grid(&binary(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 9.0])).unwrap();
        assert_eq!((grid.nrow, grid.ncol), (2, 3));
        assert_eq!(grid.data, [1.0, 2.0, 3.0, 4.0, 5.0, 9.0]);
        assert!(binary_grid(&[0; 5]).unwrap_err().contains("5 bytes"));
        assert!(binary_grid(&binary(0, 3, &[]))
            .unwrap_err()
            .contains("not positive"));
        let short = binary(2, 3, &[1.0; 5]);
        assert!(binary_grid(&short).unwrap_err().contains("says 32"));
        let nan = binary(2, 2, &[1.0, f32::NAN, 3.0, 4.0]);
        assert!(binary_grid(&nan).unwrap_err().contains("elevation 1"));
        let inf = binary(2, 2, &[1.0, 2.0, f32::INFINITY, 4.0]);
        assert!(binary_grid(&inf).unwrap_err().contains("row 1"));
    }

    #[test]
    fn normalisation_is_mujocos_to_the_bit() {
        // The binary file MuJoCo 4.0.0 compiles to 0, 0.125, 0.25, 0.375, 0.5, 1.
        let mut data = vec![1.0, 2.0, 3.0, 4.0, 5.0, 9.0];
        normalise(&mut data);
        assert_eq!(data, [0.0, 0.125, 0.25, 0.375, 0.5, 1.0]);
        // A flat field: every elevation 0.
        let mut flat = vec![3.0; 4];
        normalise(&mut flat);
        assert_eq!(flat, [0.0; 4]);
        // A range within mjEPS is subtracted, not divided (mujoco 4.0.0: 0 and 1e-20).
        let mut tiny = vec![0.0, 1e-20];
        normalise(&mut tiny);
        assert_eq!(tiny, [0.0, 1e-20]);
        // MuJoCo's least starts at 1e10: a field above it is measured from 1e10, in f32
        // (mujoco 4.0.0 compiles elevation="2e10 3e10 ..." to 0.49999994 and 1).
        let mut high = vec![2e10, 3e10];
        normalise(&mut high);
        assert_eq!(high, [0.49999994, 1.0]);
    }

    #[test]
    fn formats_follow_the_content_type_then_the_extension() {
        assert_eq!(file_format("a/t.PNG", None), Ok(Format::Png));
        assert_eq!(file_format("t.bin", None), Ok(Format::Binary));
        assert_eq!(file_format("terrain", None), Ok(Format::Binary));
        assert_eq!(file_format("t.dat", Some("image/png")), Ok(Format::Png));
        assert_eq!(
            file_format("t.png", Some("image/vnd.mujoco.hfield")),
            Ok(Format::Binary)
        );
        assert!(file_format("t.png", Some("image/jpeg"))
            .unwrap_err()
            .contains("image/jpeg"));
    }
}
