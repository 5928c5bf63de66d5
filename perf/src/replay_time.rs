//! Behind `cargo xtask bench replay [--base REV] [--runs N] [--corpus LIST] [--save]`:
//! times warm replays of this repository's corpora (truth + history + curated,
//! whichever hold rows) excluding the head build, and compares the median with the
//! 10 s budget of issue 3 item 6. `--save` writes the figure measured here to
//! `benches/baselines/replay.json`. Exit 1 when the median is over budget.

use replay::config::Config;
use replay::corpus::Kind;

const LIMIT_SECS: f64 = 10.0;

fn log(msg: &str) {
    eprintln!("bench replay: {msg}");
}

/// `bench replay`: `runs` timed warm replays against `base` of `corpora` (None:
/// every corpus with rows); `save` writes the median to the baseline file.
pub fn run(base: &str, runs: usize, corpora: Option<Vec<Kind>>, save: bool) -> i32 {
    let root = replay::project_root();
    // Replay what exists: a corpus with no rows yet is left out (and said).
    let corpora = corpora.unwrap_or_else(|| {
        Kind::ALL
            .into_iter()
            .filter(|k| {
                let ok = replay::corpus::load_worktree(&root, *k).is_ok();
                if !ok {
                    log(&format!("corpus {} has no loadable rows; left out", k.as_str()));
                }
                ok
            })
            .collect()
    });
    let cfg = Config { corpora: corpora.clone(), log, ..Config::new(root.clone(), Some(base.to_owned())) };
    log("warming caches (builds, verdict store)");
    if let Err(e) = replay::run(&cfg) {
        eprintln!("{e}");
        return e.code();
    }
    let mut secs = Vec::new();
    let mut rows = 0;
    for i in 0..runs {
        let out = match replay::run(&cfg) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{e}");
                return e.code();
            }
        };
        rows = out.report.rows.len();
        let total = out.timings.iter().find(|(w, _)| w == "total").map(|t| t.1).unwrap_or(0.0);
        let head_build = out.timings.iter().find(|(w, _)| w == "head build").map(|t| t.1).unwrap_or(0.0);
        let warm = total - head_build;
        println!("run {}: {rows} rows, {warm:.2} s excluding the head build ({head_build:.2} s), base rebuilt: {}", i + 1, out.base_built);
        secs.push(warm);
    }
    secs.sort_by(|a, b| a.total_cmp(b));
    let median = secs[secs.len() / 2];
    let names: Vec<&str> = corpora.iter().map(|k| k.as_str()).collect();
    println!("median warm replay: {median:.2} s for {rows} rows ({}), budget {LIMIT_SECS} s", names.join("+"));
    if save {
        let text = format!(
            "{{\n  \"task\": \"cargo xtask bench replay --base {base}\",\n  \"rows\": {rows},\n  \"corpora\": \"{}\",\n  \"warm_median_secs\": {median:.2},\n  \"limit_secs\": {LIMIT_SECS},\n  \"runs\": {runs},\n  \"machine\": \"project 2-core machine, release tiergate, warm base cache and verdict store, other builds running\"\n}}\n",
            names.join("+")
        );
        let path = root.join("benches/baselines/replay.json");
        if let Err(e) = replay::report::write::atomic(&path, text.as_bytes()) {
            eprintln!("{}: {e}", path.display());
            return replay::exit::INFRA;
        }
        println!("saved benches/baselines/replay.json");
    }
    if median > LIMIT_SECS {
        eprintln!("warm replay took {median:.2} s, over the {LIMIT_SECS} s budget");
        return replay::exit::POLICY;
    }
    replay::exit::CLEAN
}
