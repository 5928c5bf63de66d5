//! `cargo xtask <task>` (`dist` builds the shipped `tiergate`): the flags are parsed
//! once (flags.rs, clap), then one match, each arm a call into a library: `replay`
//! (the bench), `corpora` (corpus generators and checks), `mutation` (seeded
//! regressions), `oracle` (the sandbox oracle) and `perf` (benchmarks), the way
//! rust-analyzer keeps its xtask thin. Paths come from the project root, never the
//! cwd. Exit codes are replay's contract (`replay::exit`).

mod bisect;
mod codegen;
mod coverage;
mod flags;
mod probe;
mod replay_task;
mod tidy;
mod tidy_layers;

use std::process::ExitCode;

use flags::{BenchArgs, BenchReplay, CorpusTask, MutantsArgs, MutantsMerge, ReplayAction, Task};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cli = match flags::parse(&args) {
        Ok(cli) => cli,
        Err(f) => {
            if f.to_stderr {
                eprint!("{}", f.message);
            } else {
                print!("{}", f.message);
            }
            return ExitCode::from(f.code.clamp(0, 255) as u8);
        }
    };
    let code = match cli.task {
        Task::Replay(r) => match r.action {
            Some(ReplayAction::Merge { files }) => replay_task::merge(&files, &r.flags),
            Some(ReplayAction::Accept) => replay_task::run(&r.flags, true),
            None => replay_task::run(&r.flags, false),
        },
        Task::Corpus { task } => match corpus(task) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("xtask corpus: {e:#}");
                replay::exit::USAGE
            }
        },
        Task::Bench(BenchArgs { replay: Some(BenchReplay::Replay(b)), .. }) => {
            perf::replay_time::run(&b.base, b.runs as usize, b.corpus.as_deref().map(flags::dedup_kinds), b.save)
        }
        Task::Bench(BenchArgs { replay: Some(BenchReplay::Batch(b)), .. }) => perf::batch::run(&b.base, b.check),
        Task::Bench(b) => perf::run(&b.groups.iter().map(|g| g.name()).collect::<Vec<_>>(), b.check),
        Task::Dist => match perf::build_dist(&replay::project_root()) {
            Ok(bin) => {
                println!("{}", bin.display());
                0
            }
            Err(e) => {
                eprintln!("xtask dist: {e:#}");
                replay::exit::INFRA
            }
        },
        Task::Probe(p) => probe::run(&p),
        Task::Bisect(b) => bisect::run(b),
        Task::Codegen { check } => codegen::run(check),
        Task::Coverage(c) => coverage::run(&c),
        Task::Mutants(MutantsArgs { merge: Some(MutantsMerge::Merge { dirs }), .. }) => mutation::merge(&dirs),
        Task::Mutants(m) if m.unreached => mutation::unreached::run(m.out.as_deref()),
        // The raw words go into the report's meta line (what was run, as typed).
        Task::Mutants(m) => mutation::run(&m.options(), &typed("mutants", &args[1..])),
        Task::Oracle(o) => oracle::run(&o.options(), &typed("oracle", &args[1..])),
        Task::AgentsE2e(a) => e2e::run(&a.options()),
        Task::Tidy => {
            let (problems, files) = tidy::run();
            for p in &problems {
                eprintln!("{p}");
            }
            println!("tidy: {files} files, {} problems", problems.len());
            i32::from(!problems.is_empty())
        }
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}

/// `cargo xtask corpus <task>`.
fn corpus(task: CorpusTask) -> anyhow::Result<i32> {
    let root = replay::project_root();
    match task {
        CorpusTask::Refresh { check, wheel } => corpora::refresh(&root, check, wheel),
        CorpusTask::Curated { check } => corpora::curated(&root, check),
        CorpusTask::Worst { check } => corpora::worst(&root, check),
        CorpusTask::Gaia { bin, cases } => corpora::gaia(&root, bin, cases),
        CorpusTask::Check => corpora::check(&root),
    }
}

/// The command line as typed, for a report's meta line.
fn typed(task: &str, words: &[String]) -> String {
    std::iter::once(format!("cargo xtask {task}")).chain(words.iter().cloned()).collect::<Vec<_>>().join(" ")
}
