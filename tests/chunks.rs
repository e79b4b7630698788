//! The batch commands split into chunks (`--chunk START..END --chunk-out FILE`, then
//! `--reduce FOLDER`) give the single run's report and files, whatever the partition;
//! a gap, an overlap or a chunk of another run is refused by name. (On a Ray cluster:
//! python/tests/test_cluster.py.)

mod common;

use std::path::Path;

use common::{cli, cli_ok, shared_data};

/// Runs `args` once per range with `--chunk`, each chunk into `folder`.
fn chunks(args: &[&str], ranges: &[&str], folder: &Path) {
    std::fs::create_dir_all(folder).unwrap();
    for range in ranges {
        let file = folder.join(format!("chunk-{}.json", range.replace("..", "-")));
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--chunk", range, "--chunk-out", file.to_str().unwrap()]);
        cli_ok(&all);
    }
}

fn stdout(out: std::process::Output) -> String {
    String::from_utf8(out.stdout).unwrap()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("collidescope-chunks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A command run whole into `base/whole`, then in chunks of `ranges` into
/// `base/parts` and reduced into `base/merged`: both printed reports (each folder's
/// name replaced by OUT) and the files of both folders checked to be the same bytes.
/// Returns the whole run's report and the reduce's arguments.
fn whole_and_merged(args: &[&str], ranges: &[&str], base: &Path) -> (String, Vec<String>) {
    let (whole, merged, parts) = (base.join("whole"), base.join("merged"), base.join("parts"));
    let with = |extra: &[&str]| -> Vec<String> {
        args.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let one = with(&["--out", whole.to_str().unwrap()]);
    let printed = stdout(cli_ok(&one.iter().map(String::as_str).collect::<Vec<_>>()));
    chunks(args, ranges, &parts);
    let reduce = with(&[
        "--out",
        merged.to_str().unwrap(),
        "--reduce",
        parts.to_str().unwrap(),
    ]);
    let merged_printed = stdout(cli_ok(
        &reduce.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    same_files(&whole, &merged);
    let steady = |s: &str, folder: &Path| s.replace(folder.to_str().unwrap(), "OUT");
    let (a, b) = (steady(&printed, &whole), steady(&merged_printed, &merged));
    // A sweep's first line ends with its seconds.
    let timed = |s: &str| {
        s.lines()
            .map(|l| {
                if l.ends_with(" s") {
                    l.rsplit_once(',').unwrap().0
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(timed(&a), timed(&b));
    (printed, reduce)
}

/// Every file of `a` is in `b` with the same bytes.
fn same_files(a: &Path, b: &Path) {
    let mut names: Vec<_> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(!names.is_empty(), "{} is empty", a.display());
    for name in names {
        if a.join(&name).is_dir() {
            continue;
        }
        let (x, y) = (
            std::fs::read(a.join(&name)).unwrap(),
            std::fs::read(b.join(&name)).unwrap(),
        );
        assert!(x == y, "{name:?} differs");
    }
}

#[test]
fn a_benchmark_in_chunks_writes_the_single_run_s_files() {
    let base = temp("bench");
    let parts = base.join("parts");
    let args = [
        "bench",
        "ellipsoids",
        "--pairs",
        "7",
        "--poses",
        "2",
        "--seed",
        "3",
    ];
    let (_, reduce) = whole_and_merged(&args, &["0..3", "3..4", "4..7"], &base);
    let reduce: Vec<&str> = reduce.iter().map(String::as_str).collect();
    // A chunk missing, then one twice: refused, naming what.
    std::fs::remove_file(parts.join("chunk-3-4.json")).unwrap();
    let gap = cli(&reduce);
    let said = String::from_utf8_lossy(&gap.stderr);
    assert!(
        !gap.status.success() && said.contains("items 3..4 are missing"),
        "{said}"
    );
    chunks(&args, &["2..4"], &parts);
    let overlap = cli(&reduce);
    let said = String::from_utf8_lossy(&overlap.stderr);
    assert!(
        !overlap.status.success() && said.contains("both cover items 2..3"),
        "{said}"
    );
    // A chunk of another seed.
    let _ = std::fs::remove_dir_all(&parts);
    let other = [
        "bench",
        "ellipsoids",
        "--pairs",
        "7",
        "--poses",
        "2",
        "--seed",
        "4",
    ];
    chunks(&other, &["0..7"], &parts);
    let foreign = cli(&reduce);
    let said = String::from_utf8_lossy(&foreign.stderr);
    assert!(
        !foreign.status.success() && said.contains("a chunk of another run"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_sweep_in_chunks_reports_and_writes_what_the_single_run_does() {
    let Some(meshes) = shared_data("meshes") else {
        return;
    };
    let (a, b) = (meshes.join("spot.obj"), meshes.join("cow.obj"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let base = temp("sweep");
    let args = ["sweep", a, b, "--samples", "300", "--seed", "9"];
    whole_and_merged(&args, &["0..1", "1..170", "170..300"], &base);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_folder_of_captures_names_its_bad_files_and_splits_into_chunks() {
    let captures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/imports");
    let captures = captures.to_str().unwrap();
    let base = temp("captures");
    let (printed, _) = whole_and_merged(&["import", captures], &["0..5", "5..12"], &base);
    assert!(
        printed.contains("fcl_594_nan_vertex.txt: refused:"),
        "{printed}"
    );
    assert!(printed.contains("line 8"), "{printed}");
    assert!(printed.contains("12 captures in"), "{printed}");
    assert!(printed.contains("9 imported, 3 refused"), "{printed}");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_robot_chunk_starts_where_warm_starts_restart() {
    let Some(robots) = shared_data("robots") else {
        return;
    };
    let urdf = robots.join("panda_description/urdf/panda.urdf");
    let out = cli(&[
        "robot",
        urdf.to_str().unwrap(),
        "--random",
        "600",
        "--chunk",
        "100..300",
        "--chunk-out",
        "-",
    ]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("a multiple of 256"),
        "{said}"
    );
}
