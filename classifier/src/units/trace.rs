//! What the trace keeps of each unit (`TraceUnit`), for `explain` and for the
//! key a nonce grant is bound to (`Trace::signature`).
//!
//! The key binds the exact command: every unit's words in order, de-quoted,
//! the wrappers' words and option values where they stand, whether each word
//! was an unresolved expansion, the environment assignments, every
//! redirection (fd, operator, target or body) and the working directory.
//! Nothing is sorted or dropped, so `kubectl --context staging -n prod …` and
//! `kubectl -n staging --context prod …` are two keys; each field is written
//! with its length, so no two different units encode alike. It decides no tier.

use std::fmt::Write;

use super::Eng;
use crate::call::{Arg, Invocation};
use crate::parse::model::{Redirect, Word};
use crate::rules::Hit;

/// One classified unit, for `explain` and signatures.
#[derive(Clone, Debug)]
pub struct TraceUnit {
    pub depth: u32,
    pub program: String,
    pub args: Vec<String>,
    pub wrappers: Vec<&'static str>,
    pub cwd: Option<String>,
    /// Files this unit's redirections write (`> out.txt`), as written.
    pub writes: Vec<String>,
    pub hits: Vec<Hit>,
    /// What a grant is bound to for this unit (see the module docs).
    pub key: String,
}

impl TraceUnit {
    /// The slot a unit holds in the trace until it is finished.
    pub(super) fn reserved(depth: u32) -> TraceUnit {
        TraceUnit { depth, program: String::new(), args: Vec::new(), wrappers: Vec::new(), cwd: None, writes: Vec::new(), hits: Vec::new(), key: String::new() }
    }
}

/// What the trace records of a unit: its program, the words as written (the
/// wrappers' own words, the program word, its arguments), the wrappers peeled to
/// reach it and its working directory.
struct Unit<'a> {
    program: &'a str,
    /// Wrapper words before the program word (`sudo -u bob`).
    prefix: &'a [Arg],
    /// The program word as written, de-quoted, and whether it is exactly that.
    word: (&'a str, bool),
    args: &'a [Arg],
    wrappers: &'a [&'static str],
    cwd: Option<&'a str>,
}

/// What the trace keeps of a unit's assignments and redirections: their part of
/// the key, read off the syntax before the walk takes the words, and the files
/// the unit writes (for `explain`). `None` for a verdict-only run; boxed, so the
/// frame of `simple`, which every nesting level pays for, holds one pointer.
pub(super) type Bound = Option<Box<Parts>>;

#[derive(Default)]
pub(super) struct Parts {
    assigns: String,
    redirects: String,
    pub writes: Vec<String>,
}

impl Parts {
    #[inline(never)]
    pub(super) fn read(assigns: &[Word], redirects: &[Redirect]) -> Bound {
        let mut b = Box::<Parts>::default();
        for w in assigns {
            word(&mut b.assigns, &w.text, w.exact, w.quoted);
        }
        for r in redirects {
            match r {
                Redirect::Read { fd, target } => {
                    let _ = write!(b.redirects, "{}<", fd.unwrap_or(0));
                    word(&mut b.redirects, &target.text, target.exact, target.quoted);
                }
                Redirect::Write { fd, target, append } => {
                    let _ = write!(b.redirects, "{}{}", fd.unwrap_or(1), if *append { ">>" } else { ">" });
                    word(&mut b.redirects, &target.text, target.exact, target.quoted);
                }
                Redirect::Dup => b.redirects.push('&'),
                Redirect::Heredoc { body, expands, .. } => {
                    b.redirects.push_str(if *expands { "<<" } else { "<<'" });
                    word(&mut b.redirects, body, true, false);
                }
                Redirect::HereString { word: w } => {
                    b.redirects.push_str("<<<");
                    word(&mut b.redirects, &w.text, w.exact, w.quoted);
                }
                // The body's own units follow this one in the trace.
                Redirect::Process { .. } => b.redirects.push_str("()"),
            }
        }
        Some(b)
    }
}

/// Appends one word: `=` for a word that is exactly its text, `?` for one with
/// an unresolved expansion (`$X`, a glob), `"` for a quoted one (`"$X"` is not
/// split, `$X` is), then its length and text.
fn word(out: &mut String, text: &str, exact: bool, quoted: bool) {
    let mark = match (exact, quoted) {
        (true, _) => '=',
        (false, false) => '?',
        (false, true) => '"',
    };
    let _ = write!(out, "{mark}{}:{text}", text.len());
}

impl Eng<'_> {
    /// `record` for a dispatched unit: `prefix` is the wrapper words peeled to reach it.
    /// (The `Unit` is built here, not in `simple`, whose frame every nesting level pays for.)
    #[inline(never)]
    pub(super) fn record_invocation(
        &mut self,
        slot: usize,
        (inv, prefix): (&Invocation, &[Arg]),
        bound: Bound,
        redirects: (Vec<Hit>, &[Hit]),
        notes: Vec<Hit>,
        own: &[Hit],
    ) {
        self.fill_writes(slot, Some(inv));
        let unit = Unit { program: &inv.program, prefix, word: (&inv.program_path, true), args: &inv.args, wrappers: &inv.wrappers, cwd: inv.cwd.as_deref() };
        self.record(slot, unit, bound, redirects, notes, own);
    }

    /// `record` for a unit that reached no program (a computed name, a wrapper
    /// that runs a shell string or nothing): its words are all it has.
    #[inline(never)]
    pub(super) fn record_words(
        &mut self,
        slot: usize,
        (words, wrappers, cwd): (&[Arg], &[&'static str], Option<&str>),
        bound: Bound,
        redirects: (Vec<Hit>, &[Hit]),
        notes: Vec<Hit>,
        own: &[Hit],
    ) {
        self.fill_writes(slot, None);
        let unit = Unit { program: &words[0].text, prefix: &[], word: (&words[0].text, words[0].exact), args: &words[1..], wrappers, cwd };
        self.record(slot, unit, bound, redirects, notes, own);
    }

    /// Fills the trace slot of a finished unit and judges its self-defence (in
    /// every run, traced or not: one pass): the whole `TraceUnit` when tracing,
    /// else only its program (function callees are read from it). Out of `simple`, whose stack frame every nesting level
    /// pays for (the worst cases run on a 512 KiB stack). `redirects` is the
    /// unit's redirect hits, as a copy for the trace and in place in its hits.
    #[inline(never)]
    fn record(&mut self, slot: usize, unit: Unit<'_>, bound: Bound, redirects: (Vec<Hit>, &[Hit]), notes: Vec<Hit>, own: &[Hit]) {
        self.defend(slot, unit.program, unit.args.iter().map(|a| a.text.as_str()), &[redirects.1, own]);
        let Some(bound) = bound.filter(|_| self.keep_trace) else {
            if self.in_function > 0 {
                self.trace[slot].program.push_str(unit.program);
            }
            return;
        };
        let mut shown = redirects.0;
        shown.extend(notes);
        shown.extend(own.iter().cloned());
        let mut key = String::new();
        let _ = write!(key, "{} ", self.depth);
        match unit.cwd {
            Some(cwd) => word(&mut key, cwd, true, false),
            None => key.push('-'),
        }
        let _ = write!(key, " a{}:{} w", bound.assigns.len(), bound.assigns);
        for a in unit.prefix {
            word(&mut key, &a.text, a.exact, a.quoted);
        }
        word(&mut key, unit.word.0, unit.word.1, false);
        for a in unit.args {
            word(&mut key, &a.text, a.exact, a.quoted);
        }
        let _ = write!(key, " r{}:{}", bound.redirects.len(), bound.redirects);
        self.trace[slot] = TraceUnit {
            depth: self.depth,
            program: unit.program.to_owned(),
            args: unit.args.iter().map(|a| a.text.clone()).collect(),
            wrappers: unit.wrappers.to_vec(),
            cwd: unit.cwd.map(str::to_owned),
            writes: bound.writes,
            hits: shown,
            key,
        };
    }
}

#[cfg(test)]
mod tests {
    use crate::{explain, NoFiles, Request};

    fn key(cmd: &str) -> String {
        explain::trace(&Request::new(cmd).with_cwd("/w").with_home("/h"), &NoFiles).signature()
    }

    #[test]
    fn the_key_binds_every_part_of_the_command() {
        // Pairs that run differently, each pair differing in one part only.
        for (a, b) in [
            ("kubectl --context staging -n prod delete pod web", "kubectl -n staging --context prod delete pod web"),
            ("sudo -u alice rm x", "sudo -u bob rm x"),
            ("env A=1 make", "env A=2 make"),
            ("A=1 make", "A=2 make"),
            ("echo x > f", "echo x >> f"),
            ("echo x > f", "echo x 2> f"),
            ("psql < a.sql", "psql < b.sql"),
            ("psql <<'E'\nDROP TABLE a\nE", "psql <<'E'\nDROP TABLE b\nE"),
            ("rm $X", "rm \"$X\""),
            ("rm $X", "rm '$X'"),
            ("rm *", "rm '*'"),
            ("rm 'a b'", "rm a b"),
            ("cd /a && make", "cd /b && make"),
            ("ls -la", "ls -al"),
        ] {
            assert_ne!(key(a), key(b), "`{a}` and `{b}` share a key");
        }
        // Quoting that bash removes does not change what runs.
        assert_eq!(key("'rm' -rf \"x\""), key("rm -rf x"));
        assert_eq!(key("echo hi"), key("echo hi"));
    }
}
