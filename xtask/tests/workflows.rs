//! The GitHub Actions workflows in `.github/workflows/` call the real tasks: every
//! `cargo xtask TASK [merge] --flag` they run is a flag `cargo xtask TASK --help`
//! lists (a renamed flag fails here, not in a team's CI), and replay.yml keys its
//! base-build cache by the same build inputs as replay's own binary cache.
//! (actionlint checks the files themselves, in .ci/run.)

use std::path::Path;
use std::process::Command;

fn workflow(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.github/workflows").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).arg("--help").env_remove("CI").output().expect("run xtask");
    assert_eq!(out.status.code(), Some(0), "{args:?} --help: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_xtask_call_in_the_workflows_uses_real_flags() {
    let mut calls = 0;
    for name in ["ci.yml", "replay.yml", "mutants.yml"] {
        for line in workflow(name).lines().filter(|l| !l.trim_start().starts_with('#')) {
            let Some(at) = line.find("cargo xtask ") else { continue };
            let words: Vec<&str> = line[at + "cargo xtask ".len()..].split_whitespace().take_while(|w| *w != "||").collect();
            let task = words[0];
            let sub = words.get(1).filter(|w| **w == "merge").copied();
            let text = help(&[Some(task), sub].into_iter().flatten().collect::<Vec<_>>());
            for flag in words.iter().filter(|w| w.starts_with("--")) {
                assert!(
                    text.contains(&format!("{flag} ")) || text.contains(&format!("{flag}\n")),
                    "{name}: `{flag}` is not a flag of `cargo xtask {task}`:\n{line}"
                );
            }
            calls += 1;
        }
    }
    assert!(calls >= 5, "the workflows run the bench's tasks ({calls} calls found)");
}

#[test]
fn the_replay_cache_key_covers_replays_build_inputs() {
    let text = workflow("replay.yml");
    let line = text.lines().find(|l| l.trim_start().starts_with("for path in ")).expect("replay.yml lists the build inputs");
    let listed: Vec<&str> = line.trim().trim_start_matches("for path in ").trim_end_matches("; do").split_whitespace().collect();
    assert_eq!(listed, replay::build::BUILD_INPUTS, "replay.yml's cache key must hash what the tiergate binary is built from");
}

/// mutants.yml and `.ci/run` (its per-change `--in-diff` run) install the cargo-mutants
/// whose listing the task reads; .ci/run also skips the install only for that version.
#[test]
fn mutants_yml_and_ci_install_the_cargo_mutants_the_task_pins() {
    let code = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../mutation/src/code.rs")).unwrap();
    let pinned =
        code.lines().find_map(|l| l.strip_prefix("pub const VERSION: &str = \"")).and_then(|r| r.split('"').next()).expect("mutation/src/code.rs pins VERSION");
    assert!(
        workflow("mutants.yml").contains(&format!("cargo install cargo-mutants --locked --version {pinned}\n")),
        "mutants.yml must install cargo-mutants {pinned}"
    );
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/run")).unwrap();
    assert!(ci.contains(&format!("cargo install cargo-mutants --locked --version {pinned}\n")), ".ci/run must install cargo-mutants {pinned}");
    assert!(ci.contains(&format!("grep -qx 'cargo-mutants {pinned}'")), ".ci/run must reinstall unless cargo-mutants {pinned} is there");
    assert!(ci.contains("cargo xtask mutants --in-diff HEAD~1 "), ".ci/run runs the mutants of each change");
}
