//! `cargo xtask probe --command C [--cwd D] --expect allow|ask|deny|T0..T3|BLOCKED
//! [--rev REV] [--root DIR]`: the `git bisect run` contract — 0 when the verdict
//! matches, 1 when it does not, 125 when the revision cannot be built or tested —
//! printing the verdict either way. `--root` points at another checkout (default:
//! this project); without `--rev` the work tree is built.

use std::path::PathBuf;

use replay::probe::{verdict_at, Expect};

const SKIP: i32 = 125;

fn log(msg: &str) {
    eprintln!("probe: {msg}");
}

pub fn run(args: &[String]) -> i32 {
    let (mut command, mut cwd, mut expect, mut rev, mut root) = (None, None, None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.clone().next().cloned();
        match a.as_str() {
            "--command" => command = v,
            "--cwd" => cwd = v,
            "--expect" => expect = v,
            "--rev" => rev = v,
            "--root" => root = v.map(PathBuf::from),
            other => {
                eprintln!("probe: unknown argument {other:?}");
                return 128; // git bisect run aborts on codes above 127
            }
        }
        it.next();
    }
    let (Some(command), Some(expect_s)) = (command, expect) else {
        eprintln!("usage: cargo xtask probe --command C [--cwd D] --expect allow|ask|deny|T0..T3|BLOCKED [--rev REV] [--root DIR]");
        return 128;
    };
    let Some(expect) = Expect::parse(&expect_s) else {
        eprintln!("probe: --expect {expect_s:?} is not allow, ask, deny, T0, T1, T2, T3 or BLOCKED");
        return 128;
    };
    let root = root.unwrap_or_else(replay::project_root);
    match verdict_at(&root, rev.as_deref(), &command, cwd.as_deref(), &log) {
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
