//! The session extension of `tiergate batch`: a request with `"session"` is a step
//! of an agent's session and reads the files the session's earlier steps wrote.
//! Driven through the real binary, over the real file system (a fresh directory
//! where the script does not exist).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// Answers of `tiergate batch` to `lines`, in order.
fn batch(lines: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiergate"))
        .arg("batch")
        .env("HOME", "/home/user")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawning tiergate batch: {e}"));
    let mut input = String::new();
    for l in lines {
        input.push_str(&l.to_string());
        input.push('\n');
    }
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).unwrap_or_else(|e| panic!("writing: {e}"));
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("waiting: {e}"));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn class(a: &Value) -> String {
    if a["blocked"] == json!(true) {
        "BLOCKED".into()
    } else {
        format!("{} {}", a["tier"].as_str().unwrap_or("?"), a["rule"].as_str().unwrap_or("?"))
    }
}

const PRINTS: &str = "cat > x.py <<'EOF'\nprint('reproduced')\nEOF";
const DELETES: &str = "cat > x.py <<'EOF'\nimport shutil\nshutil.rmtree('/home/user/other-project')\nEOF";

#[test]
fn a_session_step_reads_the_script_an_earlier_step_wrote() {
    let env = crate::hook_harness::Env::new("sessions");
    let cwd = env.cwd().to_owned();
    let step = |id: &str, session: &str, command: &str| json!({"id": id, "command": command, "cwd": cwd, "session": session});
    // Two sessions interleaved: the same `python3 x.py` follows a different heredoc in each.
    let answers = batch(&[
        step("p1", "prints", PRINTS),
        step("d1", "deletes", DELETES),
        step("p2", "prints", "python3 x.py"),
        step("d2", "deletes", "python3 x.py"),
        json!({"id": "alone", "command": "python3 x.py", "cwd": cwd}),
    ]);
    let by_id = |id: &str| answers.iter().find(|a| a["id"] == json!(id)).map(class).unwrap_or_default();
    assert!(by_id("p2").starts_with("T0"), "prints: {}", by_id("p2"));
    assert!(by_id("d2").starts_with("T3"), "deletes outside the tree: {}", by_id("d2"));
    // Without the session the script is missing, and a missing script asks.
    assert_eq!(by_id("alone"), "T3 interp.script.unreadable");
    // Nothing was written to the disk: the overlay is the batch process's alone.
    assert!(!env.work.join("x.py").exists());
    // The answers keep protocol v1's shape.
    for a in &answers {
        let mut keys: Vec<&str> = a.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        keys.sort_unstable();
        assert_eq!(keys, ["blocked", "decision", "id", "reason", "rule", "tier", "v"], "{a}");
    }
}

#[test]
fn the_extension_is_listed_and_a_bad_session_field_is_an_invalid_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_tiergate")).args(["batch", "--extensions"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "session\n");
    let answers = batch(&[json!({"id": 1, "command": "ls", "session": 7})]);
    assert_eq!(answers[0]["rule"], json!("input.invalid"), "{}", answers[0]);
    assert_eq!(answers[0]["decision"], json!("ask"));
}
