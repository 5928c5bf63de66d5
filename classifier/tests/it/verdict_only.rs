//! `explain::verdict` (the verdict-only path `classify`, `tiergate batch` and the
//! hook take) gives exactly `explain::trace(…).verdict`: same rule, reason, tier
//! and span, for every truth row and adversarial bypass row, and for the
//! self-defence cases whose hits the trace adds after the walk.

use classifier::explain::{trace, verdict};
use classifier::{Guard, MemFiles, Protected, Request};

/// The `command` column of a corpus CSV (RFC 4180 quoting, fields may span lines).
fn commands(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let (mut row, mut field, mut quoted, mut chars) = (Vec::new(), String::new(), false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    let col = rows[0].iter().position(|h| h == "command").unwrap();
    rows.into_iter().skip(1).filter_map(|r| r.get(col).cloned()).collect()
}

#[test]
fn the_verdict_only_path_gives_the_traces_verdict() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut cmds: Vec<String> = vec![
        "tiergate approve ABC".into(),
        "sh -c 'tiergate approve ABC'".into(),
        "sudo --odd tiergate approve ABC".into(),
        "./target/release/tiergate approve ABC".into(),
        "bash -c \"echo hi; tiergate approve X\" > out.txt".into(),
        "cat /data/tg/tiergate.db".into(),
        "env tiergate approve X; sqlite3 /data/tg/tiergate.db .dump".into(),
        "f(){ cat tiergate.db-wal; }; f".into(),
        "sudo -u root sh -c 'cp x /data/tg/y' | tee /data/tg/tiergate.db".into(),
    ];
    let mut files = 0;
    for dir in ["truth", "curated"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".csv") && (dir == "truth" || name.starts_with("bypass")) {
                cmds.extend(commands(&p));
                files += 1;
            }
        }
    }
    assert!(files > 10 && cmds.len() > 3_000, "{files} files, {} commands", cmds.len());
    let protect = Protected::builtin().with_dir("/data/tg", Guard::TiergateStore).with_file("/usr/local/bin/tiergate", Guard::TiergateBinary);
    let fs = MemFiles::new();
    let mut defended = 0;
    for c in &cmds {
        let req = Request::new(c).with_cwd("/work/proj").with_home("/home/user").with_protected(protect.clone());
        let v = verdict(&req, &fs);
        assert_eq!(v, trace(&req, &fs).verdict, "{c}");
        defended += usize::from(v.rule.starts_with("tiergate."));
    }
    // The hand-written self-defence cases above (and corpus rows) reach those rules.
    assert!(defended >= 9, "only {defended} verdicts by a tiergate.* rule");
}
