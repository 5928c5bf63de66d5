//! Runs one subject over many requests through one long-lived protocol v1 child.
//! A writer thread feeds stdin while a reader thread drains stdout, so neither pipe
//! fills up; a line that gets no answer within the timeout (or a child that dies)
//! becomes an error verdict for that row and a fresh child takes the rest. A fresh
//! child that resumes in the middle of a session is first sent the session's
//! earlier steps again (their answers dropped), so the steps it answers read what
//! those steps wrote. It does not cache (store.rs) or decide what to run (lib.rs).

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
    /// The session this request is a step of (the `session` extension of `tiergate
    /// batch`), or None for a command on its own. A session's steps are sent in
    /// order, to one child.
    pub session: Option<String>,
}

impl Job {
    /// A command on its own.
    pub fn new(command: impl Into<String>, cwd: Option<String>) -> Job {
        Job { command: command.into(), cwd, session: None }
    }
}

/// Answers every job, in order. `tick` is called once per answered row.
pub fn run(subject: &Subject, jobs: &[Job], timeout: Duration, tick: &(dyn Fn() + Sync)) -> Result<Vec<Verdict>, ReplayError> {
    let mut out: Vec<Verdict> = Vec::with_capacity(jobs.len());
    while out.len() < jobs.len() {
        let start = out.len();
        let primes = earlier_steps(jobs, &out, start);
        run_from(subject, jobs, &primes, start, timeout, tick, &mut out)?;
    }
    Ok(out)
}

/// The steps before `start` of `jobs[start]`'s session that were answered: what a
/// fresh child must replay before it can answer the rest of that session.
fn earlier_steps(jobs: &[Job], answered: &[Verdict], start: usize) -> Vec<usize> {
    let Some(session) = jobs.get(start).and_then(|j| j.session.as_deref()) else { return Vec::new() };
    (0..start).filter(|&i| jobs[i].session.as_deref() == Some(session) && !answered[i].is_error()).collect()
}

/// Runs `primes` (answers dropped), then jobs[start..], in one child until all are
/// answered or one fails; the failing row gets an error verdict so the caller's
/// loop resumes after it.
fn run_from(
    subject: &Subject,
    jobs: &[Job],
    primes: &[usize],
    start: usize,
    timeout: Duration,
    tick: &(dyn Fn() + Sync),
    out: &mut Vec<Verdict>,
) -> Result<(), ReplayError> {
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
    let order: Vec<usize> = primes.iter().copied().chain(start..jobs.len()).collect();
    std::thread::scope(|s| {
        let order = &order;
        s.spawn(move || {
            let Some(stdin) = stdin else { return };
            let mut w = BufWriter::with_capacity(1 << 16, stdin);
            for &i in order {
                let j = &jobs[i];
                if writeln!(w, "{}", request_line(i, &j.command, j.cwd.as_deref(), j.session.as_deref())).is_err() {
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
        for (n, &i) in order.iter().enumerate() {
            // A timeout or a dead child ends this child; a bad answer line is that row's error.
            let (answer, fatal) = match rx.recv_timeout(timeout) {
                Ok(line) => (parse_answer(&line, i), false),
                Err(mpsc::RecvTimeoutError::Timeout) => (Verdict::error(format!("no answer within {} s", timeout.as_secs_f64())), true),
                Err(mpsc::RecvTimeoutError::Disconnected) => (Verdict::error("the classifier exited before answering this line"), true),
            };
            if n < primes.len() {
                if fatal || answer.is_error() {
                    // The session's files cannot be rebuilt: the step to resume at has no answer.
                    out.push(Verdict::error(format!("a fresh classifier could not replay this session's earlier steps ({})", answer.reason)));
                    tick();
                    break;
                }
                continue;
            }
            out.push(answer);
            tick();
            if fatal {
                break;
            }
        }
        // Done or failed: end the child so both threads see EOF / EPIPE and return.
        let _ = child.kill();
        let _ = child.wait();
    });
    Ok(())
}
