//! `cargo xtask mutants [--list] [--shard I/N] [--rules PREFIX] [--sample N]
//! [--per-family K] [--ops a,b] [--ids FILE]` and `cargo xtask mutants merge DIR…`: seeded regressions of the rule tables
//! (gen.rs), each put through the bench's own gate (gate.rs), reported as caught
//! (by which layer), survived or unviable (report.rs). The report goes to
//! `reports/mutants/` (a shard: `reports/mutants-shards/I-of-N/`).

mod gate;
mod gen;
mod report;

use std::path::Path;
use std::time::Instant;

use gen::Mutant;
use report::{Meta, Record};

#[derive(Debug, Default)]
struct Flags {
    list: bool,
    shard: Option<(usize, usize)>,
    rules: Option<String>,
    sample: Option<usize>,
    per_family: Option<usize>,
    ops: Option<Vec<String>>,
    /// Only these mutant ids (a file, one id first on each line): a re-run of survivors.
    ids: Option<Vec<String>>,
}

fn parse(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match a.as_str() {
            "--list" => f.list = true,
            "--shard" => {
                let v = val("--shard")?;
                let (i, n) = v.split_once('/').ok_or_else(|| format!("--shard {v:?}: expected I/N"))?;
                let (i, n): (usize, usize) = (i.parse().map_err(|_| format!("--shard {v:?}"))?, n.parse().map_err(|_| format!("--shard {v:?}"))?);
                if n == 0 || i == 0 || i > n {
                    return Err(format!("--shard {v:?}: need 1 <= I <= N"));
                }
                f.shard = Some((i, n));
            }
            "--rules" => f.rules = Some(val("--rules")?),
            "--sample" => f.sample = Some(val("--sample")?.parse().map_err(|_| "--sample needs a number".to_owned())?),
            "--per-family" => f.per_family = Some(val("--per-family")?.parse().map_err(|_| "--per-family needs a number".to_owned())?),
            "--ids" => {
                let p = val("--ids")?;
                let text = std::fs::read_to_string(&p).map_err(|e| format!("--ids {p}: {e}"))?;
                f.ids = Some(text.lines().filter_map(|l| l.split_whitespace().next()).filter(|w| !w.starts_with('#')).map(str::to_owned).collect());
            }
            "--ops" => f.ops = Some(val("--ops")?.split(',').map(str::to_owned).collect()),
            other => return Err(format!("unknown argument {other:?} for `mutants`")),
        }
    }
    Ok(f)
}

/// The population, then `--ids`, `--ops`, `--rules`, `--shard`, `--per-family` and
/// `--sample`, in that order.
fn select(all: &[Mutant], f: &Flags) -> Vec<Mutant> {
    let mut v: Vec<Mutant> = all
        .iter()
        .filter(|m| f.ids.as_ref().is_none_or(|ids| ids.contains(&m.id)))
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
        v = gen::sample(&v, n);
    }
    v
}

fn log(msg: &str) {
    eprintln!("mutants: {msg}");
}

pub fn run(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("merge") {
        return report::merge_task(&args[1..]);
    }
    let flags = match parse(args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("xtask mutants: {e}");
            return replay::exit::USAGE;
        }
    };
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
    let chosen = select(&all, &flags);
    if flags.list {
        for m in &chosen {
            println!("{}\t{}\t{}", m.id, m.scope, m.what);
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
    let baseline: Vec<String> = scratch.baseline.iter().map(|(l, f)| format!("{l}: {f}")).collect();
    let dir = match flags.shard {
        Some((i, n)) => root.join("reports").join("mutants-shards").join(format!("{i}-of-{n}")),
        None => root.join("reports").join("mutants"),
    };
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
        let meta = Meta::of(&commit, &all, &chosen, &flags_line(args), prepare_secs, scratch.build_secs, baseline.clone());
        if let Err(e) = report::write(&dir, &meta, &records) {
            eprintln!("xtask mutants: writing {}: {e}", dir.display());
            return replay::exit::INFRA;
        }
    }
    let meta = Meta::of(&commit, &all, &chosen, &flags_line(args), prepare_secs, scratch.build_secs, baseline);
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

fn flags_line(args: &[String]) -> String {
    if args.is_empty() {
        "cargo xtask mutants".into()
    } else {
        format!("cargo xtask mutants {}", args.join(" "))
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
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn flags_parse_and_reject() {
        let f = parse(&v("--shard 2/4 --rules git --sample 10 --ops tier,widen")).unwrap();
        assert_eq!((f.shard, f.rules.as_deref(), f.sample), (Some((2, 4)), Some("git"), Some(10)));
        assert!(parse(&v("--shard 5/4")).is_err());
        assert!(parse(&v("--bogus")).is_err());
        assert_eq!(parse(&v("--per-family 12")).unwrap().per_family, Some(12));
    }
}
