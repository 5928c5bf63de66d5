//! `tiergate`: parses arguments and dispatches; the work lives in the classifier
//! library and in one module per subcommand. `src/main.rs` only calls [`run`].
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]

mod approvals;
mod args;
mod batch;
mod cli;
mod hook;
mod install;
mod realfs;
mod rules;

use std::process::ExitCode;

/// What `tiergate programs` prints, one JSON line each: every program card, then every
/// policy table with its entries, probes and source position.
pub fn programs_dump() -> String {
    rules::dump().iter().map(|l| format!("{l}\n")).collect()
}

/// Runs `tiergate` with its arguments (without the program name) and returns its exit code.
pub fn run(args: Vec<String>) -> ExitCode {
    let Some((word, rest)) = args.split_first() else {
        eprint!("{}", args::usage());
        return ExitCode::from(2);
    };
    match word.as_str() {
        "-h" | "--help" | "help" => {
            print!("{}", args::usage());
            return ExitCode::SUCCESS;
        }
        "-V" | "--version" => {
            println!("tiergate {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        // The hook answers every problem, its arguments' too, in the agent's own
        // form (an ask), never with a usage text an agent might take for consent.
        "hook" => return hook::run(rest),
        _ => {}
    }
    let cmd = match args::command(word) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tiergate: {e}");
            return ExitCode::from(2);
        }
    };
    let parsed = match args::parse(cmd, rest) {
        Ok(p) => p,
        Err(args::ArgError::Help) => {
            print!("{}", args::cmd_usage(cmd));
            return ExitCode::SUCCESS;
        }
        Err(args::ArgError::Bad(e)) => {
            eprintln!("tiergate {}: {e}\n{}", cmd.name, args::cmd_usage(cmd));
            return ExitCode::from(2);
        }
    };
    match cmd.name {
        "classify" => cli::classify(&parsed),
        "explain" => cli::explain(&parsed),
        "batch" => batch::run(&parsed),
        "rules" => rules::run(),
        "programs" => rules::programs(),
        "install" => install::run(&parsed),
        "doctor" => install::doctor(),
        name => approvals::run(name, &parsed),
    }
}
