//! The `tiergate` binary: everything it does is in the library (`lib.rs`).
// Our own C `main` on Unix (see `main` below): std's runtime set-up is skipped.
// Not in a unit-test build, whose `main` is the test harness's.
#![cfg_attr(all(unix, not(test)), no_main)]

use std::process::ExitCode;

/// The process entry on Unix, instead of std's `lang_start`. That set-up reads
/// `/proc/self/maps` (`pthread_getattr_np`, to place a guard page for the main
/// thread's stack-overflow message) and installs an alternate signal stack: about
/// 19 syscalls and 110k instructions, a tenth of a hook call (issue 14,
/// docs/decisions/0005-hook-startup.md). What it did that we rely on is done here:
/// SIGPIPE ignored (a closed pipe is an `EPIPE` error, as every subcommand expects)
/// and a panic escaping a subcommand ends the process with exit 101, not an abort.
/// std still finds the arguments (glibc passes them to its `.init_array` hook) and
/// `process::exit` flushes stdout. A stack overflow now ends with SIGSEGV instead of
/// std's message and SIGABRT; either way no answer, and the engine's depth limits
/// exist so that it cannot happen.
#[cfg(all(unix, not(test)))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: setting a signal's disposition to SIG_IGN before any thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let code = match std::panic::catch_unwind(run) {
        // `ExitCode` offers no stable way to its number but equality with `From<u8>`.
        Ok(code) => (0..=u8::MAX).find(|n| ExitCode::from(*n) == code).map_or(1, i32::from),
        Err(_) => 101,
    };
    std::process::exit(code)
}

#[cfg(any(not(unix), test))]
fn main() -> ExitCode {
    run()
}

fn run() -> ExitCode {
    tiergate::run(std::env::args().skip(1).collect())
}
