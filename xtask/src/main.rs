//! `cargo xtask <task>` (`dist` builds the shipped `tiergate`): the flags are parsed
//! once (flags.rs, clap), then one match, each arm a thin wrapper over a library
//! function (rust-analyzer style). Paths come from the project root, never the cwd.
//! Exit codes are replay's contract (`replay::exit`).

mod bench;
mod bench_batch;
mod bench_replay;
mod bisect;
mod codegen;
mod corpus;
mod coverage;
mod flags;
mod mutants;
mod oracle;
mod probe;
mod replay_task;
mod tables;
mod tidy;

use std::process::ExitCode;

use flags::{BenchArgs, BenchReplay, MutantsArgs, MutantsMerge, ReplayAction, Task};

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
        Task::Corpus { task } => match corpus::run(task) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("xtask corpus: {e:#}");
                replay::exit::USAGE
            }
        },
        Task::Bench(BenchArgs { replay: Some(BenchReplay::Replay(b)), .. }) => bench_replay::run(&b),
        Task::Bench(BenchArgs { replay: Some(BenchReplay::Batch(b)), .. }) => bench_batch::run(&b.base),
        Task::Bench(b) => bench::run(&b),
        Task::Dist => match bench::build_dist(&replay::project_root()) {
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
        Task::Codegen { check } => match tables::run(check || replay::is_ci()) {
            0 => codegen::run(check),
            n => n,
        },
        Task::Coverage(c) => coverage::run(&c),
        Task::Mutants(MutantsArgs { merge: Some(MutantsMerge::Merge { dirs }), .. }) => mutants::merge(&dirs),
        // The raw words go into the report's meta line (what was run, as typed).
        Task::Mutants(m) => mutants::run(&m, &args[1..]),
        Task::Oracle(o) => oracle::run(&o, &args[1..]),
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
