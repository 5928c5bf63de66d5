//! `tiergate`: parses arguments and dispatches; the work lives in the classifier
//! library and in one module per subcommand. `src/main.rs` only calls [`run`].
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]

mod approvals;
mod batch;
mod cli;
mod hook;
mod install;
mod realfs;
mod rules;

use std::process::ExitCode;

const USAGE: &str = "\
tiergate — tiers shell commands for AI coding agents

usage:
  tiergate classify [--cwd DIR] CMD   one verdict as JSON
  tiergate explain [--cwd DIR] CMD    a readable trace: units, rules, why
  tiergate batch [--protocol]         protocol v1 over stdin/stdout (JSON lines)
  tiergate rules                      the rule registry as JSON lines (id, family, class, examples)
  tiergate hook [--agent NAME] [--mode ask|nonce]
                                      pre-execution hook of a coding agent (event JSON on stdin;
                                      the agent is detected without --agent; see docs/hooks.md)
  tiergate approve CODE               grant one retry of a command denied in nonce mode
  tiergate approvals list|revoke ID|reject ID|reject-all|clean
  tiergate log [-n N]                 recent hook decisions
  tiergate install --agent NAME [--print|--write [--file PATH]]
                                      the hook config for one agent (claude, codex, gemini, cursor, …)
  tiergate doctor                     which agents are wired, and whether their hook answers
";

/// Runs `tiergate` with its arguments (without the program name) and returns its exit code.
pub fn run(args: Vec<String>) -> ExitCode {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match cmd {
        "classify" => cli::classify(rest),
        "explain" => cli::explain(rest),
        "batch" => batch::run(rest),
        "rules" => rules::run(rest),
        "hook" => hook::run(rest),
        "install" => install::run(rest),
        "doctor" => install::doctor(rest),
        "approve" | "approvals" | "log" => approvals::run(cmd, rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        "-V" | "--version" => {
            println!("tiergate {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("tiergate: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
