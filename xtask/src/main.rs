//! `cargo xtask <task>` (`dist` builds the shipped `tiergate`): one match, each arm a thin wrapper over a library function
//! (rust-analyzer style). Paths come from the project root, never the cwd. Exit
//! codes are replay's contract (`replay::exit`).

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
mod tidy;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        eprintln!("{}", flags::USAGE);
        return ExitCode::from(replay::exit::USAGE as u8);
    };
    let code = match task.as_str() {
        "replay" => replay_task::run(rest),
        "corpus" => match corpus::run(rest) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("xtask corpus: {e:#}");
                replay::exit::USAGE
            }
        },
        "bench" => bench::run(rest),
        "dist" => match bench::build_dist(&replay::project_root()) {
            Ok(bin) => {
                println!("{}", bin.display());
                0
            }
            Err(e) => {
                eprintln!("xtask dist: {e:#}");
                replay::exit::INFRA
            }
        },
        "probe" => probe::run(rest),
        "bisect" => bisect::run(rest),
        "codegen" => codegen::run(rest),
        "coverage" => coverage::run(rest),
        "mutants" => mutants::run(rest),
        "oracle" => oracle::run(rest),
        "tidy" => {
            let (problems, files) = tidy::run();
            for p in &problems {
                eprintln!("{p}");
            }
            println!("tidy: {files} files, {} problems", problems.len());
            i32::from(!problems.is_empty())
        }
        "help" | "--help" | "-h" => {
            println!("{}", flags::USAGE);
            0
        }
        other => {
            eprintln!("unknown task {other:?}\n{}", flags::USAGE);
            replay::exit::USAGE
        }
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}
