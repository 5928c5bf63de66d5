//! `cargo xtask bench replay`: placeholder, filled in below.
pub fn run(_args: &[String]) -> i32 {
    eprintln!("bench: not implemented yet");
    replay::exit::USAGE
}
