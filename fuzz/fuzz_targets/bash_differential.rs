//! Differential: brush-parser's acceptance (seen as "not `parse.unsupported`")
//! against `bash -n`. The finding it fails on is the dangerous direction: the
//! classifier ALLOWS a command that bash itself rejects as a syntax error, which
//! means the classifier's model of the text is not bash's. The other direction
//! (bash accepts, we refuse → ask) is friction, not risk, and is only counted.
#![no_main]

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use classifier::{classify, Decision, Request};
use libfuzzer_sys::fuzz_target;

static REFUSED_BUT_BASH_OK: AtomicU64 = AtomicU64::new(0);
static RUNS: AtomicU64 = AtomicU64::new(0);

/// `bash -n` with the script on stdin: `bash -n -c SRC` would read a SRC that
/// starts with `-` as bash's own options (the first run's 14 false findings).
fn bash_accepts(src: &str) -> Option<bool> {
    let mut child = Command::new("bash").arg("-n").stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().ok()?;
    let _ = child.stdin.take()?.write_all(src.as_bytes());
    Some(child.wait().ok()?.success())
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    // bash cannot take NUL in an argument; huge inputs only hit our size limit.
    if src.contains('\0') || src.len() > 4096 {
        return;
    }
    let v = classify(&Request::new(src).with_cwd("/work/proj").with_home("/home/user"));
    let Some(bash_ok) = bash_accepts(src) else { return };
    let runs = RUNS.fetch_add(1, Ordering::Relaxed) + 1;
    if bash_ok && v.rule == "parse.unsupported" {
        let n = REFUSED_BUT_BASH_OK.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_power_of_two() {
            eprintln!("bash_differential: {n}/{runs} inputs bash accepts but we refuse, e.g. {src:?}");
        }
    }
    assert!(
        bash_ok || v.decision != Decision::Allow,
        "bash -n rejects {src:?} but the classifier allows it ({}: {})",
        v.rule,
        v.reason
    );
});
