//! What a unit writes, for later units on the same line (`Engine::read`) and for
//! callers that keep a session's files (`lanes::Overlay`): the text a unit prints
//! (`visible_output`, also what the next pipeline stage reads) and the text of each
//! recorded write where the command line shows it. It decides no tier.

use super::Eng;
use crate::call::Invocation;
use crate::lanes::resolve;
use crate::parse;
use crate::parse::model::Redirect;
use crate::rules::vocab::input::{self, Source};

/// A redirect write waiting for its unit: the unit's trace slot, the write's
/// entry in `Eng::writes`, whether it takes standard output, whether it appends.
pub(super) struct Mark {
    slot: usize,
    entry: usize,
    stdout: bool,
    append: bool,
}

impl Eng<'_> {
    /// Marks the redirect writes just recorded — `check_write` records one entry per
    /// write, so they are the last ones, one per `Redirect::Write` — for the unit
    /// about to take the next trace slot, which `simple` reserves next.
    #[inline(never)]
    pub(super) fn mark_redirect_writes(&mut self, redirects: &[Redirect]) {
        let Some(writes) = &self.writes else { return };
        let modes: Vec<(bool, bool)> = redirects
            .iter()
            .filter_map(|r| match r {
                Redirect::Write { fd, append, .. } => Some((fd.is_none_or(|f| f == 1), *append)),
                _ => None,
            })
            .collect();
        let (slot, first) = (self.trace.len(), writes.len().saturating_sub(modes.len()));
        self.marks.extend(modes.into_iter().enumerate().map(|(i, (stdout, append))| Mark { slot, entry: first + i, stdout, append }));
    }

    /// The text of the writes of the unit in `slot` (filled in when the unit is
    /// recorded, so `simple`'s frame, which every nesting level pays for, does not
    /// grow) where its command line shows it: a redirect of its standard output gets what it prints (`cat <<EOF > f`,
    /// `echo … >> f`), and `tee`/`sponge` write what they read (`… | tee -a f`).
    /// Other writes keep no text.
    #[inline(never)]
    pub(super) fn fill_writes(&mut self, slot: usize, inv: Option<&Invocation>) {
        let tees = inv.is_some_and(|i| matches!(i.program.as_str(), "tee" | "sponge"));
        if !tees && !self.marks.iter().any(|m| m.slot == slot) {
            return;
        }
        let Some(writes) = &mut self.writes else { return };
        let printed = inv.and_then(written_text);
        for m in self.marks.iter().filter(|m| m.slot == slot) {
            if let Some(w) = writes.get_mut(m.entry) {
                w.text = if m.stdout { printed.clone() } else { None };
                w.append = m.append;
            }
        }
        self.marks.retain(|m| m.slot != slot);
        let Some(inv) = inv.filter(|i| matches!(i.program.as_str(), "tee" | "sponge")) else { return };
        let read = match input::of(inv) {
            Source::Shown { text, expands, heredoc } if !(expands && text.contains(['$', '`'])) => {
                Some(if heredoc { text.to_owned() } else { format!("{text}\n") })
            }
            _ => None,
        };
        let appends = inv.program == "tee" && inv.args.iter().any(|a| a.text == "-a" || a.text == "--append");
        // Each operand's write is the last one recorded for its path (tee ran last).
        for a in inv.args.iter().filter(|a| a.exact && !a.is_flag()) {
            let Some(path) = resolve(&a.text, inv.cwd.as_deref().or(self.root), self.home) else { continue };
            if let Some(w) = writes.iter_mut().rev().find(|w| w.path.as_deref() == Some(path.as_str())) {
                w.text = read.clone();
                w.append = appends;
            }
        }
    }
}

/// What a stage writes to stdout, when the command line alone says it exactly:
/// `echo`/`printf` of literal words, `cat` of a heredoc or here-string.
pub(super) fn visible_output(inv: &Invocation) -> Option<String> {
    // Wrappers pass output through unchanged, except xargs, whose echo depends on its input.
    if !inv.exact() || inv.wrappers.contains(&"xargs") {
        return None;
    }
    match inv.program.as_str() {
        "echo" => {
            let mut words = inv.args.iter().map(|a| a.text.as_str()).peekable();
            let mut escapes = false;
            while let Some(f) = words.peek().filter(|w| matches!(**w, "-n" | "-e" | "-E" | "-ne" | "-en")) {
                escapes |= f.contains('e');
                words.next();
            }
            let text = words.collect::<Vec<_>>().join(" ");
            Some(if escapes { parse::ansi_c(&text) } else { text })
        }
        "printf" => {
            let (format, rest) = inv.args.split_first()?;
            let format = parse::ansi_c(&format.text);
            if rest.is_empty() {
                return Some(format);
            }
            // `printf '%s\n' a b`: the format is used again for every argument, so
            // each one is followed by what follows `%s` — a newline, or nothing at
            // all (`printf '%s' a b` prints `ab`). Only blanks after `%s` are
            // modelled; anything fancier is not guessed.
            let after = format.strip_prefix("%s").filter(|s| s.trim().is_empty())?;
            Some(rest.iter().map(|a| format!("{}{after}", a.text)).collect())
        }
        "cat" if inv.args.is_empty() => input::shown(inv).map(str::to_owned),
        _ => None,
    }
}

/// What a unit prints when it is redirected to a file: `visible_output`, with the
/// newline `echo` ends with (`printf`'s own are in its output), and nothing for a
/// heredoc the shell would expand (`$X`, `` `…` `` inside an unquoted-delimiter body).
fn written_text(inv: &Invocation) -> Option<String> {
    if let Source::Shown { text, expands: true, .. } = input::of(inv) {
        if text.contains(['$', '`']) {
            return None;
        }
    }
    let mut text = visible_output(inv)?;
    let ends_line = match inv.program.as_str() {
        "echo" => !inv.args.iter().take_while(|a| matches!(a.text.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en")).any(|a| a.text.contains('n')),
        _ => false,
    };
    if ends_line {
        text.push('\n');
    }
    Some(text)
}
