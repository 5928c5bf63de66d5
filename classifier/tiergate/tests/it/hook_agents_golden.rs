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
