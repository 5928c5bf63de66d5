//! Runs one subject over many requests through one long-lived protocol v1 child.
//! A writer thread feeds stdin while a reader thread drains stdout, so neither pipe
//! fills up; a line that gets no answer within the timeout (or a child that dies)
//! becomes an error verdict for that row and a fresh child takes the rest. A fresh
//! child that resumes in the middle of a session is first sent the session's
//! earlier steps again (their answers dropped), so the steps it answers read what
//! those steps wrote. It does not cache (store.rs) or decide what to run (lib.rs).
//!
//! With [`Patience::hang`] set (the mutants gate), a row that times out is asked
//! once more, alone, on a fresh child, with that longer timeout; still unanswered, it
//! ends the run with [`ReplayError::Hang`] instead of costing a timeout for every
//! later row the subject loops on.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::build::Subject;
use crate::exit::{Hang, ReplayError};
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

/// How long the runner waits for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// Per-row answer timeout: an unanswered row becomes an error row and a fresh
    /// child takes the rest.
    pub row: Duration,
    /// When set, a row unanswered within `row` is asked again, alone, on a fresh
    /// child, with this timeout; still unanswered, the run stops with
    /// [`ReplayError::Hang`]. The second, longer wait is what keeps a slow moment of
    /// a loaded machine from being called a hang; the stop is what keeps a looping
    /// subject from costing a timeout per row.
    pub hang: Option<Duration>,
}

impl From<Duration> for Patience {
    /// A per-row timeout, never a stop: an unanswered row is an error row.
    fn from(row: Duration) -> Patience {
        Patience { row, hang: None }
    }
}

/// Answers every job, in order. `tick` is called once per answered row.
pub fn run(subject: &Subject, jobs: &[Job], patience: impl Into<Patience>, tick: &(dyn Fn() + Sync)) -> Result<Vec<Verdict>, ReplayError> {
    let patience = patience.into();
    let mut out: Vec<Verdict> = Vec::with_capacity(jobs.len());
    while out.len() < jobs.len() {
        let start = out.len();
        let primes = earlier_steps(jobs, &out, start);
        let timed_out = run_from(subject, jobs, &primes, start, patience.row, tick, &mut out)?;
        if let (Some(at), Some(confirm)) = (timed_out, patience.hang) {
            // Asked alone on a fresh child (after its session's earlier steps), with
            // the longer timeout; its first answer is dropped.
            out.truncate(at);
            let primes = earlier_steps(jobs, &out, at);
            if run_from(subject, &jobs[..=at], &primes, at, confirm, &|| {}, &mut out)?.is_some() {
                let j = &jobs[at];
                return Err(ReplayError::Hang(Box::new(Hang {
                    side: subject.label.clone(),
                    command: j.command.clone(),
                    cwd: j.cwd.clone(),
                    row: None,
                    waited: (patience.row, confirm),
                })));
            }
        }
    }
    Ok(out)
}

/// The steps before `start` of `jobs[start]`'s session that were answered: what a
/// fresh child must replay before it can answer the rest of that session.
fn earlier_steps(jobs: &[Job], answered: &[Verdict], start: usize) -> Vec<usize> {
    let Some(session) = jobs.get(start).and_then(|j| j.session.as_deref()) else { return Vec::new() };
    (0..start).filter(|&i| jobs[i].session.as_deref() == Some(session) && !answered[i].is_error()).collect()
}

/// How long a child that has answered every line may take to exit on its own.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Waits up to `grace` for `child` to exit.
fn exit_within(child: &mut std::process::Child, grace: Duration) {
    let t = std::time::Instant::now();
    while t.elapsed() < grace {
        match child.try_wait() {
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            _ => return,
        }
    }
}

/// Runs `primes` (answers dropped), then jobs[start..], in one child until all are
/// answered or one fails; the failing row gets an error verdict so the caller's
/// loop resumes after it. Returns the index of that row when it failed by timing
/// out (not by a dead child or a bad line).
fn run_from(
    subject: &Subject,
    jobs: &[Job],
    primes: &[usize],
    start: usize,
    timeout: Duration,
    tick: &(dyn Fn() + Sync),
    out: &mut Vec<Verdict>,
) -> Result<Option<usize>, ReplayError> {
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
    let mut timed_out = None;
    // A timeout, a dead child or a session that could not be replayed: no grace.
    let mut failed = false;
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
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out = Some(out.len());
                    (Verdict::error(format!("no answer within {} s", timeout.as_secs_f64())), true)
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => (Verdict::error("the classifier exited before answering this line"), true),
            };
            if n < primes.len() {
                if fatal || answer.is_error() {
                    // The session's files cannot be rebuilt: the step to resume at has no answer.
                    out.push(Verdict::error(format!("a fresh classifier could not replay this session's earlier steps ({})", answer.reason)));
                    tick();
                    failed = true;
                    break;
                }
                continue;
            }
            out.push(answer);
            tick();
            if fatal {
                failed = true;
                break;
            }
        }
        // Done: every line was written, so stdin is (about to be) closed and the child
        // exits on its own; a moment's grace lets it run its exit handlers (the
        // instrumented tiergate of `cargo xtask mutants --unreached` writes its coverage
        // then). Failed, or still running after the grace: end it, so both threads see
        // EOF / EPIPE and return.
        if !failed {
            exit_within(&mut child, EXIT_GRACE);
        }
        let _ = child.kill();
        let _ = child.wait();
    });
    Ok(timed_out)
}
