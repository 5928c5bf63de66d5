//! `tiergate`: parses arguments and dispatches; the work lives in the library and
//! in one module per subcommand.
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]
// Our own C `main` on Unix (see `main` below): std's runtime set-up is skipped.
// Not in the unit-test build, whose `main` is the test harness's.
#![cfg_attr(all(unix, not(test)), no_main)]

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

/// The process entry on Unix, instead of std's `lang_start`. That set-up reads
/// `/proc/self/maps` (`pthread_getattr_np`, to place a guard page for the main
/// thread's stack-overflow message) and installs an alternate signal stack: about
/// 19 syscalls and 110k instructions, a tenth of a hook call (issue 14,
/// docs/decisions/0005-hook-startup.md). What it did that we rely on is done here:
/// SIGPIPE ignored (a closed pipe is an `EPIPE` error, as every subcommand expects)
/// and a panic escaping a subcommand ends the process with exit 101, not an abort.
/// std still finds the arguments (glibc passes them to its `.init_array` hook) and
/// `process::exit` flushes stdout. A stack overflow now ends with SIGSEGV instead of
/// std's message and SIGABRT; either way no answer, and the engine's depth limits
/// exist so that it cannot happen.
#[cfg(all(unix, not(test)))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: setting a signal's disposition to SIG_IGN before any thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let code = match std::panic::catch_unwind(run) {
        // `ExitCode` offers no stable way to its number but equality with `From<u8>`.
        Ok(code) => (0..=u8::MAX).find(|n| ExitCode::from(*n) == code).map_or(1, i32::from),
        Err(_) => 101,
    };
    std::process::exit(code)
}

#[cfg(any(not(unix), test))]
fn main() -> ExitCode {
    run()
}

fn run() -> ExitCode {
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
