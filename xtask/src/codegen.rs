//! `cargo xtask codegen [--check]`: regenerates `docs/rules.md` from the rule
//! registry. The renderer lives in the classifier's test binary
//! (`classifier/tests/it/rules_doc.rs`), so xtask never links the classifier: the
//! bench must run, and report, even when the working tree's classifier is broken.
//! (The table probes are not generated into a file: the replay derives them from the
//! base binary's `tiergate programs`, replay/src/corpus/probes.rs.)

use std::process::Command;

use crate::tidy::project_root;

pub fn run(check: bool) -> i32 {
    let check = check || replay::is_ci();
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    cmd.current_dir(project_root())
        .args(["test", "--quiet", "-p", "classifier", "--test", "it", "rules_doc", "--", "--exact", "rules_doc::rules_doc_is_fresh"]);
    if !check {
        cmd.env("TIERGATE_BLESS", "1");
    }
    match cmd.status() {
        Ok(s) if s.success() => 0,
        Ok(_) => {
            eprintln!("xtask codegen: docs/rules.md is stale (or the classifier does not build); run `cargo xtask codegen`");
            1
        }
        Err(e) => {
            eprintln!("xtask codegen: could not run cargo: {e}");
            3
        }
    }
}
