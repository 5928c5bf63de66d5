//! The batch runner: a hung line becomes an error row and the rows after it still
//! get answers from a fresh child.

use std::time::Duration;

use replay::build::Subject;
use replay::exit::ReplayError;
use replay::runner::{run, Job, Patience};

use crate::repo::{check, Repo};

#[test]
fn a_line_that_hangs_becomes_an_error_row_not_a_hang() {
    let repo = Repo::new();
    assert_eq!(check(&repo.config("HEAD")).0, 0);
    let bin = repo.root.join("target/release/tiergate").display().to_string();
    let subject = Subject { argv: vec![bin, "batch".into()], build_id: None, label: "head".into() };
    let job = |c: &str| Job::new(c, None);
    let jobs = [job("ls"), job("sleep-forever"), job("rm -rf /"), job("cargo test")];
    let t = std::time::Instant::now();
    let v = run(&subject, &jobs, Duration::from_millis(700), &|| {}).unwrap();
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(v.len(), 4);
    assert_eq!(v[0].rule, "default");
    assert!(v[1].error.as_deref().unwrap_or("").contains("no answer within"), "{:?}", v[1]);
    assert_eq!((v[2].class, v[2].rule.as_str()), (replay::protocol::Class::Blocked, "fs.rm.root"));
    assert_eq!(v[3].rule, "cargo.test");
}

/// With `Patience::hang` (the mutants gate), the first row that is not answered,
/// even when asked again alone, stops the run: the rows after it are not waited on.
#[test]
fn with_hang_set_a_row_unanswered_twice_stops_the_run() {
    let repo = Repo::new();
    assert_eq!(check(&repo.config("HEAD")).0, 0);
    let bin = repo.root.join("target/release/tiergate").display().to_string();
    let subject = Subject { argv: vec![bin, "batch".into()], build_id: None, label: "head".into() };
    let jobs: Vec<Job> = ["ls", "sleep-forever"].iter().chain(&["sleep-forever"; 20]).map(|c| Job::new(*c, Some("/w".into()))).collect();
    let patience = Patience { row: Duration::from_millis(300), hang: Some(Duration::from_millis(600)) };
    let t = std::time::Instant::now();
    let err = run(&subject, &jobs, patience, &|| {}).unwrap_err();
    // One row timeout and one second asking, not one timeout for each of the 21 rows.
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    let ReplayError::Hang(h) = err else { panic!("{err}") };
    assert_eq!((h.side.as_str(), h.command.as_str(), h.cwd.as_deref()), ("head", "sleep-forever", Some("/w")));
}

/// A row slower than the per-row timeout but answered when asked again is an
/// answer, not a hang: a loaded machine's slow moment is never a caught mutant.
#[test]
fn with_hang_set_a_slow_row_answered_on_the_second_asking_is_an_answer() {
    let repo = Repo::new();
    assert_eq!(check(&repo.config("HEAD")).0, 0);
    let bin = repo.root.join("target/release/tiergate").display().to_string();
    let subject = Subject { argv: vec![bin, "batch".into()], build_id: None, label: "head".into() };
    let jobs = [Job::new("ls", None), Job::new("slow-thing", None), Job::new("rm -rf /", None)];
    let patience = Patience { row: Duration::from_millis(300), hang: Some(Duration::from_secs(5)) };
    let v = run(&subject, &jobs, patience, &|| {}).unwrap();
    assert_eq!(v.iter().map(|v| v.short()).collect::<Vec<_>>(), ["T0 default", "T0 test.slow", "BLOCKED fs.rm.root"]);
}

/// `replay::run` with `Config::hang`: a head that stops answering fails the replay
/// with the hang, naming the row, instead of reporting every row it loops on.
#[test]
fn a_replay_with_hang_set_names_the_row_head_stopped_answering() {
    let repo = Repo::new();
    repo.write("corpus/truth/t.csv", &format!("{}loop,mytool spin,,T3,true,gated,a row head loops on\n", crate::repo::TRUTH));
    repo.write("classifier/rules.txt", &format!("{}mytool spin\tT3\tmytool.spin\n", crate::repo::RULES));
    repo.commit("a row");
    // Head loops on it; the base (the commit) answers.
    repo.write("classifier/rules.txt", &format!("mytool spin\tHANG\tmytool.spin\n{}", crate::repo::RULES));
    let cfg = replay::config::Config { timeout: Duration::from_millis(500), hang: Some(Duration::from_secs(1)), ..repo.config("HEAD") };
    let (code, r) = check(&cfg);
    let Err(ReplayError::Hang(h)) = r else { panic!("{}", crate::repo::failures(&r)) };
    assert_eq!(code, replay::exit::INFRA);
    assert_eq!((h.side.as_str(), h.row.as_deref()), ("head", Some("truth loop")), "{h}");
}

/// A child that answered every line gets a moment to exit on its own before it is
/// ended, so what it does at exit happens (`cargo xtask mutants --unreached`'s
/// instrumented tiergate writes its coverage then); ended at once, it would not.
#[test]
fn a_child_that_answered_every_line_may_exit_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("exited");
    let answer = r#"{\"v\":1,\"id\":$n,\"tier\":\"T0\",\"blocked\":false,\"decision\":\"allow\",\"rule\":\"r\",\"reason\":\"x\"}"#;
    let script = format!("n=0; while read -r line; do echo \"{answer}\"; n=$((n+1)); done; sleep 0.3; touch '{}'", marker.display());
    let subject = Subject { argv: vec!["sh".into(), "-c".into(), script], build_id: None, label: "head".into() };
    let jobs = [Job::new("ls", None), Job::new("pwd", None)];
    let v = run(&subject, &jobs, Duration::from_secs(10), &|| {}).unwrap();
    assert_eq!(v.iter().map(|v| v.short()).collect::<Vec<_>>(), ["T0 r", "T0 r"]);
    assert!(marker.exists(), "the child was ended before its exit-time work");
}
