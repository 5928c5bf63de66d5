//! Protocol v1 line handling through the real binary: one long-lived
//! `tiergate batch` (see `tiergate_fuzz::tiergate_bin`) fed the input's lines.
//! Exactly one answer per line, each a valid v1 object, invalid lines answered
//! `input.invalid`/ask. The binary is a child process, so libFuzzer gets no
//! coverage from it: this target is a randomized contract check, not guided.
#![no_main]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use tiergate_fuzz::{check_protocol_line, tiergate_bin};

struct Batch {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

static BATCH: Mutex<Option<Batch>> = Mutex::new(None);

fn spawn() -> Batch {
    let mut child = Command::new(tiergate_bin())
        .arg("batch")
        .env("HOME", "/home/user")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn tiergate batch (set TIERGATE_BIN or build --release)");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    Batch { _child: child, stdin, stdout }
}

fuzz_target!(|data: &[u8]| {
    let mut guard = BATCH.lock().unwrap();
    let b = guard.get_or_insert_with(spawn);
    let mut input = data.to_vec();
    if input.last() != Some(&b'\n') {
        input.push(b'\n');
    }
    b.stdin.write_all(&input).expect("batch died (stdin closed)");
    b.stdin.flush().unwrap();
    for line in input.split_inclusive(|&c| c == b'\n') {
        let mut out = String::new();
        let n = b.stdout.read_line(&mut out).expect("reading batch stdout");
        assert!(n > 0, "batch closed stdout before answering {line:?}");
        check_protocol_line(line.strip_suffix(b"\n").unwrap_or(line), out.trim_end_matches('\n'));
    }
});
