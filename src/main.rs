//! `collidescope`: the viewer (with the `app` feature) and the headless commands.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Output piped into a reader that stops early (`collidescope robot ... | head`) ends
/// the program quietly, as other Unix tools end, instead of a panic on the broken pipe.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: setting a signal's disposition to its default at the start of `main`,
    // before any thread is started, touches no Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
