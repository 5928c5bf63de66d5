//! Shared oracles for the fuzz targets: the `tiergate` binary to drive, and the
//! checks every protocol v1 line and hook answer must pass.
//!
//! It does not generate inputs (libFuzzer does) and does not classify (the
//! classifier library does).

use std::path::PathBuf;

use classifier::{classify, Decision, Request};
use serde_json::Value;

/// The `tiergate` binary under test: `$TIERGATE_BIN`, else the workspace's
/// release build (`cargo build --release -p tiergate`).
pub fn tiergate_bin() -> PathBuf {
    match std::env::var_os("TIERGATE_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/tiergate")),
    }
}

/// The `HOME` the hook target runs `tiergate hook` with.
pub const HOOK_HOME: &str = "/nonexistent-home";

/// The library's decision for `command` with no file access, as the wire spells it.
pub fn library_decision(command: &str, home: &str) -> &'static str {
    classify(&Request::new(command).with_home(home)).decision.as_str()
}

/// Checks one protocol v1 output line against its input line; panics (a fuzz
/// finding) with both when the contract is broken.
pub fn check_protocol_line(input: &[u8], output: &str) {
    let out: Value = serde_json::from_str(output)
        .unwrap_or_else(|e| panic!("output is not JSON ({e}): {output:?} for input {input:?}"));
    let o = out.as_object().unwrap_or_else(|| panic!("output is not an object: {output}"));
    assert_eq!(o.get("v").and_then(Value::as_u64), Some(1), "bad v: {output}");
    let decision = o.get("decision").and_then(Value::as_str).unwrap_or_default();
    assert!(matches!(decision, "allow" | "ask" | "deny"), "bad decision: {output}");
    let tier = o.get("tier").and_then(Value::as_str).unwrap_or_default();
    assert!(matches!(tier, "T0" | "T1" | "T2" | "T3"), "bad tier: {output}");
    let blocked = o.get("blocked").and_then(Value::as_bool).unwrap_or_else(|| panic!("no blocked: {output}"));
    if blocked {
        assert_eq!(decision, "deny", "blocked but not denied: {output}");
    }
    // What the line should have been read as.
    let line = input.strip_suffix(b"\r").unwrap_or(input);
    let parsed: Option<Value> = std::str::from_utf8(line).ok().and_then(|s| serde_json::from_str(s).ok());
    let command = parsed.as_ref().and_then(|v| v.get("command")).and_then(Value::as_str);
    match (parsed.as_ref().map(Value::is_object), command) {
        (Some(true), Some(_)) => {
            // A readable line is classified; an allow must come from that
            // classification, never from an error path.
            if decision == "allow" {
                assert!(o.get("error").is_none(), "allow with an error: {output}");
            }
        }
        _ => {
            assert_eq!(decision, "ask", "invalid line not answered ask: {input:?} → {output}");
            assert_eq!(o.get("rule").and_then(Value::as_str), Some("input.invalid"), "{output}");
        }
    }
}

/// Checks one `tiergate hook` answer: exit 0, stdout empty or one
/// `hookSpecificOutput` object; an allow only for a well-formed Bash event whose
/// command the library also allows.
pub fn check_hook_answer(event: &[u8], status_ok: bool, stdout: &str) {
    assert!(status_ok, "hook exited non-zero for {event:?}");
    let trimmed = stdout.trim_end();
    if trimmed.is_empty() {
        return; // no opinion: a tool the hook does not handle
    }
    assert!(!trimmed.contains('\n'), "more than one line: {stdout:?}");
    let v: Value = serde_json::from_str(trimmed).unwrap_or_else(|e| panic!("hook output not JSON ({e}): {stdout:?}"));
    let d = v.pointer("/hookSpecificOutput/permissionDecision").and_then(Value::as_str).unwrap_or_default();
    assert!(matches!(d, "allow" | "ask" | "deny"), "bad permissionDecision: {stdout}");
    if d == Decision::Allow.as_str() {
        let ev: Value = std::str::from_utf8(event)
            .ok()
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or_else(|| panic!("allow for an unreadable event {event:?}"));
        let tool = ev.get("tool_name").and_then(Value::as_str);
        if tool == Some("Bash") {
            let cmd = ev.pointer("/tool_input/command").and_then(Value::as_str);
            let cmd = cmd.unwrap_or_else(|| panic!("allow for a Bash event without a command: {ev}"));
            // The hook reads real files, the library none: the library can only be
            // stricter, so a library allow is required whenever the hook allows,
            // except where a real file made the hook's verdict lower.
            let lib = library_decision(cmd, HOOK_HOME);
            assert!(lib == "allow" || ev.get("cwd").is_some(), "hook allowed {cmd:?} but the library says {lib}");
        }
    }
}
