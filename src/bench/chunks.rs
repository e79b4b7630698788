//! A batch command split into chunks (one task each on a cluster: the Python package's
//! `collidescope.cluster`, docs/cluster.md): a chunk runs the items `start..end` of the
//! whole command (poses of a sweep, problems of a benchmark, configurations of a robot
//! check) and keeps each item's raw result; the command's report merges the chunk
//! files of a folder back into the item list the whole command would hold, in its
//! order, and reports from that. So the report is the same for any partition, and a
//! chunk run twice (a task retried) or missing is an error, never a count.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::solver::Outcome;

/// One chunk's file: the command and the arguments it must share with the report that
/// merges it (`plan`), the items it covers and their results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chunk<T> {
    pub command: String,
    pub plan: serde_json::Value,
    pub start: usize,
    pub end: usize,
    pub items: Vec<T>,
}

/// An outcome name's number in a chunk file (compact: a sweep holds millions).
pub fn status_code(name: &str) -> u8 {
    Outcome::status_code(name)
}

/// The outcome name of a chunk file's number.
pub fn status_of_code(code: u8) -> Result<&'static str, String> {
    Outcome::STATUS_NAMES
        .get(usize::from(code))
        .copied()
        .ok_or_else(|| format!("unknown outcome number {code}"))
}

/// The static outcome name a chunk's `name` stands for.
pub fn status_name(name: &str) -> Result<&'static str, String> {
    status_of_code(status_code(name)).map_err(|_| format!("unknown outcome {name}"))
}

/// The algorithm of `algorithms` a chunk's `name` stands for.
pub fn algorithm_named(
    algorithms: &[crate::solver::Algorithm],
    name: &str,
) -> Result<crate::solver::Algorithm, String> {
    algorithms
        .iter()
        .find(|a| a.name() == name)
        .copied()
        .ok_or_else(|| format!("unknown algorithm {name}"))
}

/// Parses `START..END` (item indices, START ≤ END).
pub fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("expected START..END, got '{s}'"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected START..END (whole numbers), got '{s}'"))
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo > hi {
        return Err(format!("the range {lo}..{hi} must have START ≤ END"));
    }
    Ok((lo, hi))
}

/// Checks that `range` lies within the command's `total` items.
pub fn check_range((start, end): (usize, usize), total: usize, what: &str) -> anyhow::Result<()> {
    if end > total {
        anyhow::bail!("--chunk {start}..{end} reaches past the {total} {what}");
    }
    Ok(())
}

/// Writes a chunk as JSON to `out` (`-`: standard output).
pub fn write_chunk<T: Serialize>(chunk: &Chunk<T>, out: &Path) -> anyhow::Result<()> {
    let text = serde_json::to_string(chunk)?;
    if out == Path::new("-") {
        println!("{text}");
        Ok(())
    } else {
        std::fs::write(out, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write the chunk: {e}", out.display()))
    }
}

/// The items of the chunk files (`*.json` but `manifest.json`, or `*.json.gz`) in
/// `folder`, merged in
/// the whole command's order: every file a chunk of this `command` with this `plan`,
/// together covering `0..total` exactly once; else an error naming the file, or the
/// items missing or covered twice.
pub fn read_chunks<T: DeserializeOwned>(
    command: &str,
    plan: &serde_json::Value,
    total: usize,
    folder: &Path,
) -> anyhow::Result<Vec<T>> {
    let entries = std::fs::read_dir(folder).map_err(|e| {
        anyhow::anyhow!("{}: cannot read the chunks' folder: {e}", folder.display())
    })?;
    let mut chunks = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let gzipped = name.ends_with(".json.gz");
        if !(name.ends_with(".json") || gzipped) || name == "manifest.json" {
            continue;
        }
        let text = read_text(&path, gzipped)
            .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
        let chunk: Chunk<T> = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}: not a {command} chunk (line {}): {e}",
                path.display(),
                e.line()
            )
        })?;
        chunks.push((path.display().to_string(), chunk));
    }
    merge(command, plan, total, chunks).map_err(|e| anyhow::anyhow!("{}: {e}", folder.display()))
}

/// A chunk file's text, inflated when it is gzip'd (a cluster's driver keeps them so).
fn read_text(path: &Path, gzipped: bool) -> std::io::Result<String> {
    use std::io::Read;
    let bytes = std::fs::read(path)?;
    if !gzipped {
        return String::from_utf8(bytes)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e));
    }
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice()).read_to_string(&mut text)?;
    Ok(text)
}

/// [`read_chunks`] on chunks already read (each named for messages).
pub fn merge<T>(
    command: &str,
    plan: &serde_json::Value,
    total: usize,
    mut chunks: Vec<(String, Chunk<T>)>,
) -> Result<Vec<T>, String> {
    for (name, c) in &chunks {
        if c.command != command || &c.plan != plan {
            return Err(format!(
                "{name}: a chunk of another run ({} {}), not of this one ({command} {plan})",
                c.command, c.plan
            ));
        }
        if c.start > c.end || c.items.len() != c.end - c.start {
            return Err(format!(
                "{name}: covers items {}..{} but holds {}",
                c.start,
                c.end,
                c.items.len()
            ));
        }
    }
    chunks.sort_by_key(|(_, c)| (c.start, c.end));
    let (mut next, mut previous) = (0, String::new());
    for (name, c) in &chunks {
        if c.start > next {
            return Err(format!(
                "items {next}..{} are missing: no chunk covers them",
                c.start
            ));
        }
        if c.start < next {
            return Err(format!(
                "{name} and {previous} both cover items {}..{}",
                c.start,
                next.min(c.end)
            ));
        }
        next = c.end;
        previous.clone_from(name);
    }
    if next != total {
        return Err(format!(
            "items {next}..{total} are missing: no chunk covers them"
        ));
    }
    Ok(chunks.into_iter().flat_map(|(_, c)| c.items).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(start: usize, end: usize) -> (String, Chunk<usize>) {
        (
            format!("c{start}"),
            Chunk {
                command: "sweep".into(),
                plan: serde_json::json!({"seed": 1}),
                start,
                end,
                items: (start..end).collect(),
            },
        )
    }

    #[test]
    fn chunks_merge_in_order_whatever_the_partition() {
        let plan = serde_json::json!({"seed": 1});
        let merged = merge(
            "sweep",
            &plan,
            10,
            vec![chunk(7, 10), chunk(0, 3), chunk(3, 7)],
        );
        assert_eq!(merged.unwrap(), (0..10).collect::<Vec<_>>());
        let whole = merge("sweep", &plan, 10, vec![chunk(0, 10)]).unwrap();
        assert_eq!(whole, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn a_missing_doubled_or_foreign_chunk_is_named() {
        let plan = serde_json::json!({"seed": 1});
        let gap = merge("sweep", &plan, 10, vec![chunk(0, 3), chunk(5, 10)]).unwrap_err();
        assert!(gap.contains("items 3..5 are missing"), "{gap}");
        let twice = merge("sweep", &plan, 10, vec![chunk(0, 6), chunk(4, 10)]).unwrap_err();
        assert!(twice.contains("both cover items 4..6"), "{twice}");
        let short = merge("sweep", &plan, 12, vec![chunk(0, 10)]).unwrap_err();
        assert!(short.contains("items 10..12 are missing"), "{short}");
        let other = serde_json::json!({"seed": 2});
        let foreign = merge("sweep", &other, 10, vec![chunk(0, 10)]).unwrap_err();
        assert!(foreign.contains("c0: a chunk of another run"), "{foreign}");
    }
}
