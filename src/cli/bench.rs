//! `collidescope bench --problems FILE`

use std::path::Path;

use collidescope::bench::problems::{mean_table, run_problems, ProblemFile, PROBLEM_ALGORITHMS};

pub fn run_problem_file(path: &Path, json: bool) -> anyhow::Result<()> {
    let file = ProblemFile::load(path)?;
    let results = run_problems(&file)?;
    let table = mean_table(&file, &results);
    if json {
        println!(
            "{}",
            serde_json::to_string(&serde_json::json!({ "results": results }))?
        );
        eprintln!("{table}");
        return Ok(());
    }
    print!("{:>5} {:>9}", "index", "target");
    for alg in PROBLEM_ALGORITHMS {
        print!("  {:>32}", alg.name());
    }
    println!();
    for r in &results {
        print!("{:>5} {:>9}", r.index, format!("{}", r.target_distance));
        for alg in PROBLEM_ALGORITHMS {
            let a = &r.algorithms[alg.name()];
            let distance = a.distance.map_or("-".to_string(), |d| format!("{d:.6e}"));
            print!("  {:>4} {:>13} {:>13}", a.iterations, distance, a.status);
        }
        println!();
    }
    println!();
    print!("{table}");
    Ok(())
}
