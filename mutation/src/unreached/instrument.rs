//! The instrumented tiergate: SanitizerCoverage on stable rustc.
//!
//! Why sancov: line coverage from rustc's own `-Cinstrument-coverage` needs
//! `llvm-profdata`/`llvm-cov` (the `llvm-tools` rustup component, not installed here
//! and not fetchable), and gcov-style coverage is nightly-only. LLVM's
//! SanitizerCoverage pass is in every stable rustc (`-Cpasses=sancov-module` with its
//! `-sanitizer-coverage-*` options): it gives each basic block a flag and a PC table,
//! and needs only two runtime hooks, which `sancov_rt.c` provides (compiled with the
//! machine's `cc`, linked with `-Clink-arg`). binutils (`readelf`) maps the PCs to
//! lines. Bool flags, not the 8-bit counters: a counter wraps to 0 after 256 runs of
//! its block, which would read as "never ran". Pruning is off so that every block
//! with code has a flag (lines.rs relies on it). Opt-level 0 (the dev profile): no
//! inlining or merged code, so each line's code is its own.
//!
//! Everything goes to its own target directory (`target/cov`) with an explicit
//! `--target`, so build scripts and proc-macros are not instrumented and no normal
//! build's artifacts or fingerprints are touched.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::Digest;

/// The runtime: the two init hooks and the exit-time writer.
const RUNTIME: &str = include_str!("sancov_rt.c");

/// The variable naming the directory each instrumented process writes its file to.
pub const DIR_VAR: &str = "TIERGATE_SANCOV_DIR";

/// The host triple (`rustc -vV`), given to `--target` so host artifacts stay plain.
fn host() -> Result<String, String> {
    let out = Command::new("rustc").arg("-vV").output().map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| l.strip_prefix("host: ").map(str::to_owned)).ok_or_else(|| "rustc -vV names no host".to_owned())
}

/// The flags of the instrumented build; `runtime` is the compiled hooks' object file.
pub fn rustflags(runtime: &Path) -> String {
    [
        "-Cpasses=sancov-module", "-Cllvm-args=-sanitizer-coverage-level=3", "-Cllvm-args=-sanitizer-coverage-inline-bool-flag",
        "-Cllvm-args=-sanitizer-coverage-pc-table", "-Cllvm-args=-sanitizer-coverage-prune-blocks=0", "-Cdebuginfo=line-tables-only",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(std::iter::once(format!("-Clink-arg={}", runtime.display())))
    .collect::<Vec<_>>()
    .join(" ")
}

/// Builds the instrumented tiergate of the work tree at `root` into `target_dir`
/// (dev profile) and returns its path. The runtime is compiled first, from the
/// source embedded in this crate, so the build never reads another checkout's file.
pub fn build(root: &Path, target_dir: &Path, log: &dyn Fn(&str)) -> Result<PathBuf, String> {
    std::fs::create_dir_all(target_dir).map_err(|e| format!("{}: {e}", target_dir.display()))?;
    // Named by its source's hash: the object's path is in RUSTFLAGS, so a changed
    // runtime changes the flags and cargo relinks (it does not watch link-arg files).
    let hash = replay::build::hex(&sha2::Sha256::digest(RUNTIME.as_bytes()));
    let src = target_dir.join(format!("sancov_rt-{}.c", &hash[..12]));
    let obj = src.with_extension("o");
    std::fs::write(&src, RUNTIME).map_err(|e| format!("{}: {e}", src.display()))?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc).args(["-O1", "-fPIC", "-c"]).arg(&src).arg("-o").arg(&obj).status().map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !st.success() {
        return Err(format!("{cc} could not compile {}", src.display()));
    }
    let how = replay::layout::at_dir(root)?;
    let triple = host()?;
    log(&format!("building the instrumented tiergate ({}, --target {triple}) into {}", how.describe("dev"), target_dir.display()));
    let st = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(how.cargo_build_args("dev"))
        .args(["--target", &triple, "--target-dir"])
        .arg(target_dir)
        .env("RUSTFLAGS", rustflags(&obj))
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !st.success() {
        return Err("the instrumented build failed (its errors are above)".into());
    }
    Ok(how.binary(&target_dir.join(&triple), "dev"))
}
