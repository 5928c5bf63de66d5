//! The engine's part in the data flow of secrets: what secret data a command's
//! words and input carry (`call::Secret`), what variables set earlier on the
//! line hold, and what a substitution body writes out. It judges nothing:
//! `rules::flow::secrets` decides what a program that sends may be handed.

use super::{first_program, take_arg, Eng};
use crate::call::{Arg, Invocation, Secret};
use crate::parse::model::{Simple, Word};
use crate::rules::{self, Hit};

impl Eng<'_> {
    /// Starts keeping what a body's units write out (a substitution body, a
    /// heredoc's, a process substitution); returns the outer body's level for
    /// [`Eng::capture_end`]. Two calls around the walk rather than a closure: no
    /// frame is added to the recursion, which runs on small stacks.
    pub(super) fn capture_begin(&mut self) -> Secret {
        self.capturing += 1;
        std::mem::take(&mut self.emitted)
    }

    /// Ends [`Eng::capture_begin`]: the most secret data the body wrote out.
    pub(super) fn capture_end(&mut self, outer: Secret) -> Secret {
        self.capturing -= 1;
        std::mem::replace(&mut self.emitted, outer)
    }

    /// Classifies `<( )` bodies used as arguments; returns their programs (read
    /// before the walk takes the words' text) and the most secret data they write.
    #[inline(never)]
    pub(super) fn procsubs(&mut self, s: &mut Simple, cwd: Option<&str>, hits: &mut Vec<Hit>) -> (Vec<String>, Secret) {
        let mut programs = Vec::new();
        let outer = self.capture_begin();
        for l in &mut s.procsubs {
            programs.extend(l.pipelines.iter().filter_map(first_program));
            let mut inner = cwd.map(str::to_owned);
            hits.extend(self.list(l, &mut inner));
        }
        (programs, self.capture_end(outer))
    }

    /// A command of assignments only (`K=$(cat ~/.ssh/id_rsa)`): later words that
    /// expand `$K` carry what it holds.
    #[inline(never)]
    pub(super) fn assign_all(&mut self, assigns: &[Word], taints: &[Secret]) {
        for (w, taint) in assigns.iter().zip(taints) {
            self.set_var(&w.text, *taint);
        }
    }

    /// The unit's words as arguments, each with the secret data it carries (a
    /// `<( )` file argument carries what its body writes).
    #[inline(never)]
    pub(super) fn arguments(words: &mut [Word], taints: &[Secret], procsub: Secret) -> Vec<Arg> {
        let mut args: Vec<Arg> = words.iter_mut().zip(taints).map(|(w, taint)| take_arg(w, *taint)).collect();
        if procsub > Secret::None {
            for a in args.iter_mut().filter(|a| !a.exact && a.text == "/dev/fd/63") {
                a.secret = a.secret.max(procsub);
            }
        }
        args
    }

    /// The secret data the variables a word expands carry: what one set earlier on
    /// the line holds, else a credential when its name says it is one (`$GITHUB_TOKEN`).
    pub(super) fn var_taint(&self, text: &str) -> Secret {
        rules::flow::secrets::variables(text)
            .map(|name| match self.vars.iter().rev().find(|(n, _)| n == name) {
                Some((_, level)) => *level,
                None if rules::flow::secrets::secret_name(name) => Secret::Token,
                None => Secret::None,
            })
            .max()
            .unwrap_or_default()
    }

    /// Records what a `for NAME in …` loop or `read NAME` leaves in `NAME`.
    #[inline(never)]
    pub(super) fn bind(&mut self, name: &str, taint: Secret) {
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.to_owned(), taint));
    }

    /// Records what `NAME=value` (also `NAME+=value`) leaves in `NAME`.
    pub(super) fn set_var(&mut self, assignment: &str, taint: Secret) {
        let Some((name, _)) = assignment.split_once('=') else { return };
        self.bind(name.trim_end_matches('+'), taint);
    }

    /// Keeps the module search paths among `words` (`PYTHONPATH=src`) for every later
    /// program on the line. An earlier value is kept beside a new one (which may name
    /// it: `$PYTHONPATH:src`): reading more files is the safe side.
    pub(super) fn export_paths<'w>(&mut self, words: impl Iterator<Item = &'w str>) {
        for w in words {
            if rules::vocab::vars::search_path_set(w).is_some() {
                self.exported_paths.push(w.to_owned());
            }
        }
    }

    /// A unit's part in the data flow: what builtins store (`export K=…`, `read K <<<…`),
    /// and, inside a substitution body, what the unit writes out.
    pub(super) fn note_secrets(&mut self, inv: &Invocation) {
        match inv.program.as_str() {
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                for a in inv.args.iter().filter(|a| a.text.contains('=') && !a.is_flag()) {
                    self.set_var(&a.text, a.secret);
                }
                self.export_paths(inv.words());
            }
            "read" => {
                for a in inv.args.iter().filter(|a| !a.is_flag() && a.exact) {
                    self.bind(&a.text, inv.secret_input);
                }
            }
            _ => {}
        }
        if self.capturing > 0 {
            self.emitted = self.emitted.max(rules::flow::secrets::emits(inv));
        }
    }
}
