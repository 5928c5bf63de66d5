//! The wall-clock net around classification without a worker thread: before
//! classifying on the main thread the hook arms a one-shot `ITIMER_REAL` timer and
//! hands this module the answer to give if it fires (already rendered for the
//! agent: ask, `hook.timeout`) and that answer's audit-log line. If the budget
//! passes, the `SIGALRM` handler writes both with async-signal-safe calls only
//! (`write`, `open`, `flock`, `fstat`, `stat`, `close`, `_exit`) and ends the
//! process. Disarming (drop of [`Net`]) stops the timer before any real answer is
//! written, so the two can never both be emitted.
//!
//! Used for single-call events; events with several calls keep the worker thread
//! (`hook/bash.rs`), where a timeout must combine with the calls already judged.
//! It decides nothing: the prepared answer is always an ask.

use std::ffi::CString;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::Duration;

/// What the handler emits: stdout, stderr, exit code, and the spool line.
struct Prepared {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    code: i32,
    spool: Option<(CString, Vec<u8>)>,
}

static ARMED: AtomicPtr<Prepared> = AtomicPtr::new(std::ptr::null_mut());

/// An armed timer; dropping it disarms.
pub struct Net(());

/// Arms the net for `budget`. `Err` when the timer or handler cannot be set: the
/// caller then classifies on a worker thread instead.
pub fn arm(budget: Duration, out: &super::agents::Out, spool: Option<(std::path::PathBuf, Vec<u8>)>) -> Result<Net, String> {
    let line = |t: &Option<String>| t.as_ref().map(|s| format!("{s}\n").into_bytes()).unwrap_or_default();
    let spool = match spool {
        Some((p, bytes)) => Some((CString::new(p.into_os_string().into_encoded_bytes()).map_err(|e| e.to_string())?, bytes)),
        None => None,
    };
    let p = Box::into_raw(Box::new(Prepared { stdout: line(&out.stdout), stderr: line(&out.stderr), code: i32::from(out.code), spool }));
    let old = ARMED.swap(p, Ordering::SeqCst);
    if !old.is_null() {
        // SAFETY: `old` came from Box::into_raw above and is no longer reachable.
        drop(unsafe { Box::from_raw(old) });
    }
    // SAFETY: plain libc calls with initialised structs; the handler only touches
    // the leaked `Prepared` through ARMED.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_alarm as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        if libc::sigaction(libc::SIGALRM, &sa, std::ptr::null_mut()) != 0 {
            disarm();
            return Err(std::io::Error::last_os_error().to_string());
        }
        let us = budget.as_micros().max(1);
        let it = libc::itimerval {
            it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
            it_value: libc::timeval { tv_sec: (us / 1_000_000) as libc::time_t, tv_usec: (us % 1_000_000) as libc::suseconds_t },
        };
        if libc::setitimer(libc::ITIMER_REAL, &it, std::ptr::null_mut()) != 0 {
            disarm();
            return Err(std::io::Error::last_os_error().to_string());
        }
    }
    Ok(Net(()))
}

fn disarm() {
    // SAFETY: a zero itimerval stops the timer.
    unsafe {
        let zero: libc::itimerval = std::mem::zeroed();
        libc::setitimer(libc::ITIMER_REAL, &zero, std::ptr::null_mut());
    }
    let p = ARMED.swap(std::ptr::null_mut(), Ordering::SeqCst);
    if !p.is_null() {
        // SAFETY: from Box::into_raw in `arm`; the timer is stopped, so the handler
        // cannot run any more and nothing else holds the pointer.
        drop(unsafe { Box::from_raw(p) });
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        disarm();
    }
}

fn write_all(fd: libc::c_int, mut b: &[u8]) {
    while !b.is_empty() {
        // SAFETY: a valid buffer and its length.
        let n = unsafe { libc::write(fd, b.as_ptr().cast(), b.len()) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        b = &b[n as usize..];
    }
}

/// The spool append of `spool.rs`, in async-signal-safe calls.
fn append_line(path: &CString, line: &[u8]) {
    for _ in 0..4 {
        // SAFETY: a NUL-terminated path; the descriptor is closed below.
        let fd = unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC, 0o600) };
        if fd < 0 {
            return;
        }
        // SAFETY: stat buffers are plain data filled by the kernel.
        let same = unsafe {
            let (mut a, mut b): (libc::stat, libc::stat) = (std::mem::zeroed(), std::mem::zeroed());
            libc::flock(fd, libc::LOCK_SH) == 0
                && libc::fstat(fd, &mut a) == 0
                && libc::stat(path.as_ptr(), &mut b) == 0
                && a.st_ino == b.st_ino
                && a.st_dev == b.st_dev
        };
        if same {
            write_all(fd, line);
        }
        // SAFETY: our descriptor.
        unsafe { libc::close(fd) };
        if same {
            return;
        }
    }
}

extern "C" fn on_alarm(_: libc::c_int) {
    let p = ARMED.load(Ordering::SeqCst);
    if p.is_null() {
        return;
    }
    // SAFETY: non-null means armed: the box stays alive until `disarm` stops the timer first.
    let a = unsafe { &*p };
    if let Some((path, line)) = &a.spool {
        append_line(path, line);
    }
    write_all(1, &a.stdout);
    write_all(2, &a.stderr);
    // SAFETY: ends the process without running destructors or atexit handlers.
    unsafe { libc::_exit(a.code) }
}
