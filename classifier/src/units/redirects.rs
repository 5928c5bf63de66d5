//! A unit's redirections and the command substitutions in its words: the
//! bodies that run when they expand are classified as units of their own, the
//! files a unit writes go through the protect policy (`writes::check_write`),
//! and what feeds its standard input is read off for the families.

use super::{take_arg, Eng};
use crate::call::{Arg, Secret, Stdin};
use crate::parse::model::{Redirect, Word};
use crate::rules::vocab::writes;
use crate::rules::{self, Cx, Hit};
use crate::verdict::Span;

impl Eng<'_> {
    /// Classifies the substitutions a word runs; returns their hits and the secret
    /// data the word's value carries (what the bodies write out, the variables it expands).
    pub(super) fn word_subs(&mut self, w: &Word, cwd: Option<&str>) -> (Vec<Hit>, Secret) {
        let mut hits = Vec::new();
        let taint = self.word_subs_into(w, cwd, &mut hits);
        (hits, taint)
    }

    /// [`Eng::word_subs`], adding the hits to `hits`: on the engine's recursion
    /// path (a word's substitution body is classified inside it), so it returns
    /// nothing large and its caller keeps no copy.
    pub(super) fn word_subs_into(&mut self, w: &Word, cwd: Option<&str>, hits: &mut Vec<Hit>) -> Secret {
        let mut taint = w.secret;
        for body in &w.subs {
            let outer = self.capture_begin();
            let at = hits.len();
            hits.extend(self.source(body, cwd));
            taint = taint.max(self.capture_end(outer));
            for hit in &mut hits[at..] {
                hit.span = w.span;
            }
        }
        if w.opaque {
            hits.push(Hit { rule: &rules::PARSE_OPAQUE, detail: None, span: w.span });
        }
        if !w.exact {
            taint = taint.max(self.var_taint(&w.text));
        }
        taint
    }

    /// Classifies substitutions in redirections and returns the write targets,
    /// stdin and the secret data stdin carries (`< ~/.ssh/id_rsa`, `<<< "$TOKEN"`).
    pub(super) fn redirects(&mut self, redirects: &mut [Redirect], cwd: Option<&str>, span: Span) -> (Vec<Hit>, (Vec<Arg>, Stdin, Secret)) {
        let mut hits = Vec::new();
        let mut writes = Vec::new();
        let mut stdin = Stdin::None;
        let mut taint = Secret::None;
        for r in redirects {
            match r {
                Redirect::Read { fd, target } => {
                    hits.extend(self.word_subs(target, cwd).0);
                    if fd.is_none_or(|f| f == 0) {
                        if rules::flow::secrets::secret_path(&target.text) {
                            taint = Secret::Read;
                        }
                        stdin = Stdin::File(std::mem::take(&mut target.text));
                    }
                }
                Redirect::Write { target, .. } => {
                    let (h, secret) = self.word_subs(target, cwd);
                    hits.extend(h);
                    writes.push(take_arg(target, secret));
                }
                Redirect::Dup => {}
                Redirect::Heredoc { body, expands, subs } => {
                    for s in subs.iter() {
                        let outer = self.capture_begin();
                        let mut h = self.source(s, cwd);
                        taint = taint.max(self.capture_end(outer));
                        for hit in &mut h {
                            hit.span = span;
                        }
                        hits.extend(h);
                    }
                    if *expands {
                        taint = taint.max(self.var_taint(body));
                    }
                    stdin = Stdin::Heredoc { body: std::mem::take(body), expands: *expands };
                }
                Redirect::HereString { word } => {
                    let (h, t) = self.word_subs(word, cwd);
                    hits.extend(h);
                    taint = taint.max(t);
                    stdin = Stdin::HereString(std::mem::take(&mut word.text));
                }
                Redirect::Process { body } => {
                    let mut inner = cwd.map(str::to_owned);
                    let outer = self.capture_begin();
                    hits.extend(self.list(body, &mut inner));
                    taint = taint.max(self.capture_end(outer));
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
        (hits, (writes, stdin, taint))
    }
}
