//! `tiergate approve|approvals|log|install`. (Stub: owned by the hook work.)
use std::process::ExitCode;
pub fn run(_cmd: &str, _args: &[String]) -> ExitCode {
    ExitCode::from(2)
}
