//! Seeded regressions, the library behind `cargo xtask mutants [--list] [--shard I/N]
//! [--rules PREFIX] [--sample N [--seed S]] [--per-family K] [--ops a,b] [--ids FILE]`
//! and `cargo xtask mutants merge DIR…` (xtask parses the flags into `Options`):
//! mutants of the rule tables (gen.rs), each put through the bench's own gate
//! (gate.rs), reported as caught (by which layer), survived or unviable (report.rs).
//! The report goes to `reports/mutants/` (a shard: `reports/mutants-shards/I-of-N/`).

mod gate;
pub mod gen;
mod report;

use std::path::{Path, PathBuf};
use std::time::Instant;

use gen::Mutant;
use report::{Meta, Record};

/// What `cargo xtask mutants` was asked to run.
#[derive(Debug, Default)]
pub struct Options {
    /// Print the selected mutants and stop.
    pub list: bool,
    /// `--shard I/N` (1-based).
    pub shard: Option<(usize, usize)>,
    /// Only mutants whose scope starts with this.
    pub rules: Option<String>,
    /// `--sample N`: evenly spread, or with `seed` a simple random sample.
    pub sample: Option<usize>,
    pub seed: Option<String>,
    /// The report directory, relative to the project root.
    pub out: Option<PathBuf>,
    /// `--per-family K`.
    pub per_family: Option<usize>,
    /// Only these operators.
    pub ops: Option<Vec<String>>,
    /// `--ids FILE`: only the ids listed there.
    pub ids: Option<PathBuf>,
}

/// The population, then `--ids`, `--ops`, `--rules`, `--shard`, `--per-family` and
/// `--sample`, in that order. `ids` is the `--ids` file's contents, read by the caller.
fn select(all: &[Mutant], f: &Options, ids: Option<&[String]>) -> Vec<Mutant> {
    let mut v: Vec<Mutant> = all
        .iter()
        .filter(|m| ids.is_none_or(|ids| ids.contains(&m.id)))
        .filter(|m| f.ops.as_ref().is_none_or(|ops| ops.contains(&m.op)))
        .filter(|m| f.rules.as_ref().is_none_or(|p| m.scope.starts_with(p.as_str())))
        .cloned()
        .collect();
    if let Some((i, n)) = f.shard {
        v = gen::shard(&v, i, n);
    }
    if let Some(k) = f.per_family {
        v = gen::per_family(&v, k);
    }
    if let Some(n) = f.sample {
        v = match &f.seed {
            Some(seed) => gen::sample_seeded(&v, n, seed),
            None => gen::sample(&v, n),
        };
    }
    v
}

fn log(msg: &str) {
    eprintln!("mutants: {msg}");
}

/// `mutants merge DIR…`.
pub fn merge(dirs: &[PathBuf]) -> i32 {
    report::merge_task(dirs)
}

/// `mutants [flags]`; `command` is the command line as typed, for the report's meta line.
pub fn run(flags: &Options, command: &str) -> i32 {
    let root = replay::project_root();
    let commit = match replay::git::git(&root, &["rev-parse", "HEAD"]) {
        Ok(c) => c.trim().to_owned(),
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    // Mutants are generated from, and applied to, the committed tree.
    let files = match read_committed(&root, &commit) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    let all = gen::generate(&files);
    // `--ids FILE`: one mutant id first on each line (`#` comments): a re-run of survivors.
    let ids: Option<Vec<String>> = match &flags.ids {
        None => None,
        Some(p) => match std::fs::read_to_string(p) {
            Ok(text) => Some(text.lines().filter_map(|l| l.split_whitespace().next()).filter(|w| !w.starts_with('#')).map(str::to_owned).collect()),
            Err(e) => {
                eprintln!("xtask mutants: --ids {}: {e}", p.display());
                return replay::exit::USAGE;
            }
        },
    };
    let chosen = select(&all, flags, ids.as_deref());
    if flags.list {
        for m in &chosen {
            println!("{}\t{}\t{}\t{}", m.id, m.scope, m.what, m.key);
        }
        eprintln!("{} of {} mutants", chosen.len(), all.len());
        return 0;
    }
    if replay::is_ci() {
        log("CI is set: the mutants run writes only target/ and reports/");
    }
    let t = Instant::now();
    let scratch = match gate::prepare(&root, &commit, &log) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    let prepare_secs = t.elapsed().as_secs_f64();
    let truth = replay::corpus::load_worktree(&scratch.dir, replay::corpus::Kind::Truth).map(|c| c.rows).unwrap_or_default();
    let mut records = Vec::new();
    let baseline: Vec<String> = scratch.baseline.iter().map(|(l, f)| format!("{l}: {f}")).collect();
    let dir = match (&flags.out, flags.shard) {
        (Some(out), _) => root.join(out),
        (None, Some((i, n))) => root.join("reports").join("mutants-shards").join(format!("{i}-of-{n}")),
        (None, None) => root.join("reports").join("mutants"),
    };
    for (k, m) in chosen.iter().enumerate() {
        let o = gate::run_one(&scratch, m);
        log(&format!(
            "[{}/{}] {} {} ({}; build {:.0} s, gate {:.0} s)",
            k + 1,
            chosen.len(),
            o.status,
            m.id,
            if o.layers.is_empty() { o.note.clone() } else { o.layers.join("+") },
            o.build_secs,
            o.gate_secs
        ));
        records.push(Record::of(m, &o, &scratch.rules, &truth));
        // Rewritten after every mutant: a run stopped early leaves a report of what it ran
        // (`selected` says how many were chosen, the headline how many ran).
        let meta = Meta::of(&commit, &all, &chosen, command, prepare_secs, scratch.build_secs, baseline.clone());
        if let Err(e) = report::write(&dir, &meta, &records) {
            eprintln!("xtask mutants: writing {}: {e}", dir.display());
            return replay::exit::INFRA;
        }
    }
    let meta = Meta::of(&commit, &all, &chosen, command, prepare_secs, scratch.build_secs, baseline);
    match report::write(&dir, &meta, &records) {
        Ok(()) => {
            println!("{}", report::headline(&meta, &records));
            println!("report: {}", dir.strip_prefix(&root).unwrap_or(&dir).display());
            0
        }
        Err(e) => {
            eprintln!("xtask mutants: writing {}: {e}", dir.display());
            replay::exit::INFRA
        }
    }
}

/// `classifier/src/rules/**.rs` as committed at `commit` (what the scratch tree holds).
fn read_committed(root: &Path, commit: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let list = replay::git::git(root, &["ls-tree", "-r", "--name-only", commit, &format!("{}/", gen::RULES_DIR)])?;
    for p in list.lines().filter(|l| l.ends_with(".rs")) {
        let bytes = replay::git::show(root, commit, p).ok_or_else(|| format!("git show {commit}:{p} failed"))?;
        out.push((p.to_owned(), String::from_utf8_lossy(&bytes).into_owned()));
    }
    if out.is_empty() {
        return Err(format!("no {} files at {commit}", gen::RULES_DIR));
    }
    Ok(out)
}

#[cfg(test)]
mod reviewed_tests {
    use super::{gen, report};

    /// Every reviewed survivor in the committed `reports/mutants/equivalent.tsv` still names
    /// a mutant of today's rule sources: a line whose entry was renamed, moved to another
    /// table or removed is a review that no longer applies, and must be re-read.
    #[test]
    fn every_reviewed_survivor_names_a_mutant_of_todays_rules() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let files = gen::work_tree_sources(root).unwrap();
        let all = gen::generate(&files);
        let known: std::collections::HashSet<String> = all.iter().flat_map(|m| [m.id.clone(), m.key.clone()]).collect();
        let eq = report::equivalents(&root.join("reports/mutants"));
        assert!(!eq.is_empty(), "reports/mutants/equivalent.tsv has reviewed lines");
        let stale: Vec<&String> = eq.keys().filter(|k| !known.contains(*k)).collect();
        assert!(stale.is_empty(), "reviewed survivors that name no mutant of today's rules (re-read and re-key them with `op:file what`): {stale:#?}");
    }
}
