//! The README's quick start, run as written: its `sh` block (after the
//! `cargo install` line, which `.ci/run` runs) through `sh` with the built
//! `tiergate` on the PATH, in a scratch HOME and git checkout; the answers and
//! log lines the README shows must be what comes out (log lines without their
//! time stamp). So the first screen a new user reads cannot rot.

use std::path::Path;
use std::process::Command;

use super::hook_harness::*;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap()
}

/// The first fenced block of `lang` after `from` in `text`.
fn block<'a>(text: &'a str, from: &str, lang: &str) -> &'a str {
    let at = text.find(from).unwrap_or_else(|| panic!("README has no {from:?}"));
    let fence = format!("```{lang}\n");
    let start = at + text[at..].find(&fence).unwrap_or_else(|| panic!("no ```{lang} block after {from:?}")) + fence.len();
    &text[start..start + text[start..].find("```").unwrap()]
}

/// A log line without its leading time stamp.
fn untimed(line: &str) -> &str {
    line.split_once("  ").map_or(line, |(_, rest)| rest).trim_end()
}

#[test]
fn the_quick_start_runs_as_written() {
    let text = readme();
    let script = block(&text, "## Quick start", "sh");
    let shown = block(&text, "## Quick start", "text");
    let (install, rest) = script.split_once('\n').unwrap();
    let install = install.split('#').next().unwrap().trim();
    assert_eq!(install, "cargo install --locked --path classifier/tiergate");
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/run")).unwrap();
    assert!(ci.contains(install), ".ci/run runs the README's install command `{install}`");

    let env = Env::new("readme");
    let checkout = env.root.join("checkout");
    std::fs::create_dir_all(&checkout).unwrap();
    assert!(Command::new("git").args(["init", "-q"]).current_dir(&checkout).status().unwrap().success());
    let bin_dir = Path::new(BIN).parent().unwrap();
    let out = Command::new("sh")
        .args(["-ec", rest])
        .current_dir(&checkout)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the quick start failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.lines().any(|l| l.starts_with("claude") && l.contains(" pass ")), "doctor passes:\n{stdout}");
    let got: Vec<&str> = stdout.lines().collect();
    let mut decisions = Vec::new();
    for want in shown.lines().filter(|l| !l.trim().is_empty()) {
        if want.starts_with('{') {
            assert!(got.contains(&want), "the README shows an answer the hook did not give:\n{want}\ngot:\n{stdout}");
            decisions.push(want);
        } else {
            assert!(got.iter().any(|g| untimed(g) == untimed(want)), "the README shows a log line `tiergate log` did not print:\n{want}\ngot:\n{stdout}");
        }
    }
    let kinds: Vec<&str> = ["\"allow\"", "\"ask\"", "\"deny\""].into_iter().filter(|k| decisions.iter().any(|d| d.contains(k))).collect();
    assert_eq!(kinds.len(), 3, "one allow, one ask and one deny are shown: {decisions:?}");
}
