//! Issue 3's acceptance items, one test each (plus the cache and accept loop).

use crate::repo::{check, failures, mtime, Repo, RULES, TRUTH};

#[test]
fn base_equal_to_head_is_clean_and_writes_a_report() {
    let repo = Repo::new();
    let step = repo.root.parent().unwrap().join("step-summary.md");
    let mut cfg = repo.config("HEAD");
    cfg.step_summary = Some(step.clone());
    let (code, r) = check(&cfg);
    assert_eq!(code, 0, "{}", failures(&r));
    let out = r.unwrap();
    let dir = out.report_dir.clone().expect("report dir");
    assert!(std::fs::read_to_string(&step).unwrap().starts_with("✅ replay"), "appended to $GITHUB_STEP_SUMMARY");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.starts_with("✅ replay"), "{summary}");
    assert!(summary.contains("trees are equal"), "{summary}");
    assert!(dir.join("results.jsonl").is_file() && dir.join("changed.csv").is_file());
    let jsonl = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 20, "5 truth + 5 history + 2 curated rows + 4 peer cases + 4 session steps");
    assert!(!jsonl.contains(repo.root.to_str().unwrap()), "no absolute paths in reports");
}

#[test]
fn moving_a_pinned_verdict_needs_a_matching_declaration_and_stale_ones_fail() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    // A rule change: force push becomes blocked, which moves the pinned row.
    repo.write("classifier/rules.txt", &RULES.replace("git push --force\tT3", "git push --force\tBLOCKED"));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(f.contains("pinned row push-force: verdict moved T3 → BLOCKED without a declaration"), "{f}");
    let first = r.unwrap();
    assert!(first.base_built, "the first run builds the base");
    let cached = replay::build::cached_bin(&repo.root, &replay::build::base_key(&repo.root, &base).unwrap());
    let built_at = mtime(&cached);

    // Declare it and move the expectation with it: clean.
    repo.write("corpus/truth/t.csv", &TRUTH.replace("git push --force origin main,,T3", "git push --force origin main,,BLOCKED"));
    let decl = r#"{"changes":[{"row":"push-force","from":"T3","to":"BLOCKED","reason":"force push rewrites shared history"}]}"#;
    repo.write("declared/change.json", decl);
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 0, "{}", failures(&r));
    let second = r.unwrap();
    assert!(!second.base_built, "the second run reuses the cached base binary");
    assert_eq!(mtime(&cached), built_at, "cached base binary untouched");

    // A declaration that matches nothing is stale.
    // A declaration that matches nothing is stale (a typo'd row too); one for a row
    // that only head has cannot be judged and is left alone.
    let stale = r#"{"changes":[{"row":"push-force","from":"T3","to":"BLOCKED","reason":"force push rewrites shared history"},
                               {"row":"ls","from":"T0","to":"T3","reason":"no such move"},
                               {"row":"no-such-row","from":"T0","to":"T3","reason":"typo"},
                               {"row":"brand-new","from":"T0","to":"T3","reason":"new row"}]}"#;
    repo.write("declared/change.json", stale);
    let truth = TRUTH.replace("git push --force origin main,,T3", "git push --force origin main,,BLOCKED");
    repo.write("corpus/truth/t.csv", &format!("{truth}brand-new,ls -l,,T0,true,free,new\n"));
    let (code, r) = check(&repo.config(&base));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(f.contains("stale declaration: row ls T0 → T3"), "{f}");
    assert!(f.contains("stale declaration: row no-such-row T0 → T3"), "{f}");
    assert!(!f.contains("push-force") && !f.contains("brand-new"), "{f}");
}

#[test]
fn editing_only_a_pinned_expectation_fails_naming_the_row() {
    let repo = Repo::new();
    repo.write("corpus/truth/t.csv", &TRUTH.replace("rm -rf /,,BLOCKED", "rm -rf /,,T3"));
    repo.commit("relax the expectation only");
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(f.contains("pinned row rm-root: expectation moved BLOCKED → T3 without a declaration"), "{f}");
    // Only a corpus changed: the base has head's build inputs, so nothing was rebuilt.
    let out = r.unwrap();
    assert!(!out.base_built);
    assert!(out.report.notes.iter().any(|n| n.contains("head's binary served as the base")), "{:?}", out.report.notes);
}

#[test]
fn history_prompts_beyond_caps_fail_with_used_and_limit() {
    let repo = Repo::new();
    // `make` starts to prompt: three distinct history rows (weights 7+3+2) against a cap of 2.
    repo.write("classifier/rules.txt", &format!("make\tT3\tmake.any\n{RULES}"));
    repo.commit("make prompts");
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 1, "{}", failures(&r));
    let f = failures(&r);
    assert!(f.contains("caps.json history.new_prompts: 3/2 exceeded"), "{f}");
    let out = r.unwrap();
    let summary = std::fs::read_to_string(out.report_dir.unwrap().join("summary.md")).unwrap();
    assert!(summary.contains("| history | new_prompts_weighted | 12/100 | ok |"), "{summary}");

    // Within caps: clean.
    repo.write("caps.json", &crate::repo::CAPS.replace("\"new_prompts\": 2", "\"new_prompts\": 3"));
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 0, "{}", failures(&r));
}

/// A change that keeps every tier but rewrites the deciding rule or reason of
/// more rows than `reworded` allows fails; without the key there is no such cap.
#[test]
fn rewording_more_rows_than_the_cap_fails_and_an_old_caps_file_has_no_such_cap() {
    let repo = Repo::new();
    // `rm FILE` keeps T3 under another rule id, so its reason changes too.
    repo.write("classifier/rules.txt", &RULES.replace("rm \tT3\tfs.rm\n", "rm \tT3\tfs.remove\n"));
    repo.commit("rename fs.rm");
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 0, "no reworded key: no cap — {}", failures(&r));
    let capped = crate::repo::CAPS.replace("\"loosened\": 0, \"new_blocks\": 1 }", "\"loosened\": 0, \"new_blocks\": 1, \"reworded\": 0 }");
    assert_ne!(capped, crate::repo::CAPS);
    repo.write("caps.json", &capped);
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 1, "{}", failures(&r));
    assert!(failures(&r).contains("caps.json truth.reworded: 1/0 exceeded"), "{}", failures(&r));
    repo.write("caps.json", &capped.replace("\"reworded\": 0", "\"reworded\": 1"));
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 0, "{}", failures(&r));
}

#[test]
fn corrupt_truth_csv_or_caps_is_a_config_error_with_file_and_line() {
    let repo = Repo::new();
    repo.write("corpus/truth/t.csv", &TRUTH.replace("ls -la,,T0", "ls -la,,T4"));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    let f = failures(&r);
    assert!(f.contains("corpus/truth/t.csv:2: column expect: \"T4\" is not one of T0 T1 T2 T3 BLOCKED"), "{f}");

    repo.write("corpus/truth/t.csv", &TRUTH.replace("id,command", "id,colour,command"));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/truth/t.csv:1: column colour: unknown column"), "{}", failures(&r));

    // Ids are unique across a corpus's files; an empty corpus hides gaps.
    repo.write("corpus/truth/t.csv", TRUTH);
    repo.write("corpus/truth/u.csv", "id,command,cwd,expect,pinned,family,note\nls,ls,,T0,false,free,dup\n");
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/truth/u.csv:2: column id: duplicate id \"ls\" (first at corpus/truth/t.csv:2)"), "{}", failures(&r));
    std::fs::remove_file(repo.root.join("corpus/truth/u.csv")).unwrap();
    repo.write("corpus/curated/c.csv", "id,command,cwd,expect,family,note\n");
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("corpus/curated/*.csv: matched no rows"), "{}", failures(&r));
    repo.write("corpus/curated/c.csv", crate::repo::CURATED);

    repo.write("caps.json", "{\n  \"truth\": { \"new_prompts\": 0, \"typo\": 1 }\n}\n");
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 2);
    assert!(failures(&r).contains("caps.json:2:"), "{}", failures(&r));
    assert!(failures(&r).contains("unknown field `typo`"), "{}", failures(&r));
}

#[test]
fn a_base_that_does_not_build_is_an_infrastructure_error() {
    let repo = Repo::new();
    repo.write("classifier/src/main.rs", "fn main() { this is not rust }\n");
    let broken = repo.commit("break the build");
    repo.write("classifier/src/main.rs", crate::repo::TIERGATE);
    repo.commit("fix the build");
    let (code, r) = check(&repo.config(&broken));
    assert_eq!(code, 3, "{}", failures(&r));
    assert!(failures(&r).contains("does not build"), "{}", failures(&r));
    // The worktree was removed even though the build failed.
    let list = repo.git(&["worktree", "list"]);
    assert_eq!(list.lines().count(), 1, "{list}");
}

#[test]
fn a_base_before_protocol_v1_is_said_plainly_and_skips_the_diff() {
    let repo = Repo::empty();
    repo.write("README", "nothing yet\n");
    repo.commit("first");
    repo.write_fixture();
    repo.commit("classifier");
    let (code, r) = check(&repo.config("HEAD~1"));
    assert_eq!(code, 0, "{}", failures(&r));
    let out = r.unwrap();
    assert!(!out.report.diffed);
    assert!(out.report.notes.iter().any(|n| n.contains("predates protocol v1")), "{:?}", out.report.notes);

    let mut cfg = repo.config("HEAD~1");
    cfg.require_base = true;
    let (code, r) = check(&cfg);
    assert_eq!(code, 3, "{}", failures(&r));
}

#[test]
fn missing_base_says_how_to_fetch_it() {
    let repo = Repo::new();
    let (code, r) = check(&repo.config("no-such-branch"));
    assert_eq!(code, 3);
    assert!(failures(&r).contains("git fetch origin no-such-branch"), "{}", failures(&r));
}

#[test]
fn accept_refuses_to_write_in_a_check_run() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("classifier/rules.txt", &RULES.replace("git push --force\tT3", "git push --force\tBLOCKED"));
    let cfg = repo.config(&base);
    assert!(cfg.check);
    let (_, r) = check(&cfg);
    let out = r.unwrap();
    assert!(replay::accept::apply(&cfg, &out, &[]).is_err(), "a check run must not write");
    assert_eq!(repo.read("corpus/truth/t.csv"), TRUTH, "nothing written");
}

#[test]
fn accept_writes_truth_edits_and_todo_declarations_that_fail_until_finished() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("classifier/rules.txt", &RULES.replace("git push --force\tT3", "git push --force\tBLOCKED"));
    let mut cfg = repo.config(&base);
    cfg.check = false;
    let (code, r) = check(&cfg);
    assert_eq!(code, 1);
    let out = r.unwrap();
    let acc = replay::accept::apply(&cfg, &out, &[]).unwrap();
    assert_eq!(acc.truth_rows.len(), 1, "{:?}", acc.truth_rows);
    let csv = repo.read("corpus/truth/t.csv");
    assert_eq!(csv, TRUTH.replace("git push --force origin main,,T3", "git push --force origin main,,BLOCKED"));
    let file = acc.declared_file.expect("declaration file");
    let decl = repo.read(&file);
    assert!(decl.contains("\"reason\": \"TODO\""), "{decl}");

    let (code, r) = check(&cfg);
    assert_eq!(code, 1);
    assert!(failures(&r).contains("the reason is \"TODO\""), "{}", failures(&r));

    repo.write(&file, &decl.replace("TODO", "blocked on purpose"));
    let (code, r) = check(&cfg);
    assert_eq!(code, 0, "{}", failures(&r));
}

#[test]
fn against_diffs_head_with_any_protocol_v1_program() {
    let repo = Repo::new();
    // Build once through a normal replay, then compare head against its own binary.
    let (code, _) = check(&repo.config("HEAD"));
    assert_eq!(code, 0);
    let bin = repo.root.join("target/release/tiergate").display().to_string();
    let mut cfg = repo.config("HEAD");
    cfg.against = Some(vec![bin, "batch".into()]);
    let (code, r) = check(&cfg);
    assert_eq!(code, 0, "{}", failures(&r));
    let out = r.unwrap();
    assert_eq!(out.report.base, "against");
    assert!(out.report.rows.iter().all(|x| x.category == replay::diff::Category::Unchanged));

    // A program that speaks another protocol version is refused, not compared.
    cfg.against = Some(vec!["sh".into(), "-c".into(), "echo 2".into()]);
    let (code, r) = check(&cfg);
    assert_eq!(code, 3);
    assert!(failures(&r).contains("protocol 2"), "{}", failures(&r));
}

#[test]
fn a_users_history_is_replayed_in_place_and_redacted_in_reports() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    let hist = repo.root.parent().unwrap().join("bash_history");
    std::fs::write(&hist, "make install\nmake install\ncurl -H 'Authorization: Bearer sk-live-0123456789abcdefghij' https://x.example\n").unwrap();
    repo.write("classifier/rules.txt", &format!("make install\tT3\tmake.install\ncurl \tT3\thttp.curl\n{RULES}"));
    let mut cfg = repo.config(&base);
    cfg.history = vec![hist];
    let (code, r) = check(&cfg);
    let out = r.unwrap();
    // Two imported commands (weights 2 and 1) and the committed `make install` row
    // (weight 3) start to prompt: 3 distinct against a cap of 2.
    assert_eq!(code, 1, "{:?}", out.report.failures);
    assert!(out.report.failures.iter().any(|f| f.message == "caps.json history.new_prompts: 3/2 exceeded"));
    let imported: Vec<_> = out.report.rows.iter().filter(|x| x.id.starts_with("import:")).collect();
    assert_eq!(imported.len(), 2);
    assert!(imported.iter().any(|x| x.weight == 2 && x.command == "make install"));
    let dir = out.report_dir.unwrap();
    for f in ["results.jsonl", "changed.csv", "summary.md"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(!text.contains("sk-live-0123456789abcdefghij"), "{f} leaks a secret:\n{text}");
    }
    assert!(out.report.caps.iter().any(|c| c.cap == "new_prompts_weighted" && c.used == 6));
}

#[test]
fn verdicts_are_cached_per_build_and_fixture_contents() {
    let repo = Repo::new();
    let cached = |r: &replay::Outcome| {
        let line = r.timings.iter().map(|t| t.0.clone()).find(|t| t.starts_with("replay (head")).unwrap();
        line.split(" rows, ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse::<usize>().unwrap()
    };
    let (_, r) = check(&repo.config("HEAD"));
    assert_eq!(cached(&r.unwrap()), 0, "a fresh repository has nothing cached");
    let (_, r) = check(&repo.config("HEAD"));
    assert_eq!(cached(&r.unwrap()), 20, "the second run answers every row from the store");
    repo.write("corpus/fixtures/work/script.sh", "rm -rf /\n");
    let (_, r) = check(&repo.config("HEAD"));
    assert_eq!(cached(&r.unwrap()), 0, "changed fixtures invalidate cached verdicts");
}

#[test]
fn a_nondeterministic_head_is_an_infrastructure_error() {
    let repo = Repo::new();
    repo.write("classifier/rules.txt", &format!("make clean\tFLIP\ttest.flip\n{RULES}"));
    let (code, r) = check(&repo.config("HEAD"));
    assert_eq!(code, 3, "{}", failures(&r));
    assert!(failures(&r).contains("head is nondeterministic: `make clean`"), "{}", failures(&r));
}
