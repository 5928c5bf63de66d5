//! Replay shards (`replay::shard`): the answers of three shards, merged through the
//! verdict cache, give the report of one unsharded run byte for byte, and the merged
//! run asks no binary anything.

use std::collections::BTreeMap;
use std::path::Path;

use crate::repo::{check, failures, Repo, RULES};

fn report_files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("report dir").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        out.insert(name, std::fs::read_to_string(e.path()).expect("report file"));
    }
    out
}

fn forget_cache(repo: &Repo) {
    for f in ["cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm"] {
        let _ = std::fs::remove_file(repo.root.join("target/replay").join(f));
    }
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let repo = Repo::new();
    let base = repo.git(&["rev-parse", "HEAD"]);
    // A head that moves rows (rm gets blocked): diff, caps and failures are not empty.
    repo.write("classifier/rules.txt", &RULES.replace("rm \tT3", "rm \tBLOCKED"));
    let (code, one) = check(&repo.config(&base));
    let one = one.unwrap_or_else(|e| panic!("{e}"));
    assert!(!one.report.failures.is_empty(), "the fixture change should fail something");
    let dir = one.report_dir.clone().expect("report dir");
    let want = report_files(&dir);
    assert!(want.contains_key("summary.md") && want.contains_key("results.jsonl"));

    let mut exports = Vec::new();
    let mut rows = 0;
    for i in 1..=3 {
        forget_cache(&repo); // each shard on its own runner, with its own cache
        let mut cfg = repo.config(&base);
        cfg.shard = Some((i, 3));
        let (_, r) = check(&cfg);
        let o = r.unwrap_or_else(|e| panic!("shard {i}: {e}"));
        rows += o.report.rows.len();
        exports.push(replay::shard::path(&repo.root, &o.report.dir_name(), (i, 3)));
    }
    assert_eq!(rows, one.report.rows.len(), "every row is in exactly one shard");

    forget_cache(&repo);
    let imported = replay::shard::import(&repo.root, &exports).unwrap_or_else(|e| panic!("{e}"));
    assert!(imported > 0);
    let (merged_code, merged) = check(&repo.config(&base));
    let merged = merged.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(merged.answered, 0, "every verdict came from the shards");
    assert_eq!(merged_code, code, "{}", failures(&Ok(merged)));
    assert_eq!(report_files(&dir), want, "merged report differs from the unsharded one");
}
