//! Hook event input through the real binary: `tiergate hook` spawned per input
//! with the bytes on stdin and a scratch data dir. It must exit 0 and print
//! nothing or one decision; an allow only for a Bash event the library also
//! allows. A process per input (~2–5 ms), and no coverage from the child: a
//! randomized contract check seeded with real events, not a guided fuzzer.
#![no_main]

use std::io::Write;
use std::process::{Command, Stdio};

use libfuzzer_sys::fuzz_target;
use tiergate_fuzz::{check_hook_answer, tiergate_bin, HOOK_HOME};

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("tiergate-fuzz-hook-{}", std::process::id()));
    let mut child = Command::new(tiergate_bin())
        .arg("hook")
        .env("TIERGATE_DATA_DIR", &dir)
        .env("HOME", HOOK_HOME)
        .env("XDG_CONFIG_HOME", "/nonexistent-config")
        .env("TIERGATE_STDIN_TIMEOUT_MS", "5000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn tiergate hook (set TIERGATE_BIN or build --release)");
    // A hook that answers before reading all of stdin closes the pipe: not a bug.
    let _ = child.stdin.take().unwrap().write_all(data);
    let out = child.wait_with_output().expect("wait for tiergate hook");
    check_hook_answer(data, out.status.success(), &String::from_utf8_lossy(&out.stdout));
});
