//! The real `xtask` binary's command line: help from clap on stdout with exit 0,
//! usage errors on stderr with replay's usage code (probe's 128), and a
//! did-you-mean for a misspelt flag, task or value. Every case fails in parsing,
//! so nothing is built or replayed.

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).env_remove("CI").output().expect("run xtask")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_comes_from_clap_and_exits_zero() {
    for args in [&["--help"][..], &["help"], &["replay", "--help"], &["help", "replay"], &["mutants", "merge", "--help"]] {
        let out = xtask(args);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(stdout.starts_with("Usage: cargo xtask") || stdout.contains("\nUsage: cargo xtask"), "{args:?}: {stdout}");
    }
    let top = text(&xtask(&["--help"]).stdout);
    for task in ["replay", "corpus", "bench", "dist", "probe", "bisect", "codegen", "coverage", "mutants", "oracle", "tidy"] {
        assert!(top.contains(&format!("\n  {task} ")), "task {task} missing from --help: {top}");
    }
    let replay = text(&xtask(&["replay", "--help"]).stdout);
    for flag in [
        "--base <REV>", "--check", "--corpus <LIST>", "--only <ID>", "--history <PATH>", "--against <CMD>", "--require-base", "--timeout <SECS>",
        "--shard <I/N>", "accept", "merge",
    ] {
        assert!(replay.contains(flag), "{flag} missing from replay --help: {replay}");
    }
}

#[test]
fn a_misspelt_flag_suggests_the_right_one_and_exits_with_the_usage_code() {
    let out = xtask(&["replay", "--requre-base"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unexpected argument '--requre-base'") && stderr.contains("a similar argument exists: '--require-base'"), "{stderr}");
    assert!(out.stdout.is_empty());

    let out = xtask(&["replay", "--corpus", "truth,curatd"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let valid = format!("[possible values: {}]", replay::corpus::Kind::ALL.map(|k| k.as_str()).join(", "));
    assert!(stderr.contains(&valid) && stderr.contains("'curated'"), "{stderr}");

    let out = xtask(&["covrage"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("unrecognized subcommand 'covrage'") && stderr.contains("'coverage'"), "{stderr}");

    let out = xtask(&[]);
    assert_eq!(out.status.code(), Some(2), "no task is a usage error");
    assert!(text(&out.stderr).contains("Usage: cargo xtask"));
}

#[test]
fn probe_usage_errors_stop_git_bisect_run() {
    for args in [&["probe", "--command", "ls"][..], &["probe", "--command", "ls", "--expect", "T9"], &["probe", "--comand", "ls", "--expect", "T0"]] {
        let out = xtask(args);
        assert_eq!(out.status.code(), Some(128), "{args:?}: {}", text(&out.stderr));
    }
}
