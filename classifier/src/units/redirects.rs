//! A unit's redirections and the command substitutions in its words: the
//! bodies that run when they expand are classified as units of their own, the
//! files a unit writes go through the protect policy (`writes::check_write`),
//! and what feeds its standard input is read off for the families.

use super::{take_arg, Eng};
use crate::call::{Arg, Stdin};
use crate::parse::model::{Redirect, Word};
use crate::rules::vocab::writes;
use crate::rules::{self, Cx, Hit};
use crate::verdict::Span;

impl Eng<'_> {
    pub(super) fn word_subs(&mut self, w: &Word, cwd: Option<&str>) -> Vec<Hit> {
        let mut hits = Vec::new();
        for body in &w.subs {
            let mut h = self.source(body, cwd);
            for hit in &mut h {
                hit.span = w.span;
            }
            hits.extend(h);
        }
        if w.opaque {
            hits.push(Hit { rule: &rules::PARSE_OPAQUE, detail: None, span: w.span });
        }
        hits
    }

    /// Classifies substitutions in redirections and returns the write targets and stdin.
    pub(super) fn redirects(&mut self, redirects: &mut [Redirect], cwd: Option<&str>, span: Span) -> (Vec<Hit>, (Vec<Arg>, Stdin)) {
        let mut hits = Vec::new();
        let mut writes = Vec::new();
        let mut stdin = Stdin::None;
        for r in redirects {
            match r {
                Redirect::Read { fd, target } => {
                    hits.extend(self.word_subs(target, cwd));
                    if fd.is_none_or(|f| f == 0) {
                        stdin = Stdin::File(std::mem::take(&mut target.text));
                    }
                }
                Redirect::Write { target, .. } => {
                    hits.extend(self.word_subs(target, cwd));
                    writes.push(take_arg(target));
                }
                Redirect::Dup => {}
                Redirect::Heredoc { body, expands, subs } => {
                    for s in subs {
                        let mut h = self.source(s, cwd);
                        for hit in &mut h {
                            hit.span = span;
                        }
                        hits.extend(h);
                    }
                    stdin = Stdin::Heredoc { body: std::mem::take(body), expands: *expands };
                }
                Redirect::HereString { word } => {
                    hits.extend(self.word_subs(word, cwd));
                    stdin = Stdin::HereString(std::mem::take(&mut word.text));
                }
                Redirect::Process { body } => {
                    let mut inner = cwd.map(str::to_owned);
                    hits.extend(self.list(body, &mut inner));
                }
            }
        }
        if !writes.is_empty() {
            let mut cx = Cx::new(self, span);
            for w in &writes {
                writes::check_write(&mut cx, w, cwd);
            }
            hits.extend(cx.hits);
        }
        (hits, (writes, stdin))
    }
}
