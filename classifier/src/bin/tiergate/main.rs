//! `tiergate`: parses arguments and dispatches; the work lives in the library and
//! in one module per subcommand.

mod approvals;
mod batch;
mod cli;
mod hook;
mod realfs;

use std::process::ExitCode;

const USAGE: &str = "\
tiergate — tiers shell commands for AI coding agents

usage:
  tiergate classify [--cwd DIR] CMD   one verdict as JSON
  tiergate explain [--cwd DIR] CMD    a readable trace: units, rules, why
  tiergate batch [--protocol]         protocol v1 over stdin/stdout (JSON lines)
  tiergate hook [--mode ask|nonce]    Claude Code PreToolUse hook (event JSON on stdin)
  tiergate approve CODE               grant one retry of a command denied in nonce mode
  tiergate approvals list|revoke ID|reject ID|reject-all|clean
  tiergate log [-n N]                 recent hook decisions
  tiergate install --print            the settings.json snippet that wires the hook
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
        "hook" => hook::run(rest),
        "approve" | "approvals" | "log" | "install" => approvals::run(cmd, rest),
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
