//! The sessions corpus kind through a real replay: steps answered in order through
//! the `session` extension, one session's writes invisible to another, the verdict
//! cache keyed by a step's earlier steps, `--only` bringing those steps along, and a
//! base that predates the extension said plainly.

use replay::corpus::Kind;
use replay::Outcome;

use crate::repo::{check, failures, Repo, SESSIONS, TIERGATE};

/// `T0 run.written` — head's class and rule for the row `id`.
fn head_of(o: &Outcome, id: &str) -> String {
    let r = o.report.rows.iter().find(|r| r.corpus == Kind::Sessions && r.id == id).unwrap_or_else(|| panic!("no row {id}"));
    r.head.as_ref().map(|v| v.short()).unwrap_or_default()
}

#[test]
fn a_step_reads_what_its_own_session_wrote_before_it() {
    let repo = Repo::new();
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 0, "{}", failures(&r));
    let o = r.unwrap();
    assert_eq!(head_of(&o, "agent/a/00001"), "T0 run.written");
    assert_eq!(head_of(&o, "agent/b/00001"), "T3 run.missing", "b never wrote x");

    // The same command after different earlier steps is another cache entry.
    let again = check(&repo.config("HEAD")).1.unwrap();
    assert_eq!(again.answered, 0, "a second replay answers from the cache");
    repo.write(
        "corpus/sessions/agent/sessions.jsonl",
        &SESSIONS.replace(r#""b", "step": 0, "cwd": "/w", "command": "ls""#, r#""b", "step": 0, "cwd": "/w", "command": "write x""#),
    );
    let o = check(&repo.config("HEAD")).1.unwrap();
    assert_eq!(head_of(&o, "agent/b/00001"), "T0 run.written", "b's run x now follows b's own write x");
    assert_eq!(head_of(&o, "agent/a/00001"), "T0 run.written");

    // `--only` a step replays the steps of its session before it.
    let mut cfg = repo.config("HEAD");
    cfg.only = vec!["agent/a/00001".into()];
    let o = check(&cfg).1.unwrap();
    assert_eq!(head_of(&o, "agent/a/00001"), "T0 run.written");
    assert_eq!(o.report.rows.len(), 2, "the step and the one before it");
}

#[test]
fn session_files_are_checked_with_their_line() {
    let repo = Repo::new();
    repo.write("corpus/sessions/agent/sessions.jsonl", &SESSIONS.replace(r#""a", "step": 1"#, r#""a", "step": 2"#));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/sessions/agent/sessions.jsonl:3: column step: session a goes to step 2 where step 1 comes next"), "{}", failures(&r));
    repo.write("corpus/sessions/agent/sessions.jsonl", &SESSIONS.replace(r#""cwd": "/w", "command": "ls""#, r#""cwd": "/w", "comand": "ls""#));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/sessions/agent/sessions.jsonl:2: unknown field `comand`"), "{}", failures(&r));
}

#[test]
fn a_base_without_the_extension_leaves_session_steps_new_and_says_so() {
    let repo = Repo::new();
    repo.write("classifier/src/main.rs", &TIERGATE.replace("const NO_EXTENSIONS: bool = false;", "const NO_EXTENSIONS: bool = true;"));
    let base = repo.commit("a base from before protocol extensions");
    repo.write("classifier/src/main.rs", TIERGATE);
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "{}", failures(&r));
    let o = r.unwrap();
    assert!(o.report.notes.iter().any(|n| n.contains("does not replay sessions")), "{:?}", o.report.notes);
    let steps: Vec<_> = o.report.rows.iter().filter(|r| r.corpus == Kind::Sessions).collect();
    assert!(steps.iter().all(|r| r.base.is_none() && r.category.as_str() == "new"), "{steps:?}");
    assert_eq!(head_of(&o, "agent/a/00001"), "T0 run.written");
}

#[test]
fn a_users_claude_code_transcripts_replay_as_sessions() {
    let repo = Repo::new();
    let bash =
        |cmd: &str| format!(r#"{{"type":"assistant","cwd":"/w","message":{{"content":[{{"type":"tool_use","name":"Bash","input":{{"command":"{cmd}"}}}}]}}}}"#);
    let projects = repo.root.parent().unwrap().join("projects");
    std::fs::create_dir_all(projects.join("p")).unwrap();
    std::fs::write(projects.join("p/one.jsonl"), [bash("write y"), bash("run y")].join("\n")).unwrap();
    std::fs::write(projects.join("p/two.jsonl"), bash("run y")).unwrap();
    let mut cfg = repo.config("HEAD");
    cfg.history = vec![projects];
    let (code, r) = check(&cfg);
    assert_eq!(code, 0, "{}", failures(&r));
    let o = r.unwrap();
    assert_eq!(head_of(&o, "claude-code/one/00001"), "T0 run.written", "the transcript's own earlier step wrote y");
    assert_eq!(head_of(&o, "claude-code/two/00000"), "T3 run.missing");
    assert!(o.report.notes.iter().any(|n| n.contains("3 imported session step(s) of 2 session(s)")), "{:?}", o.report.notes);
}
