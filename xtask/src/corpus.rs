//! `cargo xtask corpus`: placeholder until the corpora engineer lands the real task.

pub fn run(args: &[String]) -> anyhow::Result<i32> {
    let _ = args;
    anyhow::bail!("not implemented")
}
