//! The `//! in` / `//! out` golden examples written in each adapter's header
//! (`classifier/tiergate/src/hook/agents/*.rs`), run as written through the
//! real binary, so the documentation cannot drift from what the adapter does.
//! The header's `out` is documentation (`…` stands for any text); the exact
//! answers (exit code, stdout line, stderr, with `--agent` and detected) are one
//! `insta` snapshot per agent in `snapshots/`, blessed with `cargo insta review`
//! (README, "Snapshots").

use super::hook_harness::*;
use serde_json::Value;

use super::hook_agents::run_hook;

/// `…` in an expected string stands for any text.
fn wild(pat: &str, s: &str) -> bool {
    let pieces: Vec<&str> = pat.split('…').collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return pat == s;
    }
    if !s.starts_with(first) || !s[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &s[first.len()..s.len() - last.len()];
    for p in &pieces[1..pieces.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

fn same_shape(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w.len() == g.len() && w.iter().all(|(k, v)| g.get(k).is_some_and(|x| same_shape(v, x))),
        (Value::String(w), Value::String(g)) => wild(w, g),
        (w, g) => w == g,
    }
}

fn backticked(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The `//! in` / `//! out` golden examples in each adapter's header, run as written.
#[test]
fn golden_examples_in_every_adapter_hold() {
    let env = Env::new("golden");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/hook/agents");
    let mut checked = 0;
    let mut bad = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut changed = Vec::new();
    for path in paths {
        let agent = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().take_while(|l| l.starts_with("//!")).collect();
        let mut n = 0;
        let mut exact = String::new();
        for (i, l) in lines.iter().enumerate() {
            let Some(rest) = l.strip_prefix("//! in  ") else { continue };
            let input = backticked(rest)[0];
            let out = lines.get(i + 1).and_then(|o| o.strip_prefix("//! out ")).unwrap_or_else(|| panic!("{agent}: `in` without `out`"));
            let code: i32 = out.rsplit("exit ").next().unwrap().trim().parse().unwrap_or_else(|_| panic!("{agent}: no exit code in {out}"));
            let ticks = backticked(out);
            let (want_json, want_err) = match (out.starts_with("nothing"), out.starts_with("stderr")) {
                (true, _) => (None, None),
                (_, true) => (None, Some(ticks[0])),
                _ => (Some(ticks[0]), ticks.get(1).copied()),
            };
            exact.push_str(&format!("in {input}\n"));
            let mut flagged = None;
            for flag in [Some(agent.as_str()), None] {
                let o = run_hook(&env, flag, input.as_bytes());
                let stdout = String::from_utf8_lossy(&o.stdout).trim().to_owned();
                let stderr = String::from_utf8_lossy(&o.stderr).trim().to_owned();
                let shown = |t: &str| if t.is_empty() { "(nothing)".to_owned() } else { redact(&env, t) };
                let exit = o.status.code().map_or("by a signal".to_owned(), |c| c.to_string());
                let seen = format!("exit {exit}\n  stdout {}\n  stderr {}\n", shown(&stdout), shown(&stderr));
                match (flag, &flagged) {
                    (Some(_), _) => exact.push_str(&format!("--agent {agent}: {seen}")),
                    (None, Some(f)) if *f == seen => exact.push_str("detected: the same\n"),
                    (None, _) => exact.push_str(&format!("detected: {seen}")),
                }
                if flag.is_some() {
                    flagged = Some(seen);
                }
                let ok_json = match want_json {
                    None => stdout.is_empty(),
                    Some(w) => serde_json::from_str::<Value>(&stdout).is_ok_and(|g| same_shape(&serde_json::from_str(w).unwrap(), &g)),
                };
                let ok_err = want_err.is_none_or(|w| wild(w, &stderr));
                if o.status.code() != Some(code) || !ok_json || !ok_err {
                    bad.push(format!("{agent} ({flag:?}): {input}\n  want {out}\n  got  exit {:?} stdout {stdout} stderr {stderr}", o.status.code()));
                }
            }
            n += 1;
        }
        assert!(n > 0, "{agent}: no golden example");
        let name = format!("golden_{agent}");
        if std::panic::catch_unwind(|| insta::assert_snapshot!(name, exact)).is_err() {
            changed.push(agent);
        }
        checked += n;
    }
    assert!(checked >= 20, "{checked}");
    assert!(bad.is_empty(), "\n{}", bad.join("\n"));
    assert!(changed.is_empty(), "the exact answers changed for {changed:?}: review with `cargo insta review`");
}

/// The parts of an answer that differ per run: the approval code and the temp home.
fn redact(env: &Env, text: &str) -> String {
    let mut t = text.replace(env.root.to_str().unwrap(), "[ENV]");
    if let Some(code) = code_in(&t) {
        t = t.replace(&code, "[CODE]");
    }
    t
}

/// Claude Code's T3 answer per permission mode and per client, as the hook's
/// environment tells it (docs/decisions/0012-claude-ask-by-client.md): the exact
/// answers, pinned, so a change to the contract is a reviewed snapshot change.
#[test]
fn golden_claude_t3_by_mode_and_client() {
    let clients: [(&str, &[(&str, &str)]); 4] = [
        ("no client variables", &[]),
        ("2.1.331, interactive", &[("AI_AGENT", "claude-code_2-1-331_harness"), ("CLAUDE_CODE_SESSION_ATTENDED", "1")]),
        ("2.1.332, interactive", &[("AI_AGENT", "claude-code_2-1-332_harness"), ("CLAUDE_CODE_SESSION_ATTENDED", "1")]),
        ("2.1.332, -p (unattended)", &[("AI_AGENT", "claude-code_2-1-332_harness"), ("CLAUDE_CODE_SESSION_ATTENDED", "0")]),
    ];
    let mut exact = String::new();
    for (label, vars) in clients {
        let env = vars.iter().fold(Env::new("golden-claude-modes"), |e, (k, v)| e.with(k, v));
        exact.push_str(&format!("{label}:\n"));
        for mode in ["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"] {
            let ev = serde_json::json!({"session_id":"s","transcript_path":"/t.jsonl","cwd":env.cwd(),"permission_mode":mode,
                "hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"kubectl delete pod web-1"},"tool_use_id":"toolu_01"});
            let o = run_hook(&env, None, ev.to_string().as_bytes());
            let v: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
            let h = &v["hookSpecificOutput"];
            let reason = redact(&env, h["permissionDecisionReason"].as_str().unwrap_or_default());
            exact.push_str(&format!("  {mode:<17} exit {:?} {} {reason}\n", o.status.code(), h["permissionDecision"]));
        }
    }
    insta::assert_snapshot!("golden_claude_t3_by_mode", exact);
}
