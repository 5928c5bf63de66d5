//! `tiergate approve | approvals … | log | install` through the real binary, on
//! pending codes and grants written with the store's own schema.

use super::hook_harness::*;
use serde_json::Value;

fn seeded(tag: &str) -> Env {
    let env = Env::new(tag).with("TIERGATE_NOW", "1000");
    let (rc, _, err) = env.cli(&["approvals", "list"]);
    assert_eq!(rc, 0, "list on a fresh store creates it: {err}");
    let sql = env.sql();
    for (code, sig, exp) in [("AAAAAA", "git push a", 90_000), ("BBBBBB", "git push b", 90_000), ("OLDOLD", "git push c", 500)] {
        sql.execute(
            "INSERT INTO pending(code, signature, command, rule, created_at, expires_at) VALUES (?1, ?2, ?2, 'git.push', 0, ?3)",
            rusqlite::params![code, sig, exp],
        )
        .unwrap();
    }
    env
}

#[test]
fn list_approve_revoke_reject_and_clean() {
    let env = seeded("cli");
    let (rc, out, _) = env.cli(&["approvals", "list"]);
    assert_eq!(rc, 0);
    assert!(out.contains("pending codes (3)") && out.contains("AAAAAA") && out.contains("expired"), "{out}");

    let (rc, out, err) = env.cli(&["approve", "aaa-aaa"]);
    assert_eq!(rc, 0, "codes are read case- and dash-insensitively: {err}");
    assert!(out.contains("grant #1") && out.contains("git push a"), "{out}");
    let (rc, _, err) = env.cli(&["approve", "OLDOLD"]);
    assert_eq!((rc, err.contains("expired")), (1, true), "{err}");
    let (rc, _, err) = env.cli(&["approve", "ZZZZZZ"]);
    assert_eq!((rc, err.contains("no pending code")), (1, true), "{err}");

    let (rc, out, _) = env.cli(&["approvals", "list"]);
    assert_eq!(rc, 0);
    assert!(out.contains("pending codes (1)") && out.contains("#1") && out.contains("live until"), "{out}");

    assert_eq!(env.cli(&["approvals", "revoke", "1"]).0, 0);
    assert_eq!(env.cli(&["approvals", "revoke", "1"]).0, 1, "already revoked");
    assert_eq!(env.cli(&["approvals", "revoke", "x"]).0, 2, "usage");
    assert_eq!(env.cli(&["approvals", "reject", "BBBBBB"]).0, 0);
    assert_eq!(env.cli(&["approvals", "reject", "BBBBBB"]).0, 1);
    let grants: i64 = env.sql().query_row("SELECT count(*) FROM grants", [], |r| r.get(0)).unwrap();
    assert_eq!(grants, 0, "revoke removes the grant");
}

#[test]
fn reject_all_and_clean_only_remove() {
    let env = seeded("clean");
    assert_eq!(env.cli(&["approve", "AAAAAA"]).0, 0);
    let (rc, out, _) = env.cli(&["approvals", "reject-all"]);
    assert_eq!((rc, out.trim()), (0, "rejected 2 pending code(s)"));
    let live: i64 = env.sql().query_row("SELECT count(*) FROM grants", [], |r| r.get(0)).unwrap();
    assert_eq!(live, 1, "reject-all leaves grants alone");
    let later = env.with("TIERGATE_NOW", "2000");
    let (rc, out, _) = later.cli(&["approvals", "clean"]);
    assert_eq!(rc, 0);
    assert!(out.contains("0 expired pending code(s) and 1 used or expired grant(s)"), "{out}");
}

#[test]
fn approvals_refuses_a_code_for_an_unsignable_command() {
    let env = Env::new("unsignable");
    let _ = env.cli(&["approvals", "list"]);
    env.sql()
        .execute(
            "INSERT INTO pending(code, signature, command, rule, created_at, expires_at) VALUES ('EMPTYS', '', 'x', 'parse.unsupported', 0, 9999999999)",
            [],
        )
        .unwrap();
    let (rc, _, err) = env.cli(&["approve", "EMPTYS"]);
    assert_eq!((rc, err.contains("cannot be approved")), (1, true), "{err}");
    if let Some(r) = classifier::rules::all().find(|r| r.blocked) {
        env.sql()
            .execute("INSERT INTO pending(code, signature, command, rule, created_at, expires_at) VALUES ('BLOCKD', 'sig', 'x', ?1, 0, 9999999999)", [r.id])
            .unwrap();
        let (rc, _, err) = env.cli(&["approve", "BLOCKD"]);
        assert_eq!((rc, err.contains(r.id)), (1, true), "a blocked rule's code is refused: {err}");
    }
}

#[test]
fn log_shows_recent_decisions_redacted_by_default() {
    let env = Env::new("log");
    env.bash(&[], "GITHUB_TOKEN=ghp_abcdefghijklmnop123456 gh pr create");
    env.bash(&[], "curl -H 'Authorization: Bearer s3cr3t' https://api.example.com");
    env.bash(&[], "git push origin main");
    let (rc, out, _) = env.cli(&["log", "-n", "2"]);
    assert_eq!(rc, 0);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("Authorization: Bearer [REDACTED]") && out.contains("git push origin main"), "{out}");
    let (_, all, _) = env.cli(&["log"]);
    assert!(!all.contains("ghp_") && !all.contains("s3cr3t"), "{all}");
    // The bench's importer reads exactly this table and these columns.
    let row: (String, String, String, String, String, String) = env
        .sql()
        .query_row("SELECT time, session, cwd, tool, decision, command FROM decisions ORDER BY id LIMIT 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
        })
        .unwrap();
    assert_eq!(row.1, "it-session");
    assert_eq!((row.2.as_str(), row.3.as_str()), (env.cwd(), "Bash"));
    assert!(row.0.ends_with('Z') && row.0.len() == 20, "RFC 3339 UTC: {}", row.0);
    assert_eq!(row.5, "GITHUB_TOKEN=[REDACTED] gh pr create");
}

#[test]
fn log_full_commands_and_log_off_are_honoured() {
    let env = Env::new("logcfg");
    env.write_user_config("log_full_commands = true\n");
    env.bash(&[], "TOKEN=abc make deploy");
    let (_, out, _) = env.cli(&["log"]);
    assert!(out.contains("TOKEN=abc make deploy"), "{out}");
    env.write_user_config("log = false\n");
    env.bash(&[], "git push origin main");
    let n: i64 = env.sql().query_row("SELECT count(*) FROM decisions", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 1, "log = false writes nothing");
}

#[test]
fn install_prints_the_settings_snippet_and_edits_nothing() {
    let env = Env::new("install");
    let (rc, out, _) = env.cli(&["install", "--print"]);
    assert_eq!(rc, 0);
    let v: Value = serde_json::from_str(&out).expect("the snippet is JSON");
    let entry = &v["hooks"]["PreToolUse"][0];
    assert_eq!(entry["matcher"], "Bash|Write|Edit|MultiEdit|NotebookEdit");
    assert_eq!(entry["hooks"][0]["type"], "command");
    assert_eq!(entry["hooks"][0]["command"], "tiergate hook");
    let (rc, _, err) = env.cli(&["install"]);
    assert_eq!(rc, 2);
    assert!(err.contains("never edits .claude/"), "{err}");
    assert!(!exists(&env.home.join(".claude")), "install wrote nothing");
}

#[test]
fn what_the_human_approves_is_shown_with_control_characters_escaped() {
    let env = Env::new("escape");
    let _ = env.cli(&["approvals", "list"]);
    let sneaky = "rm -rf ~/work\r\u{1b}[2Kls -la\u{202e}";
    env.sql()
        .execute("INSERT INTO pending(code, signature, command, rule, created_at, expires_at) VALUES ('SNEAKY', 'sig', ?1, 'r', 0, 9999999999)", [sneaky])
        .unwrap();
    for args in [&["approvals", "list"][..], &["approve", "SNEAKY"][..]] {
        let (rc, out, _) = env.cli(args);
        assert_eq!(rc, 0, "{args:?}");
        assert!(!out.contains('\r') && !out.contains('\u{1b}') && !out.contains('\u{202e}'), "{args:?}: {out:?}");
        assert!(out.contains("rm -rf ~/work\\u{d}\\u{1b}[2Kls -la\\u{202e}"), "{args:?}: {out}");
    }
}
