//! Runs one subject over many requests through one long-lived protocol v1 child.
//! A writer thread feeds stdin while a reader thread drains stdout, so neither pipe
//! fills up; a line that gets no answer within the timeout (or a child that dies)
//! becomes an error verdict for that row and a fresh child takes the rest. It does
//! not cache (store.rs) or decide what to run (lib.rs).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::build::Subject;
use crate::exit::ReplayError;
use crate::protocol::{parse_answer, request_line, Verdict};

/// One request: the command and its absolute cwd, if any.
#[derive(Clone, Debug)]
pub struct Job {
    pub command: String,
    pub cwd: Option<String>,
}

/// Answers every job, in order. `tick` is called once per answered row.
pub fn run(subject: &Subject, jobs: &[Job], timeout: Duration, tick: &(dyn Fn() + Sync)) -> Result<Vec<Verdict>, ReplayError> {
    let mut out: Vec<Verdict> = Vec::with_capacity(jobs.len());
    while out.len() < jobs.len() {
        let start = out.len();
        run_from(subject, jobs, start, timeout, tick, &mut out)?;
    }
    Ok(out)
}

/// Runs jobs[start..] in one child until all are answered or one fails; the failing
/// row gets an error verdict so the caller's loop resumes after it.
fn run_from(subject: &Subject, jobs: &[Job], start: usize, timeout: Duration, tick: &(dyn Fn() + Sync), out: &mut Vec<Verdict>) -> Result<(), ReplayError> {
    let (prog, args) = subject.argv.split_first().ok_or_else(|| ReplayError::infra("empty subject command"))?;
    let mut child = Command::new(prog)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| ReplayError::infra(format!("cannot start {} (`{}`): {e}", subject.label, subject.argv.join(" "))))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let Some(stdin) = stdin else { return };
            let mut w = BufWriter::with_capacity(1 << 16, stdin);
            for (i, j) in jobs.iter().enumerate().skip(start) {
                if writeln!(w, "{}", request_line(i, &j.command, j.cwd.as_deref())).is_err() {
                    return; // the child went away; the reader side reports it
                }
            }
            let _ = w.flush();
        });
        s.spawn(move || {
            let Some(stdout) = stdout else { return };
            for line in BufReader::with_capacity(1 << 16, stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        for i in start..jobs.len() {
            match rx.recv_timeout(timeout) {
                Ok(line) => {
                    out.push(parse_answer(&line, i));
                    tick();
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    out.push(Verdict::error(format!("no answer within {} s", timeout.as_secs_f64())));
                    tick();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    out.push(Verdict::error("the classifier exited before answering this line"));
                    tick();
                    break;
                }
            }
        }
        // Done or failed: end the child so both threads see EOF / EPIPE and return.
        let _ = child.kill();
        let _ = child.wait();
    });
    Ok(())
}
