//! Importer tests (redaction has its one test table in the `redact` crate). Every fixture is generated here into a temporary
//! directory (nobody's real history is read), including malformed lines and
//! non-UTF-8 bytes, which must be counted and never fatal.

use super::*;
use std::path::PathBuf;

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

/// `(command, cwd, weight)` triples, in import order.
fn rows(imp: &Imported) -> Vec<(String, Option<String>, u64)> {
    imp.rows.iter().map(|r| (r.command.clone(), r.cwd.clone(), r.weight)).collect()
}

fn plain(cmds: &[(&str, u64)]) -> Vec<(String, Option<String>, u64)> {
    cmds.iter().map(|(c, w)| (c.to_string(), None, *w)).collect()
}

#[test]
fn bash_plain_lines_dedup_with_weights_and_count_non_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, ".bash_history", b"ls -la\r\ngit status\n\nls -la\necho \xff\xfe bad\ncargo test\n");
    let imp = import(&p).unwrap();
    assert_eq!(rows(&imp), plain(&[("ls -la", 2), ("git status", 1), ("cargo test", 1)]));
    assert_eq!(imp.malformed.len(), 1, "{:?}", imp.malformed);
    assert!(imp.malformed[0].ends_with(":5: not valid UTF-8 (byte 5); skipped"), "{}", imp.malformed[0]);
}

#[test]
fn a_bash_group_on_the_first_line_is_not_a_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "history.txt", b"{ ls; echo done; }\ngit status\n");
    assert_eq!(detect(&p, &std::fs::read(&p).unwrap()), Format::Bash);
    assert_eq!(rows(&import(&p).unwrap()), plain(&[("{ ls; echo done; }", 1), ("git status", 1)]));
}

#[test]
fn bash_timestamps_group_multi_line_commands() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "hist", b"#1700000000\nls\n#1700000001\ncat <<EOF\nhello\nEOF\n#1700000002\nls\n");
    let imp = import(&p).unwrap();
    assert_eq!(rows(&imp), plain(&[("ls", 2), ("cat <<EOF\nhello\nEOF", 1)]));
    assert!(imp.malformed.is_empty());
}

/// zsh's metafy: every byte that needs it (here: all non-ASCII) becomes 0x83, b ^ 0x20.
fn metafy(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in s.as_bytes() {
        if b >= 0x80 {
            out.push(0x83);
            out.push(b ^ 0x20);
        } else {
            out.push(b);
        }
    }
    out
}

#[test]
fn zsh_extended_continuation_and_metafied_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b": 1700000000:0;git status\n: 1700000001:3;for f in *; do\\\necho $f\\\ndone\n".to_vec();
    bytes.extend_from_slice(b": 1700000002:0;");
    bytes.extend_from_slice(&metafy("echo 你好"));
    bytes.extend_from_slice(b"\n: bad:0;rm -rf /\n: 1700000003:0;echo \xff\n: 1700000004:0;git status\n");
    let p = write(&dir, ".zsh_history", &bytes);
    let imp = import(&p).unwrap();
    assert_eq!(rows(&imp), plain(&[("git status", 2), ("for f in *; do\necho $f\ndone", 1), ("echo 你好", 1)]));
    assert_eq!(imp.malformed.len(), 2, "{:?}", imp.malformed);
    assert!(imp.malformed[0].contains(":6: extended-history header"), "{}", imp.malformed[0]);
    assert!(imp.malformed[1].contains(":7: not valid UTF-8"), "{}", imp.malformed[1]);
    // Without unmetafying, the Chinese text would not even be UTF-8.
    assert!(std::str::from_utf8(&metafy("你好")).is_err());
}

#[test]
fn zsh_detected_by_content_without_a_telling_name() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "h.txt", b": 1700000000:0;ls\n");
    assert_eq!(detect(&p, &std::fs::read(&p).unwrap()), Format::Zsh);
    assert_eq!(rows(&import(&p).unwrap()), plain(&[("ls", 1)]));
}

#[test]
fn fish_entries_with_escapes_paths_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"- cmd: echo a\\\\b\n  when: 1700000000\n- cmd: printf 'x\\ny'\n  when: notanumber\n  paths:\n    - /tmp\ngarbage line\n- cmd: echo \xc3\x28\n- cmd: echo a\\\\b\n  when: 1700000005\n";
    let p = write(&dir, "fish_history", text);
    let imp = import(&p).unwrap();
    assert_eq!(rows(&imp), plain(&[("echo a\\b", 2), ("printf 'x\ny'", 1)]));
    assert_eq!(imp.malformed.len(), 2, "{:?}", imp.malformed);
    assert!(imp.malformed[0].contains(":7: not a `- cmd:` entry"));
    assert!(imp.malformed[1].contains(":8: not valid UTF-8"));
}

fn atuin_db(path: &std::path::Path, with_author_kind: bool) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch("PRAGMA journal_mode=WAL;").unwrap();
    let extra = if with_author_kind { ", author text, intent text, shell text, author_kind integer" } else { "" };
    c.execute_batch(&format!(
        "CREATE TABLE history (id text primary key, timestamp integer not null, duration integer not null,
         exit integer not null, command text not null, cwd text not null, session text not null,
         hostname text not null, deleted_at integer{extra});"
    ))
    .unwrap();
    let rows: &[(&str, &str, Option<i64>, i64)] = &[
        ("git status", "/repo", None, 2),
        ("git status", "/repo", None, 2),
        ("git push", "/repo", None, 2),
        ("rm -rf build", "/repo", Some(1), 2),
        ("ls", "unknown", None, 1),
        ("cargo test", "unknown", None, 2),
    ];
    for (i, (cmd, cwd, del, kind)) in rows.iter().enumerate() {
        let sql = if with_author_kind {
            "INSERT INTO history VALUES (?1, ?2, 0, 0, ?3, ?4, 's', 'h:u', ?5, 'claude', NULL, 'zsh', ?6)"
        } else {
            "INSERT INTO history VALUES (?1, ?2, 0, 0, ?3, ?4, 's', 'h:u', ?5)"
        };
        if with_author_kind {
            c.execute(sql, rusqlite::params![format!("id{i}"), i as i64, cmd, cwd, del, kind]).unwrap();
        } else {
            c.execute(sql, rusqlite::params![format!("id{i}"), i as i64, cmd, cwd, del]).unwrap();
        }
    }
    // A command that is not valid UTF-8 (atuin stores what the shell gave it).
    let kind = if with_author_kind { ", 2" } else { "" };
    let cols = if with_author_kind {
        "id, timestamp, duration, exit, command, cwd, session, hostname, author_kind"
    } else {
        "id, timestamp, duration, exit, command, cwd, session, hostname"
    };
    c.execute_batch(&format!("INSERT INTO history ({cols}) VALUES ('bad', 99, 0, 0, CAST(X'6563686FFF' AS TEXT), '/repo', 's', 'h'{kind});")).unwrap();
}

#[test]
fn atuin_agent_rows_only_skip_deleted_and_count_weights() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("history.db");
    atuin_db(&p, true);
    let before = std::fs::read(&p).unwrap();
    let imp = import(&p).unwrap();
    let r = |c: &str, d: Option<&str>, w| (c.to_string(), d.map(str::to_string), w);
    assert_eq!(rows(&imp), vec![r("git status", Some("/repo"), 2), r("git push", Some("/repo"), 1), r("cargo test", None, 1)]);
    assert_eq!(imp.malformed.len(), 1, "{:?}", imp.malformed);
    assert!(imp.malformed[0].ends_with("command is not valid UTF-8; skipped"));
    assert_eq!(std::fs::read(&p).unwrap(), before, "the importer must not write the database");
}

#[test]
fn atuin_without_author_kind_imports_every_live_row() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("history.db");
    atuin_db(&p, false);
    let cmds: Vec<String> = import(&p).unwrap().rows.into_iter().map(|r| r.command).collect();
    assert_eq!(cmds, ["git status", "git push", "ls", "cargo test"]);
}

#[test]
fn sqlite_without_known_tables_is_an_error_not_a_guess() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("other.db");
    rusqlite::Connection::open(&p).unwrap().execute_batch("CREATE TABLE t (x);").unwrap();
    let err = import(&p).unwrap_err().to_string();
    assert!(err.contains("no atuin `history` table"), "{err}");
}

/// `(source, session, command, cwd)` of every imported step, in order.
fn steps(imp: &Imported) -> Vec<(String, String, String, Option<String>)> {
    imp.steps.iter().map(|s| (s.source.to_owned(), s.session.clone(), s.command.clone(), s.cwd.clone())).collect()
}

#[test]
fn claude_transcripts_are_sessions_of_bash_tool_uses_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let bash = |cmd: &str, cwd: &str| {
        format!(
            r#"{{"type":"assistant","cwd":"{cwd}","message":{{"content":[{{"type":"text","text":"x"}},{{"type":"tool_use","name":"Bash","input":{{"command":"{cmd}","description":"d"}}}}]}}}}"#
        )
    };
    let a = [
        bash("git status", "/p1"),
        r#"{"type":"user","message":{"content":"rm -rf /"}}"#.to_owned(),
        r#"{"type":"assistant","cwd":"/p1","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"x"}}]}}"#.to_owned(),
        "{not json".to_owned(),
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{}}]}}"#.to_owned(),
        bash("git status", "/p1"),
    ]
    .join("\n");
    let mut b = bash("cargo test", "/p2").into_bytes();
    b.extend_from_slice(b"\n\xff\xfe\n");
    write(&dir, "projects/p1/s1.jsonl", a.as_bytes());
    write(&dir, "projects/p2/s2.jsonl", &b);
    let imp = import(&dir.path().join("projects")).unwrap();
    let st = |session: &str, c: &str, d: &str| ("claude-code".to_owned(), session.to_owned(), c.to_owned(), Some(d.to_owned()));
    // Every step counts, repeats included: a session is replayed as it ran.
    assert_eq!(steps(&imp), vec![st("s1", "git status", "/p1"), st("s1", "git status", "/p1"), st("s2", "cargo test", "/p2")]);
    assert!(imp.rows.is_empty(), "agent histories give sessions, not weighted rows");
    assert_eq!(imp.malformed.len(), 3, "{:?}", imp.malformed);
    assert!(imp.malformed[0].contains("s1.jsonl:4: not JSON"));
    assert!(imp.malformed[1].contains("s1.jsonl:5: Bash tool_use without"));
    assert!(imp.malformed[2].contains("s2.jsonl:2: not valid UTF-8"));
    // A single transcript file is detected by content too.
    let one = import(&dir.path().join("projects/p2/s2.jsonl")).unwrap();
    assert_eq!(steps(&one), vec![st("s2", "cargo test", "/p2")]);
}

#[test]
fn hook_log_reads_bash_decisions_tolerantly() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tiergate.db");
    let c = rusqlite::Connection::open(&p).unwrap();
    c.execute_batch(
        "CREATE TABLE decisions (id INTEGER PRIMARY KEY, time TEXT, session TEXT, cwd TEXT, tool TEXT,
           decision TEXT, rule TEXT, command TEXT);
         INSERT INTO decisions (time, session, cwd, tool, decision, rule, command) VALUES
           ('t', 's', '/repo', 'Bash', 'allow', 'git.read', 'git status'),
           ('t', 's', '/repo', 'Bash', 'allow', 'git.read', 'git status'),
           ('t', 's', '/repo', 'Write', 'deny', 'paths.protected', NULL),
           ('t', 's', '/repo', 'Write', 'deny', 'paths.protected', '.claude/settings.json'),
           ('t', 's', NULL, 'Bash', 'ask', 'git.push', 'git push'),
           ('t', 's', NULL, 'Bash', 'ask', 'x', CAST(X'6563686FFF' AS TEXT)),
           ('t', 's', '/repo', 'Shell', 'ask', 'git.push', 'git push'),
           ('t', 's', '/repo', 'PowerShell', 'ask', 'powershell.unmodelled', 'Remove-Item x'),
           ('t', 's', '/repo', 'mcp__db__run', 'ask', 'hook.unknown-tool', 'select 1');",
    )
    .unwrap();
    drop(c);
    assert_eq!(detect(&p, &std::fs::read(&p).unwrap()), Format::HookLog);
    let imp = import(&p).unwrap();
    let st = |c: &str, d: Option<&str>| ("hook-log".to_owned(), "s".to_owned(), c.to_string(), d.map(str::to_string));
    // Every shell step of the session in order; other agents' POSIX shell tools
    // count, PowerShell, file tools and unknown tools do not.
    assert_eq!(steps(&imp), vec![st("git status", Some("/repo")), st("git status", Some("/repo")), st("git push", None), st("git push", Some("/repo"))]);
    assert_eq!(imp.malformed.len(), 1, "{:?}", imp.malformed);
    // The minimal schema the brief names (no id, no tool) is read as well.
    let q = dir.path().join("min.db");
    let c = rusqlite::Connection::open(&q).unwrap();
    c.execute_batch("CREATE TABLE decisions (time, session, cwd, decision, rule, command); INSERT INTO decisions VALUES (1,'s','/r','ask','x','make deploy');")
        .unwrap();
    drop(c);
    assert_eq!(steps(&import(&q).unwrap()), vec![st("make deploy", Some("/r"))]);
}

#[test]
fn hook_log_reads_the_spool_and_skips_folded_lines() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tiergate.db");
    let c = rusqlite::Connection::open(&p).unwrap();
    c.execute_batch(
        "CREATE TABLE decisions (id INTEGER PRIMARY KEY, time TEXT, session TEXT, cwd TEXT, tool TEXT,
           decision TEXT, rule TEXT, command TEXT, agent TEXT, uid TEXT);
         INSERT INTO decisions (tool, cwd, command, uid) VALUES ('Bash', '/r', 'git status', 'u1');",
    )
    .unwrap();
    drop(c);
    let line = |uid: &str, tool: &str, cmd: &str| format!("{{\"uid\":\"{uid}\",\"cwd\":\"/r\",\"tool\":\"{tool}\",\"command\":\"{cmd}\"}}\n");
    // u1 was folded already (a fold that died before deleting its file).
    std::fs::write(dir.path().join("tiergate.db-log.fold-1"), line("u1", "Bash", "git status") + &line("u2", "Bash", "git push")).unwrap();
    std::fs::write(dir.path().join("tiergate.db-log"), line("u3", "Bash", "git push") + &line("u4", "Write", "x") + "{torn").unwrap();
    let imp = import(&p).unwrap();
    let st = |c: &str| ("hook-log".to_owned(), "no-session".to_owned(), c.to_string(), Some("/r".to_string()));
    assert_eq!(steps(&imp), vec![st("git status"), st("git push"), st("git push")]);
    assert_eq!(imp.malformed.len(), 1, "{:?}", imp.malformed);
}
