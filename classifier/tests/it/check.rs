//! The one `check` every classifier test goes through: command in, class out.

use classifier::{classify_with, MemFiles, Request, Verdict};

/// The working directory and home every test request uses.
pub const CWD: &str = "/work/proj";
pub const HOME: &str = "/home/user";

pub fn request(cmd: &str) -> Request {
    Request::new(cmd).with_cwd(CWD).with_home(HOME)
}

pub fn verdict(cmd: &str) -> Verdict {
    classify_with(&request(cmd), &MemFiles::new())
}

pub fn verdict_with(cmd: &str, files: &MemFiles) -> Verdict {
    classify_with(&request(cmd), files)
}

/// `T0`…`T3`, or `BLOCKED`.
pub fn class(v: &Verdict) -> String {
    if v.blocked {
        "BLOCKED".to_owned()
    } else {
        v.tier.to_string()
    }
}

#[track_caller]
pub fn check(cmd: &str, expect: &str) {
    let v = verdict(cmd);
    assert_eq!(class(&v), expect, "`{cmd}` → {} ({}: {})", class(&v), v.rule, v.reason);
}

#[track_caller]
pub fn check_with(cmd: &str, files: &MemFiles, expect: &str) {
    let v = verdict_with(cmd, files);
    assert_eq!(class(&v), expect, "`{cmd}` → {} ({}: {})", class(&v), v.rule, v.reason);
}
