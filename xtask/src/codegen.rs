//! `cargo xtask codegen [--check]`: regenerates `docs/rules.md` from the rule
//! registry and `corpus/truth/tables.csv` from the tables' probes. The rules
//! renderer lives in the classifier's test binary (`classifier/tests/it/rules_doc.rs`)
//! and the probes come from the work tree's `tiergate programs`, so xtask never links
//! the classifier: the bench must run, and report, even when the working tree's
//! classifier is broken.

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

/// `corpus/truth/tables.csv` from the work tree's `tiergate programs` (built as the
/// replay builds head, so a replay after it reuses the binary): 0 fresh or written,
/// 1 stale, 3 error.
pub fn tables(check: bool) -> i32 {
    let root = project_root();
    let log = |line: &str| eprintln!("xtask codegen: {line}");
    let bin = match replay::build::build_head(&root, &replay::build::head_target_dir(&root), &log) {
        Ok((subject, _)) => subject.argv[0].clone(),
        Err(e) => {
            eprintln!("xtask codegen: {e}");
            return 3;
        }
    };
    let out = match Command::new(&bin).arg("programs").output() {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            eprintln!("xtask codegen: `{bin} programs` failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr));
            return 3;
        }
        Err(e) => {
            eprintln!("xtask codegen: cannot run {bin}: {e}");
            return 3;
        }
    };
    corpora::tables::run(&root, &String::from_utf8_lossy(&out.stdout), check || replay::is_ci())
}
