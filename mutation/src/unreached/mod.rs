//! `cargo xtask mutants --unreached`: which code mutants no input of the bench
//! executes. A mutant whose code never runs survives whatever it does, so the
//! unreached part of the population is a floor on the code mutants' survival rate,
//! and a map of whole functions no row reaches is where rows are missing.
//!
//! The work tree's tiergate is built with SanitizerCoverage (instrument.rs says why
//! that tool), then asked exactly what the mutants gate asks (gate.rs): every rule
//! example (in the examples' cwd and HOME), and every row of every corpus plus the
//! binary's own table probes, through the replay's loading and runner (no verdict
//! cache, so every row runs). Each process writes its covered blocks at exit;
//! lines.rs turns them into covered lines, classify.rs places every mutant
//! cargo-mutants lists (honouring .cargo/mutants.toml) and writes the report.
//! Verdicts are not looked at: this measures reach, not judgement. A reached line
//! is not a caught mutant (most survivors sit on lines that run: a boundary no row
//! tests); an unreached one is a sure survivor.

mod classify;
mod instrument;
mod lines;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use classify::{Placed, Survivors};

/// An instrumented opt-level-0 tiergate answers a row in about a millisecond; this
/// only has to tell a loop from slowness.
const ROW_TIMEOUT: Duration = Duration::from_secs(60);

fn log(msg: &str) {
    eprintln!("mutants --unreached: {msg}");
}

/// `mutants --unreached [--out DIR]` (default target/unreached): the exit code.
pub fn run(out: Option<&Path>) -> i32 {
    match measure(out) {
        Ok(dir) => {
            log(&format!("report: {}", dir.join("summary.md").display()));
            0
        }
        Err(e) => {
            eprintln!("xtask mutants --unreached: {e}");
            replay::exit::INFRA
        }
    }
}

fn measure(out: Option<&Path>) -> Result<PathBuf, String> {
    let t0 = Instant::now();
    let root = replay::project_root();
    let out = root.join(out.unwrap_or(Path::new("target/unreached")));
    let target_dir = root.join("target").join("cov");
    let bin = instrument::build(&root, &target_dir, &log)?;
    let build_secs = t0.elapsed().as_secs_f64();
    let hits = target_dir.join("hits");
    let _ = std::fs::remove_dir_all(&hits);
    std::fs::create_dir_all(&hits).map_err(|e| format!("{}: {e}", hits.display()))?;
    let t1 = Instant::now();
    let asked = ask_everything(&root, &bin, &hits)?;
    let run_secs = t1.elapsed().as_secs_f64();
    let blocks = read_hits(&hits)?;
    let dump = std::process::Command::new("readelf")
        .args(["--wide", "--debug-dump=decodedline"])
        .arg(&bin)
        .output()
        .map_err(|e| format!("cannot run readelf: {e}"))?;
    if !dump.status.success() {
        return Err(format!("readelf --wide --debug-dump=decodedline {} failed", bin.display()));
    }
    let lines = map_lines(&root, &bin, &String::from_utf8_lossy(&dump.stdout), &blocks)?;
    log(&format!(
        "{} blocks, {} ran; {} lines of classifier/src with code, {} ran",
        blocks.pcs.len(),
        blocks.hit.iter().filter(|&&h| h).count(),
        lines.len(),
        lines.values().filter(|&&h| h).count()
    ));
    let placed = place(&root, &lines)?;
    let commit = replay::git::git(&root, &["rev-parse", "--short", "HEAD"]).map(|c| c.trim().to_owned()).unwrap_or_default();
    let dirty = replay::git::git(&root, &["status", "--porcelain", "--", "classifier", "corpus"]).map(|s| !s.trim().is_empty()).unwrap_or(false);
    let head = format!(
        "At `{commit}`{}: the code population as `cargo mutants --list` gives it ({} mutants), against {asked}. \
         Built in {build_secs:.0} s, asked in {run_secs:.0} s, {:.0} s in all (`cargo xtask mutants --unreached`).",
        if dirty { " (with uncommitted changes)" } else { "" },
        placed.len(),
        t0.elapsed().as_secs_f64()
    );
    let survivors = survivors(&root);
    write(&out, &placed, &head, survivors.as_ref())?;
    let _ = std::fs::remove_dir_all(&hits);
    Ok(out)
}

/// Every input the mutants gate gives a mutant, through the instrumented binary
/// (coverage files to `hits`): what was asked, for the report.
fn ask_everything(root: &Path, bin: &Path, hits: &Path) -> Result<String, String> {
    let env = format!("{}={}", instrument::DIR_VAR, hits.display());
    let rules = replay::coverage::rules_of(&bin.display().to_string())?;
    let (jobs, _) = crate::gate::example_jobs(&rules);
    log(&format!("asking the {} rule examples", jobs.len()));
    replay::runner::run(&crate::gate::example_subject(bin, std::slice::from_ref(&env)), &jobs, ROW_TIMEOUT, &|| {}).map_err(|e| e.to_string())?;
    let subject = replay::build::Subject { argv: vec!["env".into(), env, bin.display().to_string(), "batch".into()], build_id: None, label: "cov".into() };
    let mut rows = replay::coverage::task::rows(root).map_err(|e| e.to_string())?;
    let tables = replay::dump::of_subject(&subject.argv).map_err(|e| format!("the table probes: {e}"))?;
    rows.extend(replay::corpus::probes::rows(None, &tables).map_err(|e| e.join("; "))?);
    log(&format!("asking the {} corpus and probe rows", rows.len()));
    let (verdicts, _) = replay::answer_rows(root, &subject, &rows, ROW_TIMEOUT, log).map_err(|e| e.to_string())?;
    let errors = verdicts.iter().filter(|v| v.is_error()).count();
    Ok(format!("the {} rule examples and {} rows of every corpus and the table probes ({errors} unanswered)", jobs.len(), rows.len()))
}

/// The line map of classifier/src: the line table's ranges in files whose base name is
/// one of classifier/src's, named by one batch `addr2line` over their addresses.
fn map_lines(root: &Path, bin: &Path, dump: &str, blocks: &lines::Blocks) -> Result<lines::LineMap, String> {
    let src = root.join("classifier/src");
    let mut names = std::collections::HashSet::new();
    let mut stack = vec![src];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
                names.insert(n.to_owned());
            }
        }
    }
    let ranges = lines::ranges(dump, &|n: &str| names.contains(n), blocks);
    let addrs: String = ranges.iter().map(|r| format!("{:#x}\n", r.addr)).collect();
    let file = bin.with_extension("addrs");
    std::fs::write(&file, addrs).map_err(|e| format!("{}: {e}", file.display()))?;
    let stdin = std::fs::File::open(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let out = std::process::Command::new("addr2line").arg("-e").arg(bin).stdin(stdin).output().map_err(|e| format!("cannot run addr2line: {e}"))?;
    let _ = std::fs::remove_file(&file);
    if !out.status.success() {
        return Err(format!("addr2line -e {} failed", bin.display()));
    }
    lines::attribute(&ranges, &String::from_utf8_lossy(&out.stdout), &root.display().to_string(), &|f: &str| f.starts_with("classifier/src/"))
}

fn read_hits(dir: &Path) -> Result<lines::Blocks, String> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.extension().is_some_and(|x| x == "cov") {
            files.push((p.display().to_string(), std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?));
        }
    }
    log(&format!("{} coverage files (one per process)", files.len()));
    lines::Blocks::merge(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
}

/// Every mutant of today's code population, placed on the line map.
fn place(root: &Path, lines: &lines::LineMap) -> Result<Vec<Placed>, String> {
    let listed = crate::code::list_with_functions(root)?;
    let mut texts = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(listed.len());
    for (m, function) in listed {
        if !texts.contains_key(&m.file) {
            let t = std::fs::read_to_string(root.join(&m.file)).map_err(|e| format!("{}: {e}", m.file))?;
            texts.insert(m.file.clone(), t);
        }
        let last_line = crate::mutant::line_of(&texts[&m.file], m.end);
        let reach = classify::reach(lines, &m.file, &texts[&m.file], (m.line, last_line), function.lines);
        out.push(Placed { mutant: m, function: function.name, last_line, reach });
    }
    Ok(out)
}

/// The survivors of the last fresh sample (reports/mutants/results.jsonl), if any.
fn survivors(root: &Path) -> Option<Survivors<'static>> {
    let text = std::fs::read_to_string(root.join("reports/mutants/results.jsonl")).ok()?;
    let list: Vec<(String, String, String)> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["status"] == "survived" && v["population"] == "code")
        .map(|v| (v["id"].as_str().unwrap_or("").to_owned(), v["key"].as_str().unwrap_or("").to_owned(), v["what"].as_str().unwrap_or("").to_owned()))
        .collect();
    Some(Survivors { source: "the last fresh sample (reports/mutants/results.jsonl), placed in today's code by key", list })
}

fn write(out: &Path, placed: &[Placed], head: &str, survivors: Option<&Survivors>) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let ids: String = placed.iter().filter(|p| p.reach.never_runs()).map(|p| format!("{} {}\n", p.mutant.id, p.reach.as_str())).collect();
    for (name, text) in [("summary.md", classify::markdown(placed, head, survivors)), ("unreached.tsv", classify::tsv(placed)), ("unreached-ids.txt", ids)] {
        std::fs::write(out.join(name), text).map_err(|e| format!("{}: {e}", out.join(name).display()))?;
    }
    Ok(())
}
