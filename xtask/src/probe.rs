//! `cargo xtask probe --command C [--cwd D] --expect allow|ask|deny|T0..T3|BLOCKED
//! [--rev REV] [--root DIR]`: the `git bisect run` contract — 0 when the verdict
//! matches, 1 when it does not, 125 when the revision cannot be built or tested —
//! printing the verdict either way. `--root` points at another checkout (default:
//! this project); without `--rev` the work tree is built.

use replay::probe::verdict_at;

const SKIP: i32 = 125;
/// A usage error: `git bisect run` aborts on codes above 127 instead of calling the
/// revision bad.
pub const USAGE: i32 = 128;

fn log(msg: &str) {
    eprintln!("probe: {msg}");
}

pub fn run(args: &crate::flags::ProbeArgs) -> i32 {
    let crate::flags::ProbeArgs { command, cwd, expect, rev, root } = args;
    let root = root.clone().unwrap_or_else(replay::project_root);
    match verdict_at(&root, rev.as_deref(), command, cwd.as_deref(), &log) {
        Ok(v) => {
            let ok = expect.holds(v.class);
            println!("{} {}: {} ({})", if ok { "match" } else { "MISMATCH" }, v.class, v.rule, v.reason);
            i32::from(!ok)
        }
        Err(u) => {
            println!("untestable: {}", u.0);
            SKIP
        }
    }
}
