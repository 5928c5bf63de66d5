//! `cargo xtask oracle [--sample N] [--shard I/N] [--corpus tldr,truth,curated]
//! [--timeout SECS] [--jobs N] [--selftest]`, `cargo xtask oracle --metamorphic
//! [--check]` and `cargo xtask oracle --reanalyse REPORT_DIR` (reanalyse.rs): run what tiergate allows inside a verified sandbox and watch what it
//! tries (ORACLE.md). Opt-in, never part of every CI run. The self-test runs first,
//! every time; any failing probe stops the oracle before a corpus row runs.
//! Exit: 0 no new medium/high finding, 1 new findings (or a stale generated file
//! with --check), 2 usage, 3 the sandbox is unavailable or failed its self-test.

mod baseline;
mod classify;
mod metamorph;
mod project;
mod reanalyse;
mod report;
mod run;
mod sandbox;
mod seccomp;
mod selftest;
mod trace;

#[derive(Debug, Default)]
struct Flags {
    sample: Option<usize>,
    shard: Option<(usize, usize)>,
    corpus: Vec<String>,
    timeout: Option<u64>,
    jobs: Option<usize>,
    selftest_only: bool,
    metamorphic: bool,
    check: bool,
    reanalyse: Option<std::path::PathBuf>,
}

const CORPORA: &[&str] = &["tldr", "truth", "curated"];

fn parse(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags { corpus: vec!["tldr".into(), "truth".into()], ..Flags::default() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_owned())),
            _ => (a.as_str(), None),
        };
        let mut val = || inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| format!("{flag} needs a value"));
        let num = |v: String| v.parse::<usize>().map_err(|_| format!("{flag} {v:?}: not a number"));
        match flag {
            "--sample" => f.sample = Some(num(val()?)?),
            "--jobs" => f.jobs = Some(num(val()?)?.max(1)),
            "--timeout" => f.timeout = Some(num(val()?)?.max(1) as u64),
            "--shard" => {
                let v = val()?;
                let p = v.split_once('/').and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
                match p {
                    Some((i, n)) if i >= 1 && i <= n => f.shard = Some((i, n)),
                    _ => return Err(format!("--shard {v:?}: expected I/N with 1 <= I <= N")),
                }
            }
            "--corpus" => {
                f.corpus = val()?.split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
                if let Some(bad) = f.corpus.iter().find(|c| !CORPORA.contains(&c.as_str())) {
                    return Err(format!("--corpus {bad:?}: not one of {}", CORPORA.join(", ")));
                }
            }
            "--selftest" => f.selftest_only = true,
            "--metamorphic" => f.metamorphic = true,
            "--check" => f.check = true,
            "--reanalyse" => f.reanalyse = Some(val()?.into()),
            other => return Err(format!("unknown argument {other:?} for `oracle`")),
        }
    }
    if f.check && !f.metamorphic {
        return Err("--check goes with --metamorphic (the oracle run itself is never a CI gate)".into());
    }
    Ok(f)
}

pub fn run(args: &[String]) -> i32 {
    let flags = match parse(args) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("xtask oracle: {e}");
            return replay::exit::USAGE;
        }
    };
    let root = replay::project_root();
    if let Some(dir) = &flags.reanalyse {
        return reanalyse::task(&root, dir);
    }
    if flags.metamorphic {
        return metamorph::task(&root, flags.check || replay::is_ci());
    }
    run::oracle(&root, &flags, format!("cargo xtask oracle {}", args.join(" ")).trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn flags_parse_and_reject() {
        let f = parse(&v("--sample 400 --shard 2/3 --corpus=truth --timeout 5")).unwrap();
        assert_eq!((f.sample, f.shard, f.corpus.as_slice(), f.timeout), (Some(400), Some((2, 3)), &["truth".to_owned()][..], Some(5)));
        assert!(parse(&v("--corpus bogus")).is_err());
        assert!(parse(&v("--shard 0/3")).is_err());
        assert!(parse(&v("--check")).is_err());
        assert!(parse(&v("--metamorphic --check")).unwrap().check);
    }
}
