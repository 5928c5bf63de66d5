//! The `tiergate` binary: everything it does is in the library (`lib.rs`).

fn main() -> std::process::ExitCode {
    tiergate::run(std::env::args().skip(1).collect())
}
