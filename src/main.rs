use std::path::PathBuf;
use std::process::ExitCode;

use collidescope::bench::problems::{mean_table, run_problems, ProblemFile};

fn main() -> ExitCode {
    let path = PathBuf::from(std::env::args().nth(1).unwrap());
    let file = ProblemFile::load(&path).unwrap();
    let results = run_problems(&file).unwrap();
    println!("{}", serde_json::to_string(&serde_json::json!({"results": results})).unwrap());
    eprintln!("{}", mean_table(&file, &results));
    ExitCode::SUCCESS
}
