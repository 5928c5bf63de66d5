//! One protect policy (issue 15, item 1): for every protected path the Write tool
//! and Bash answer alike through the real hook, by every write mechanism, with the
//! user's `protected_paths` included; free controls stay free on both sides; a
//! pattern the matcher rejects is a config error; and self-approval is the same
//! answer in `tiergate batch` as in the hook.

use super::hook_harness::*;

/// Every way a Bash command writes `p` (the mechanisms the issue lists).
fn bash_writes(p: &str) -> Vec<String> {
    let dir = match p.rfind('/') {
        Some(0) => "/".to_owned(),
        Some(i) => p[..i].to_owned(),
        None => ".".to_owned(),
    };
    let mut v = vec![
        format!("echo x > {p}"),
        format!("echo x >> {p}"),
        format!("tee {p} < /dev/null"),
        format!("cp a.txt {p}"),
        format!("mv a.txt {p}"),
        format!("install -m 644 a.txt {p}"),
        format!("ln -sf a.txt {p}"),
        format!("sed -i s/a/b/ {p}"),
        format!("dd if=a.txt of={p}"),
        format!("python3 -c \"open('{p}','w').write('x')\""),
        format!("curl -so {p} https://example.com/x"),
    ];
    // Extraction: into the directory that holds `p` (its member names are unseen).
    v.push(format!("tar -xf a.tar -C {dir}"));
    v.push(format!("unzip -o a.zip -d {dir}"));
    v
}

#[track_caller]
fn write_decision(env: &Env, path: &str) -> Option<Answer> {
    env.hook(&[], &write_event("Write", path, env.cwd()))
}

/// `path` is protected: the Write tool and every Bash write mechanism deny it.
#[track_caller]
fn denied_alike(env: &Env, path: &str, rule: &str, bad: &mut Vec<String>) {
    match write_decision(env, path) {
        Some(a) if a.decision == "deny" && a.reason.contains(rule) => {}
        other => bad.push(format!("Write {path}: expected deny by {rule}, got {other:?}")),
    }
    for cmd in bash_writes(path) {
        let a = env.bash(&[], &cmd);
        let extract = cmd.starts_with("tar ") || cmd.starts_with("unzip ");
        // Extraction into a directory that may hold a protected path cannot name it:
        // blocked inside `.claude`, at least ask elsewhere.
        let ok = if extract { a.decision != "allow" } else { a.decision == "deny" && a.reason.contains("BLOCKED") };
        if !ok {
            bad.push(format!("Bash `{cmd}` (Write of {path} is denied): {} {}", a.decision, a.reason));
        }
    }
}

/// `path` is free: the Write tool has no opinion and Bash allows (`mv` too: nothing
/// exists at `path`, so the rename replaces nothing; `hook_renames` covers the rest).
/// Extraction is left out: its directory may hold a protected path (checked below).
#[track_caller]
fn free_alike(env: &Env, path: &str, bad: &mut Vec<String>) {
    if let Some(a) = write_decision(env, path) {
        bad.push(format!("Write {path}: expected no opinion, got {} {}", a.decision, a.reason));
    }
    for cmd in bash_writes(path).into_iter().filter(|c| !c.starts_with("tar ") && !c.starts_with("unzip ")) {
        let a = env.bash(&[], &cmd);
        if a.decision != "allow" {
            bad.push(format!("Bash `{cmd}` (Write of {path} is free): expected allow, got {} {}", a.decision, a.reason));
        }
    }
}

#[test]
fn write_and_bash_agree_on_every_protected_path() {
    let env = Env::new("agree");
    env.write_user_config("protected_paths = [\"secrets/*.{pem,key}\", \"deploy/**/*.pem\", \"~/vault\"]\n");
    let home = env.home.display().to_string();
    let data = env.data.display().to_string();
    let user_config = env.user_config().display().to_string();
    let mut bad = Vec::new();
    let protected = [
        (".claude/hooks/x.sh".to_owned(), "paths.claude-hooks"),
        (".claude/agents/hooks/x.sh".to_owned(), "paths.claude-hooks"),
        (".claude/settings.json".to_owned(), "paths.claude-settings"),
        (".claude/settings.local.json".to_owned(), "paths.claude-settings"),
        (format!("{home}/.claude/settings.json"), "paths.claude-settings"),
        (format!("{home}/.claude.json"), "paths.claude-user-config"),
        (".tiergate.toml".to_owned(), "paths.tiergate-config"),
        (user_config, "paths.tiergate-config"),
        (format!("{data}/tiergate.db"), "paths.tiergate-store"),
        (format!("{data}/other.txt"), "paths.tiergate-store"),
        (BIN.to_owned(), "paths.tiergate-binary"),
        ("secrets/k.pem".to_owned(), "paths.protected"),
        ("secrets/k.key".to_owned(), "paths.protected"),
        ("deploy/a/k.pem".to_owned(), "paths.protected"),
        (format!("{home}/vault/token"), "paths.protected"),
    ];
    for (path, rule) in &protected {
        denied_alike(&env, path, rule, &mut bad);
    }
    for path in ["notes/x.sh", "secrets/k.txt", "secrets/sub/k.md", "deploy/a/k.txt", "src/settings.json"] {
        free_alike(&env, path, &mut bad);
    }
    // Extraction writes names it cannot see: free where nothing protected can land,
    // ask above a user pattern, blocked inside `.claude`.
    for (cmd, expect) in [
        ("tar -xf a.tar -C notes", "allow"),
        ("unzip a.zip -d build/out", "allow"),
        ("tar -xf a.tar -C secrets", "ask"),
        ("tar -xf a.tar", "ask"),
        ("unzip a.zip -d .claude", "deny"),
        ("tar -xf a.tar -C .claude/agents", "deny"),
    ] {
        let a = env.bash(&[], cmd);
        if a.decision != expect {
            bad.push(format!("Bash `{cmd}`: expected {expect}, got {} {}", a.decision, a.reason));
        }
    }
    // `.md` under hooks is documentation on both sides.
    assert!(write_decision(&env, ".claude/hooks/README.md").is_none());
    assert_eq!(env.bash(&[], "echo x > .claude/hooks/README.md").decision, "allow");
    assert!(bad.is_empty(), "{} disagreements:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_issue_table_of_disagreements() {
    let env = Env::new("issue15");
    env.write_user_config("protected_paths = [\"deploy/**/*.pem\", \"secrets/*.{pem,key}\"]\n");
    let home = env.home.display().to_string();
    for (write, bash) in [
        (".claude/agents/hooks/x.sh".to_owned(), "echo x > .claude/agents/hooks/x.sh".to_owned()),
        (format!("{home}/.claude.json"), "echo {} > ~/.claude.json".to_owned()),
        ("deploy/a/k.pem".to_owned(), "cp x deploy/a/k.pem".to_owned()),
        ("secrets/a.pem".to_owned(), "cp x secrets/a.pem".to_owned()),
    ] {
        let w = write_decision(&env, &write).map(|a| a.decision);
        let b = env.bash(&[], &bash);
        assert_eq!(w.as_deref(), Some("deny"), "Write {write}");
        assert_eq!(b.decision, "deny", "`{bash}`: {}", b.reason);
    }
}

#[test]
fn a_pattern_the_matcher_rejects_is_a_config_error_naming_it() {
    let env = Env::new("badglob");
    env.write_user_config("protected_paths = [\"secrets/*.{pem,key\"]\n");
    let file = env.user_config().display().to_string();
    for a in [write_decision(&env, "secrets/a.pem").expect("an answer"), env.bash(&[], "cp x secrets/a.pem"), env.bash(&[], "ls")] {
        assert_eq!(a.decision, "ask", "{}", a.reason);
        assert!(a.reason.contains("secrets/*.{pem,key") && a.reason.contains(&file), "names entry and file: {}", a.reason);
    }
    // Built-in protection still denies with a broken config.
    let a = write_decision(&env, ".claude/settings.json").expect("an answer");
    assert_eq!(a.decision, "deny", "{}", a.reason);
    assert_eq!(env.bash(&[], "echo x > .claude/settings.json").decision, "deny");
}

#[test]
fn self_approval_is_one_answer_in_batch_and_hook() {
    let env = Env::new("selfapprove-batch");
    let cmds = [
        "./target/release/tiergate approve X7K2QM",
        "target/debug/tiergate approve X7K2QM",
        "tiergate approve X7K2QM",
        "env FOO=1 /opt/x/bin/tiergate approve X7K2QM",
        "python3 -c \"import subprocess; subprocess.run(['tiergate', 'approve', 'X7K2QM'])\"",
    ];
    let input: String = cmds.iter().enumerate().map(|(i, c)| format!("{}\n", serde_json::json!({"id": i, "command": c, "cwd": env.cwd()}))).collect();
    let out = env.run(&["batch"], input.as_bytes());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), cmds.len());
    for (cmd, line) in cmds.iter().zip(&lines) {
        assert_eq!(line["blocked"], true, "batch `{cmd}`: {line}");
        assert_eq!(line["rule"], "tiergate.self-approval", "batch `{cmd}`: {line}");
        let a = env.bash(&[], cmd);
        assert_eq!(a.decision, "deny", "hook `{cmd}`: {}", a.reason);
        assert!(a.reason.contains("tiergate.self-approval"), "hook `{cmd}`: {}", a.reason);
    }
    // Naming the store is the same answer on both sides too.
    let db = env.db().display().to_string();
    let cmd = format!("sqlite3 {db} 'select * from grants'");
    let out = env.run(&["batch"], format!("{}\n", serde_json::json!({"id": 0, "command": cmd, "cwd": env.cwd()})).as_bytes());
    let line: serde_json::Value = serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["rule"], "tiergate.store", "{line}");
    assert_eq!(env.bash(&[], &cmd).decision, "deny");
}

#[test]
fn a_symlink_into_claude_is_seen_through_by_bash_as_by_write() {
    let env = Env::new("symlink-bash");
    std::fs::create_dir_all(env.work.join(".claude/hooks")).unwrap();
    std::os::unix::fs::symlink(env.work.join(".claude"), env.work.join("innocent")).unwrap();
    std::os::unix::fs::symlink(env.work.join(".claude/hooks"), env.work.join("tools")).unwrap();
    for (path, rule) in
        [("innocent/settings.json", "paths.claude-settings"), ("tools/x.sh", "paths.claude-hooks"), ("innocent/hooks/y.py", "paths.claude-hooks")]
    {
        let w = write_decision(&env, path).expect("an answer");
        assert_eq!(w.decision, "deny", "Write {path}: {}", w.reason);
        for cmd in [format!("echo x > {path}"), format!("cp a.txt {path}"), format!("sed -i s/a/b/ {path}"), format!("rm {path}")] {
            let a = env.bash(&[], &cmd);
            assert_eq!(a.decision, "deny", "`{cmd}`: {}", a.reason);
            assert!(a.reason.contains(rule) && a.reason.contains("really"), "`{cmd}`: {}", a.reason);
        }
    }
    // A symlink to an ordinary directory stays free on both sides.
    std::fs::create_dir_all(env.work.join("notes")).unwrap();
    std::os::unix::fs::symlink(env.work.join("notes"), env.work.join("n")).unwrap();
    assert!(write_decision(&env, "n/x.sh").is_none());
    assert_eq!(env.bash(&[], "echo x > n/x.sh").decision, "allow");
}
