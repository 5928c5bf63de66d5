//! `tiergate hook`: the Claude Code PreToolUse hook. (Stub: owned by the hook work.)
use std::process::ExitCode;
pub fn run(_args: &[String]) -> ExitCode {
    ExitCode::SUCCESS
}
