//! Replay shards, with the verdict cache as the merge medium. `--shard I/N` replays
//! only the rows whose (corpus, id) hashes to shard I of N and writes every answer
//! it got, keyed by build id, to `reports/<base>..<head>.shards/I-of-N.jsonl`.
//! `merge` loads those files into the verdict cache; the ordinary unsharded replay
//! that follows then asks no binary anything, so its report is the one a single
//! run gives, by construction (`tests/it/shards.rs` compares the files). It does not
//! decide pass or fail: a shard's caps and declarations see only its rows, the merge
//! sees them all.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::build::Subject;
use crate::corpus::{Kind, Row};
use crate::exit::ReplayError;
use crate::protocol::{Class, Verdict};
use crate::runner::Job;
use crate::store::Store;

/// The 1-based shard a row belongs to among `n`.
pub fn of(kind: Kind, id: &str, n: usize) -> usize {
    let mut h = Sha256::new();
    h.update(kind.as_str().as_bytes());
    h.update([0]);
    h.update(id.as_bytes());
    let d = h.finalize();
    let x = u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]);
    (x % n.max(1) as u64) as usize + 1
}

/// Keeps the rows of shard `i` of `n`; a session's steps stay together (they
/// replay in order through what the earlier ones wrote).
pub fn keep(rows: Vec<Row>, shard: Option<(usize, usize)>) -> Vec<Row> {
    match shard {
        Some((i, n)) => rows.into_iter().filter(|r| of(r.kind, r.session().as_deref().unwrap_or(&r.id), n) == i).collect(),
        None => rows,
    }
}

/// One exported answer.
#[derive(Serialize, Deserialize)]
struct Line {
    build: String,
    command: String,
    cwd: String,
    /// A session step's earlier steps (crate::sides::contexts); empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    after: String,
    class: Class,
    rule: String,
    reason: String,
}

/// Where shard `i` of `n` of the comparison `dir_name` writes its answers.
pub fn path(root: &Path, dir_name: &str, (i, n): (usize, usize)) -> PathBuf {
    root.join("reports").join(format!("{dir_name}.shards")).join(format!("{i}-of-{n}.jsonl"))
}

/// Writes the answers of each side (subject, jobs, verdicts); error verdicts and
/// uncacheable subjects are left out.
pub fn export(file: &Path, sides: &[(&Subject, &[Job], &[Verdict])]) -> std::io::Result<usize> {
    let mut out = Vec::new();
    let mut n = 0;
    for (subject, jobs, verdicts) in sides {
        let Some(build) = &subject.build_id else { continue };
        let after = crate::sides::contexts(jobs);
        for ((j, v), after) in jobs.iter().zip(verdicts.iter()).zip(after).filter(|((_, v), _)| !v.is_error()) {
            let line = Line {
                build: build.clone(),
                command: j.command.clone(),
                cwd: j.cwd.clone().unwrap_or_default(),
                after,
                class: v.class,
                rule: v.rule.clone(),
                reason: v.reason.clone(),
            };
            writeln!(out, "{}", serde_json::to_string(&line).unwrap_or_default())?;
            n += 1;
        }
    }
    if let Some(d) = file.parent() {
        std::fs::create_dir_all(d)?;
    }
    crate::report::write::atomic(file, &out)?;
    Ok(n)
}

/// Loads shard answer files into the verdict cache under `root`; returns how many.
pub fn import(root: &Path, files: &[PathBuf]) -> Result<usize, ReplayError> {
    let mut store = Store::open(&crate::build::replay_dir(root).join("cache.sqlite")).map_err(|e| ReplayError::infra(format!("verdict cache: {e}")))?;
    let mut total = 0;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| ReplayError::usage(format!("{}: {e}", f.display())))?;
        let mut lines = Vec::new();
        for (k, l) in text.lines().enumerate() {
            let line: Line = serde_json::from_str(l).map_err(|e| ReplayError::usage(format!("{}:{}: {e}", f.display(), k + 1)))?;
            lines.push(line);
        }
        lines.sort_by(|a, b| a.build.cmp(&b.build));
        for group in lines.chunk_by(|a, b| a.build == b.build) {
            let verdicts: Vec<Verdict> =
                group.iter().map(|l| Verdict { class: l.class, rule: l.rule.clone(), reason: l.reason.clone(), error: None }).collect();
            let items = group.iter().zip(&verdicts).map(|(l, v)| (l.command.as_str(), l.cwd.as_str(), l.after.as_str(), v));
            store.insert(&group[0].build, items).map_err(|e| ReplayError::infra(format!("verdict cache: {e}")))?;
            total += group.len();
        }
    }
    Ok(total)
}
