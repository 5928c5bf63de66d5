//! `tiergate install --agent X [--print|--write]` and `tiergate doctor` through
//! the real binary, in a private HOME: snippets per agent, atomic merge with a
//! backup, nothing written without --write, and doctor's checks and round trip.

use super::hook_harness::*;
use serde_json::Value;

fn agents(env: &Env) -> Vec<String> {
    let (rc, out, _) = env.cli(&["install", "--agents"]);
    assert_eq!(rc, 0);
    // `NAME  ~/FILE` per line.
    out.lines().map(|l| l.split_whitespace().next().unwrap_or_default().to_owned()).collect()
}

/// An env whose PATH has no `tiergate` at all.
fn without_bin_on_path(env: Env) -> Env {
    env.with("PATH", "/usr/bin:/bin")
}

/// An env whose PATH finds the built `tiergate` first.
fn with_bin_on_path(env: Env) -> Env {
    let dir = std::path::Path::new(BIN).parent().unwrap().display().to_string();
    let path = format!("{dir}:{}", std::env::var("PATH").unwrap_or_default());
    env.with("PATH", &path)
}

#[test]
fn every_agent_has_a_snippet_and_print_writes_nothing() {
    let env = Env::new("snippets");
    let names = agents(&env);
    for want in ["claude", "codex", "gemini", "cursor", "copilot", "vscode", "droid", "windsurf", "cline", "kiro", "augment"] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    for a in &names {
        let (rc, out, err) = env.cli(&["install", "--agent", a, "--print"]);
        assert_eq!(rc, 0, "{a}: {err}");
        assert!(out.contains("tiergate hook"), "{a}: {out}");
        if !out.starts_with("#!") {
            let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{a}: snippet is JSON ({e}): {out}"));
            let text = v.to_string();
            assert!(text.contains("\"timeout\"") || text.contains("\"timeoutSec\"") || a == "windsurf", "{a}: explicit timeout: {text}");
        }
        assert!(!err.trim().is_empty(), "{a}: the steps left to take are printed");
    }
    assert_eq!(std::fs::read_dir(&env.home).unwrap().count(), 0, "--print wrote nothing");
}

#[test]
fn snippets_cover_every_shell_tool_and_say_what_the_agent_needs() {
    let env = Env::new("snippet-details");
    let (_, out, _) = env.cli(&["install", "--agent", "claude"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let m = v["hooks"]["PreToolUse"][0]["matcher"].as_str().unwrap().split('|').collect::<Vec<_>>();
    for t in ["Bash", "PowerShell", "Monitor", "Shell", "run_in_terminal", "runTerminalCommand", "Write", "Edit", "MultiEdit", "NotebookEdit"] {
        assert!(m.contains(&t), "claude matcher covers {t}: {m:?}");
    }
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 10);
    let (_, out, _) = env.cli(&["install", "--agent", "cursor"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    for (event, entries) in v["hooks"].as_object().unwrap() {
        for e in entries.as_array().unwrap() {
            assert_eq!(e["failClosed"], true, "cursor {event}: failClosed");
            assert_eq!(e["timeout"], 10);
        }
    }
    assert!(v["hooks"]["beforeShellExecution"].is_array());
    let (_, _, err) = env.cli(&["install", "--agent", "codex"]);
    assert!(err.contains("/hooks") && err.contains("trust"), "codex trust step: {err}");
    let (_, out, _) = env.cli(&["install", "--agent", "codex"]);
    assert!(out.contains("Bash|apply_patch"), "{out}");
}

#[test]
fn write_merges_atomically_with_a_backup_and_is_idempotent() {
    let env = Env::new("write");
    let file = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let old = r#"{"permissions":{"allow":["Bash(ls)"]},"hooks":{"PreToolUse":[
        {"matcher":"Bash","hooks":[{"type":"command","command":"tiergate hook"}]},
        {"matcher":"Write","hooks":[{"type":"command","command":"other-guard"}]}],
        "Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}"#;
    std::fs::write(&file, old).unwrap();
    let (rc, out, err) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["permissions"]["allow"][0], "Bash(ls)", "other settings kept");
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "notify", "other events kept");
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2, "the old tiergate entry is replaced, the other guard kept: {pre:?}");
    assert_eq!(pre[0]["hooks"][0]["command"], "other-guard");
    assert!(pre[1]["matcher"].as_str().unwrap().contains("PowerShell"));
    let backups: Vec<_> =
        std::fs::read_dir(file.parent().unwrap()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.to_string_lossy().contains("tiergate-backup")).collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert_eq!(std::fs::read_to_string(&backups[0]).unwrap(), old, "the backup is the old file");
    assert!(out.contains("previous version kept"), "{out}");
    let before = std::fs::read_to_string(&file).unwrap();
    let (rc, _, _) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "idempotent");
    let n = std::fs::read_dir(file.parent().unwrap()).unwrap().count();
    assert_eq!(n, 2, "no second backup, no temp file left");
    // A config that does not parse is left alone.
    std::fs::write(&file, "{ not json").unwrap();
    let (rc, _, err) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
    // New files for other agents, created with their directories.
    for (a, f) in
        [("codex", ".codex/hooks.json"), ("cursor", ".cursor/hooks.json"), ("cline", "Documents/Cline/Hooks/PreToolUse"), ("kiro", ".kiro/hooks/tiergate.json")]
    {
        let (rc, out, err) = env.cli(&["install", "--agent", a, "--write"]);
        assert_eq!(rc, 0, "{a}: {out}{err}");
        assert!(env.home.join(f).is_file(), "{a}: {f}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(env.home.join("Documents/Cline/Hooks/PreToolUse")).unwrap().permissions().mode();
    assert_eq!(mode & 0o111, 0o111, "the Cline hook is executable");
}

#[test]
fn doctor_reports_wired_agents_and_runs_a_live_round_trip() {
    let env = with_bin_on_path(Env::new("doctor"));
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 0, "{out}");
    assert!(out.contains("0 agent(s) configured"), "{out}");
    for a in ["claude", "codex", "cursor", "gemini", "kiro"] {
        let (rc, _, err) = env.cli(&["install", "--agent", a, "--write"]);
        assert_eq!(rc, 0, "{a}: {err}");
    }
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 0, "{out}");
    for a in ["claude", "codex", "cursor", "gemini", "kiro", "vscode"] {
        assert!(out.lines().any(|l| l.starts_with(a) && l.contains(" pass ")), "{a} passes:\n{out}");
    }
    assert!(out.contains("live round trip: `git status` allowed"), "{out}");
    // A Bash-only matcher misses PowerShell and Monitor; a missing binary fails the round trip.
    std::fs::write(
        env.home.join(".claude/settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"tiergate hook"}]}]}}"#,
    )
    .unwrap();
    std::fs::write(
        env.home.join(".codex/hooks.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/nonexistent/tiergate hook --agent codex"}]}]}}"#,
    )
    .unwrap();
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 1, "{out}");
    assert!(out.lines().any(|l| l.starts_with("claude") && l.contains("FAIL")), "{out}");
    assert!(out.contains("`PowerShell`") && out.contains("`Monitor`"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("codex") && l.contains("FAIL")), "{out}");
    assert!(out.contains("not on this PATH") && out.contains("live round trip failed"), "{out}");
    // Each failure names the exact command that fixes it.
    assert!(out.contains("fix: run `tiergate install --agent codex --write`, which writes `tiergate hook`"), "{out}");
    assert!(
        out.contains("the command fails open") && out.contains("fix: run `tiergate install --agent claude --write`, which ends it in `|| exit 2`"),
        "{out}"
    );
}

#[test]
fn write_without_tiergate_on_the_path_writes_the_absolute_path_and_doctor_passes() {
    let env = without_bin_on_path(Env::new("abs-path"));
    let (rc, out, err) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(err.contains(&format!("`tiergate` is not on this PATH: the hook runs {BIN} by its absolute path")), "it says so: {err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.home.join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], format!("{BIN} hook || exit 2"));
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 0, "{out}");
    assert!(out.lines().any(|l| l.starts_with("claude") && l.contains(" pass ")), "{out}");
    assert!(out.contains(&format!("`{BIN}` resolves to {BIN}")), "{out}");
    // A bare name that this PATH cannot find: the fix names this binary, as install would write it.
    std::fs::write(
        env.home.join(".claude/settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash|PowerShell|Monitor","hooks":[{"type":"command","command":"tiergate hook || exit 2"}]}]}}"#,
    )
    .unwrap();
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains(&format!("fix: run `{BIN} install --agent claude --write`, which writes `{BIN} hook`")), "{out}");
    // With the binary on the PATH, the plain name is written.
    let env = with_bin_on_path(Env::new("name-on-path"));
    let (rc, _, err) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 0, "{err}");
    assert!(!err.contains("absolute path"), "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(env.home.join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "tiergate hook || exit 2");
}

#[test]
fn another_tiergate_first_on_the_path_is_not_the_one_written() {
    let env = Env::new("other-bin");
    let other = env.root.join("other-bin");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("tiergate"), "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(other.join("tiergate"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let env = env.with("PATH", &format!("{}:/usr/bin:/bin", other.display()));
    let (rc, out, err) = env.cli(&["install", "--agent", "gemini"]);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains(&format!("`tiergate` on this PATH is {}, not this binary", other.join("tiergate").display())), "{err}");
    assert!(out.contains(&format!("\"{BIN} hook --agent gemini || exit 2\"")), "--print shows what --write would write: {out}");
}

#[test]
fn install_says_each_note_once() {
    let env = without_bin_on_path(Env::new("notes-once"));
    for args in [&["install", "--agent", "claude"][..], &["install", "--agent", "claude", "--write"], &["install", "--agent", "vscode", "--write"]] {
        let (rc, _, err) = env.cli(args);
        assert_eq!(rc, 0, "{err}");
        let lines: Vec<&str> = err.lines().collect();
        let mut seen = std::collections::BTreeSet::new();
        assert!(lines.iter().all(|l| seen.insert(*l)), "{args:?} repeats a line:\n{err}");
        assert_eq!(err.matches("~/.claude/settings.json").count(), usize::from(args.len() == 3), "{args:?}: the file is named once, by --print:\n{err}");
    }
}

#[test]
fn claude_exec_form_is_understood_by_write_and_doctor() {
    let env = with_bin_on_path(Env::new("exec-form"));
    let file = env.home.join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash|PowerShell|Monitor|run_in_terminal|runTerminalCommand","hooks":[{"type":"command","command":"tiergate","args":["hook"],"timeout":10}]}]}}"#,
    )
    .unwrap();
    let (rc, out, _) = env.cli(&["doctor"]);
    assert_eq!(rc, 1, "the exec form cannot end in `|| exit 2`, so a missing binary would not block: {out}");
    assert!(out.contains("command: tiergate hook") && out.contains("live round trip: `git status` allowed"), "{out}");
    assert!(out.contains("the command fails open"), "{out}");
    let (rc, _, err) = env.cli(&["install", "--agent", "claude", "--write"]);
    assert_eq!(rc, 0, "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 1, "the exec-form entry is replaced, not duplicated: {v}");
}
