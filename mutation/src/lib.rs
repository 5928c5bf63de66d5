//! Seeded regressions, the library behind `cargo xtask mutants [--population
//! tables,code] [--in-diff REV] [--list] [--shard I/N] [--rules PREFIX] [--sample N
//! [--seed S]] [--per-family K] [--ops a,b] [--ids FILE] [--check]` and `cargo xtask
//! mutants merge DIR…` (xtask parses the flags into `Options`), and `--unreached`,
//! which runs no mutant but maps the code no input executes (unreached/). Two populations:
//! mutants of the rule tables (gen.rs, ours: policy lives in data) and mutants of the
//! classifier's code (code.rs: cargo-mutants lists them). Each is put through the
//! bench's own gate (gate.rs) and reported as caught (by which layer), survived or
//! unviable, with rates per population, module and operator (report.rs, summary.rs).
//! The report goes to `reports/mutants/` (a shard: `reports/mutants-shards/I-of-N/`).

mod code;
mod gate;
pub mod gen;
mod in_diff;
pub mod mutant;
mod report;
mod summary;
pub mod unreached;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mutant::{Mutant, Population};
use report::{Meta, Record};

/// What `cargo xtask mutants` was asked to run.
#[derive(Debug, Default)]
pub struct Options {
    /// The populations to draw from (empty: both).
    pub population: Vec<Population>,
    /// `--in-diff REV`: only mutants of what `REV..HEAD` touched.
    pub in_diff: Option<String>,
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
    /// `--per-family K`: K mutants of every module.
    pub per_family: Option<usize>,
    /// Only these operators.
    pub ops: Option<Vec<String>>,
    /// `--ids FILE`: only the ids listed there.
    pub ids: Option<PathBuf>,
    /// Exit 1 when a mutant survives that no review in `equivalent.tsv` sets apart.
    pub check: bool,
    /// Replay every mutant, also those the rule examples caught (full layer counts).
    pub all_layers: bool,
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
        v = mutant::shard(&v, i, n);
    }
    if let Some(k) = f.per_family {
        v = mutant::per_family(&v, k);
    }
    if let Some(n) = f.sample {
        v = match &f.seed {
            Some(seed) => mutant::sample_seeded(&v, n, seed),
            None => mutant::sample(&v, n),
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

/// What a run draws from: every mutant asked for, cargo-mutants' version (empty
/// without the code population), and what `.cargo/mutants.toml` left out per file.
struct Listing {
    all: Vec<Mutant>,
    engine: String,
    excluded: BTreeMap<String, usize>,
}

/// The whole population asked for, at `commit` (checked out in `scratch`).
fn population(root: &Path, scratch: &Path, commit: &str, f: &Options) -> Result<Listing, String> {
    let wanted = |p: Population| f.population.is_empty() || f.population.contains(&p);
    let diff = match &f.in_diff {
        Some(base) => {
            let base = replay::git::git(root, &["merge-base", base, commit]).map(|b| b.trim().to_owned())?;
            Some(in_diff::write(root, &base, commit)?)
        }
        None => None,
    };
    let mut all = Vec::new();
    if wanted(Population::Tables) {
        let tables = gen::generate(&read_committed(root, commit)?, &gate::unmutated_dump(root, scratch, &log)?)?;
        match &diff {
            Some((_, text)) => {
                let touched = in_diff::touched(text);
                all.extend(tables.into_iter().filter(|m| in_diff::touches(&touched, m)));
            }
            None => all.extend(tables),
        }
    }
    let mut engine = String::new();
    let mut excluded = BTreeMap::new();
    if wanted(Population::Code) {
        engine = code::version()?;
        all.extend(code::list(scratch, diff.as_ref().map(|(p, _)| p.as_path()))?);
        if diff.is_none() {
            excluded = code::excluded_by_config(scratch)?;
        }
    }
    Ok(Listing { all, engine, excluded })
}

/// Reviews of code mutants (`code:…` keys) that name no mutant of today's code: a
/// review whose function was renamed or rewritten no longer applies. Checked when the
/// code population is listed whole, and with `--check` (listing it whole if the run
/// itself lists only a diff's mutants). The table reviews are held by a test.
fn stale_code_reviews(reviews: &report::Reviews, all: &[Mutant], scratch: &Path, f: &Options) -> Result<Vec<String>, String> {
    let code = Population::Code.as_str();
    let wanted = f.population.is_empty() || f.population.contains(&Population::Code);
    if !wanted || !reviews.keys().any(|k| k.starts_with(code)) || (f.in_diff.is_some() && !f.check) {
        return Ok(Vec::new());
    }
    let listed;
    let whole = if f.in_diff.is_some() {
        listed = code::list(scratch, None)?;
        &listed[..]
    } else {
        all
    };
    let known: std::collections::HashSet<&str> = whole.iter().flat_map(|m| [m.id.as_str(), m.key.as_str()]).collect();
    Ok(reviews.keys().filter(|k| k.starts_with(code) && !known.contains(k.as_str())).cloned().collect())
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
    let _lock = match gate::ScratchLock::take(&root) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    // Mutants are listed from, and applied to, the committed tree.
    let listed = gate::checkout(&root, &commit).and_then(|dir| population(&root, &dir, &commit, flags).map(|p| (dir, p)));
    let (dir, Listing { all, engine, excluded }) = match listed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
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
    let reviews = report::equivalents(&root);
    let stale = match stale_code_reviews(&reviews, &all, &dir, flags) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    if !stale.is_empty() {
        eprintln!(
            "xtask mutants: {} review(s) in {} name no code mutant cargo-mutants lists today (re-read and re-key them):",
            stale.len(),
            report::EQUIVALENTS
        );
        for k in &stale {
            eprintln!("  {k}");
        }
        if flags.check {
            return replay::exit::POLICY;
        }
    }
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
    let out = match (&flags.out, flags.shard) {
        (Some(out), _) => root.join(out),
        (None, Some((i, n))) => root.join("reports").join("mutants-shards").join(format!("{i}-of-{n}")),
        (None, None) => root.join("reports").join("mutants"),
    };
    let mut meta = Meta::of(&commit, &all, &chosen, command, &engine);
    meta.in_diff = flags.in_diff.clone();
    meta.examples_first = !flags.all_layers;
    meta.excluded_by_config = excluded;
    if chosen.is_empty() {
        log("no mutant to run (the change touches no mutable code, or the filters left none)");
        return finish(&root, &out, &meta, &[], &reviews, flags.check);
    }
    let t = Instant::now();
    let scratch = match gate::prepare(&root, dir, &commit, flags.all_layers, &log) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::INFRA;
        }
    };
    meta.prepare_secs = t.elapsed().as_secs_f64();
    meta.base_build_secs = scratch.build_secs;
    meta.baseline = scratch.baseline.iter().map(|(l, f)| format!("{l}: {f}")).collect();
    meta.baseline_failures = meta.baseline.len();
    let truth = replay::corpus::load_worktree(&scratch.dir, replay::corpus::Kind::Truth).map(|c| c.rows).unwrap_or_default();
    let mut records = Vec::new();
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
        if let Err(e) = report::write(&out, &meta, &records, &reviews) {
            eprintln!("xtask mutants: writing {}: {e}", out.display());
            return replay::exit::INFRA;
        }
    }
    finish(&root, &out, &meta, &records, &reviews, flags.check)
}

/// Writes the report, prints the headline and, with `check`, fails on a survivor no
/// review sets apart.
fn finish(root: &Path, out: &Path, meta: &Meta, records: &[Record], reviews: &report::Reviews, check: bool) -> i32 {
    if let Err(e) = report::write(out, meta, records, reviews) {
        eprintln!("xtask mutants: writing {}: {e}", out.display());
        return replay::exit::INFRA;
    }
    for p in Population::ALL {
        if records.iter().any(|r| r.population == p) {
            println!("{}: {}", p.as_str(), summary::headline(records, p, reviews));
        }
    }
    println!("report: {}", out.strip_prefix(root).unwrap_or(out).display());
    let open: Vec<&Record> = records.iter().filter(|r| r.status == "survived" && !report::set_apart(reviews, r)).collect();
    if check && !open.is_empty() {
        eprintln!("xtask mutants --check: {} mutant(s) survived the bench's gate:", open.len());
        for r in &open {
            eprintln!("  {} ({}): {}", r.id, r.key, r.what);
        }
        eprintln!("add truth rows that move with each (or review it in {} with a checkable reason)", report::EQUIVALENTS);
        return replay::exit::POLICY;
    }
    replay::exit::CLEAN
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
    use crate::mutant::Population;

    /// Every reviewed survivor in the committed `reports/mutants/equivalent.tsv` still names
    /// a mutant of today's rule sources: a line whose entry was renamed, moved to another
    /// table or removed is a review that no longer applies, and must be re-read.
    #[test]
    fn every_reviewed_survivor_names_a_mutant_of_todays_rules() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let files = gen::work_tree_sources(root).unwrap();
        let dumped = replay::dump::tables(&tiergate::programs_dump()).unwrap();
        let all = gen::generate(&files, &dumped).unwrap();
        let known: std::collections::HashSet<String> = all.iter().flat_map(|m| [m.id.clone(), m.key.clone()]).collect();
        let eq = report::equivalents(root);
        assert!(!eq.is_empty(), "reports/mutants/equivalent.tsv has reviewed lines");
        // Code mutants' reviews are held to cargo-mutants' listing by every run that lists them.
        let stale: Vec<&String> = eq.keys().filter(|k| !k.starts_with(Population::Code.as_str())).filter(|k| !known.contains(*k)).collect();
        assert!(stale.is_empty(), "reviewed survivors that name no mutant of today's rules (re-read and re-key them with `op:file what`): {stale:#?}");
    }
}
