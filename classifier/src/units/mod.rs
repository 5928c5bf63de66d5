//! The engine: walks the parsed model, turns every executed piece into a unit
//! (pipeline stages, list items, group bodies, substitution bodies, wrapper
//! targets, shell payloads), runs the owning family on each and collects hits.
//!
//! It decides no tiers itself beyond the engine rules (parse, limits, wrappers,
//! default); `combine.rs` picks the verdict from the hits.

use crate::call::{Arg, Invocation, Secret, Stdin};
use crate::lanes::{resolve, FileSource, Written};
use crate::limits::{MAX_DEPTH, MAX_PARSED_BYTES, MAX_UNITS};
use crate::parse::model::{List, Pipeline, Simple, Stage, Word};
use crate::parse::{self, ParseFailure};
use crate::protect::Protected;
use crate::rules::{self, flow, shell, Cx, Hit};
use crate::verdict::Span;
use crate::wrappers::{self, Peeled};

mod engine;
mod redirects;
mod secrets;
mod target;
mod trace;
mod writes;

use target::Target;
pub use trace::TraceUnit;
use trace::{Bound, Parts};
use writes::visible_output;

pub struct Eng<'f> {
    files: &'f dyn FileSource,
    home: Option<&'f str>,
    root: Option<&'f str>,
    protect: Protected,
    depth: u32,
    units: usize,
    parsed_bytes: usize,
    /// Functions defined so far, with the programs their bodies call.
    functions: Vec<(String, Vec<String>)>,
    /// How many function bodies the walk is inside (their units' programs are kept).
    in_function: usize,
    /// One entry per unit, in command order. Without `keep_trace` only `program` is
    /// filled (function bodies' callees are read from it).
    pub trace: Vec<TraceUnit>,
    /// False for a verdict-only run (`classify`, `batch`, the hook in ask mode): no
    /// trace text is built.
    keep_trace: bool,
    /// Self-defence hits, judged as each unit is made, with the trace slot of their
    /// unit, so they join the hits in unit order (`explain::defended`).
    pub defended: Vec<(usize, Hit)>,
    /// Variables set earlier on the command line (`K=$(cat ~/.ssh/id_rsa)`), with the
    /// secret data they carry (`Secret::None` for a literal: `TOKEN=abc` is not a secret read).
    vars: Vec<(String, Secret)>,
    /// Module search paths (`PYTHONPATH=…`, `vocab::vars::SEARCH_PATHS`) set for the
    /// rest of the line (`export`, a bare assignment), and those of the unit being
    /// judged (its prefix, its wrappers'), which what it runs inherits: the
    /// invocations' `search_paths`.
    exported_paths: Vec<String>,
    unit_paths: Vec<String>,
    /// While a substitution body (or a heredoc's, a process substitution's) is
    /// classified: the most secret data its units write out (`rules::flow::secrets::emits`).
    emitted: Secret,
    /// How many such bodies the walk is inside (outside them, `emitted` is not kept).
    capturing: u32,
    /// What the command writes, in order: one entry per `vocab::writes::check_write`,
    /// the text filled in where the unit shows it. Kept for every command (a later
    /// unit on the line reads what an earlier one wrote: `Engine::read`), and handed
    /// to a caller that asks (`recording`).
    pub writes: Option<Vec<Written>>,
    /// This command's redirect writes waiting for their unit's text.
    marks: Vec<writes::Mark>,
    /// What the next unit inherits from the unit that runs it (`Engine::argv_inheriting`),
    /// taken by that unit alone.
    inherited: Option<Inherited>,
    /// The child that inherited a unit's input, with that unit's depth: the
    /// pipeline judges what a stage does with its input by it (`curl … | uv run
    /// python` runs fetched code as `curl … | python3` does).
    handed: Option<(u32, Invocation)>,
    /// The number of the unit that made each entry of `writes` (`units` when it began).
    write_units: Vec<usize>,
    /// The number of the unit whose redirections or families run now: a file
    /// written by a unit numbered below it was written earlier on the line.
    judging: usize,
}

/// A runner's input as its child sees it (`uv run python <<EOF`).
pub(crate) struct Inherited {
    pub stdin: Stdin,
    pub piped: bool,
    pub secret: Secret,
}

impl<'f> Eng<'f> {
    pub fn new(files: &'f dyn FileSource, home: Option<&'f str>, root: Option<&'f str>) -> Eng<'f> {
        Eng {
            files,
            home,
            root,
            protect: Protected::default(),
            depth: 0,
            units: 0,
            parsed_bytes: 0,
            functions: Vec::new(),
            in_function: 0,
            trace: Vec::new(),
            keep_trace: true,
            defended: Vec::new(),
            vars: Vec::new(),
            exported_paths: Vec::new(),
            unit_paths: Vec::new(),
            emitted: Secret::None,
            capturing: 0,
            writes: Some(Vec::new()),
            marks: Vec::new(),
            inherited: None,
            handed: None,
            write_units: Vec::new(),
            judging: 0,
        }
    }

    /// Also hand the caller what the command writes (`Eng::writes`, kept for every
    /// command: this starts it afresh). (In place: an engine moved once more is one
    /// more copy on the stack the worst cases measure.)
    pub fn record_writes(&mut self) {
        self.writes = Some(Vec::new());
        self.write_units.clear();
    }

    /// A verdict-only run: no trace kept (see `keep_trace`).
    pub fn verdict_only(self) -> Eng<'f> {
        Eng { keep_trace: false, ..self }
    }

    /// `rules::tiergate::self_defence` for the unit in `slot`, whichever family (if
    /// any) saw it, unless one of its own hits (`own`) already is that rule: a
    /// program path the dispatcher reads as a script (`./target/release/tiergate
    /// approve X`) still cannot approve itself, and no unit may name the store. (A
    /// unit whose program word is a wrapper tiergate could not peel, `sudo --odd
    /// tiergate approve X`, is judged by its program word and stays T3
    /// `wrapper.unknown-option`.)
    fn defend<'a>(&mut self, slot: usize, program: &'a str, args: impl Iterator<Item = &'a str> + Clone, own: &[&[Hit]]) {
        let Some((rule, detail)) = rules::tiergate::self_defence(program, args, &self.protect) else { return };
        if own.iter().flat_map(|h| h.iter()).any(|h| std::ptr::eq(h.rule, rule)) {
            return;
        }
        self.defended.push((slot, Hit { rule, detail: Some(detail), span: Span::default() }));
    }

    /// The protected-path configuration the request carries.
    pub fn protecting(self, protect: Protected) -> Eng<'f> {
        Eng { protect, ..self }
    }

    /// Classifies shell source run in `cwd`; returns every hit.
    pub fn source(&mut self, src: &str, cwd: Option<&str>) -> Vec<Hit> {
        if self.depth >= MAX_DEPTH {
            return vec![engine_hit(&rules::LIMITS_DEPTH)];
        }
        self.parsed_bytes += src.len();
        if self.parsed_bytes > MAX_PARSED_BYTES {
            return vec![engine_hit(&rules::LIMITS_SIZE)];
        }
        let mut list = match parse::parse(src) {
            Ok(l) => l,
            Err(ParseFailure::TooDeep) => return vec![engine_hit(&rules::LIMITS_NESTING)],
            Err(ParseFailure::Syntax(e)) => {
                let rule = &rules::PARSE_UNSUPPORTED;
                return vec![Hit { rule, detail: Some(format!("{} ({e})", rule.reason)), span: Span { start: 0, end: src.len() } }];
            }
        };
        self.depth += 1;
        let mut cwd = cwd.map(str::to_owned);
        let hits = self.list(&mut list, &mut cwd);
        self.depth -= 1;
        hits
    }

    /// The walk takes each word's text out of the model (`take_arg`) instead of
    /// copying it: nothing reads a word's text after its unit is built.
    fn list(&mut self, list: &mut List, cwd: &mut Option<String>) -> Vec<Hit> {
        let mut hits = Vec::new();
        for p in &mut list.pipelines {
            append(&mut hits, self.pipeline(p, cwd));
        }
        hits
    }

    fn pipeline(&mut self, p: &mut Pipeline, cwd: &mut Option<String>) -> Vec<Hit> {
        let mut hits = Vec::new();
        let stages = p.stages.len();
        let mut invs: Vec<Option<Invocation>> = Vec::with_capacity(stages);
        let mut prev: Option<(String, Option<String>)> = None;
        let lone = stages == 1;
        for (at, stage) in p.stages.iter_mut().enumerate() {
            match stage {
                Stage::Simple(s) => {
                    let (h, inv) = self.simple(s, cwd.as_deref(), prev.take());
                    append(&mut hits, h);
                    if let Some(inv) = &inv {
                        if lone && matches!(inv.program.as_str(), "cd" | "pushd") {
                            *cwd = self.cd(inv, cwd.as_deref());
                        }
                        // Only a next stage reads what this one writes.
                        if at + 1 < stages {
                            prev = Some((inv.program.clone(), visible_output(inv)));
                        }
                    }
                    invs.push(inv);
                }
                Stage::Group { body, words, redirects, subshell, span, function, forks_forever, binds } => {
                    let mut taint = Secret::None;
                    for w in words {
                        taint = taint.max(self.word_subs_into(w, cwd.as_deref(), &mut hits));
                    }
                    // `for k in $(cat ~/.ssh/id_rsa)`: the loop variable holds those words.
                    if let Some(name) = binds {
                        self.bind(name, taint);
                    }
                    let mut inner = cwd.clone();
                    let first_unit = self.trace.len();
                    // Verdict-only runs keep unit programs only inside function bodies (`record`).
                    let in_function = usize::from(function.is_some());
                    self.in_function += in_function;
                    hits.extend(self.list(body, &mut inner));
                    self.in_function -= in_function;
                    if *forks_forever {
                        hits.push(Hit { rule: &shell::FORK_LOOP, detail: None, span: *span });
                    }
                    // `:(){ :|:& };:`, `a(){ b; }; b(){ a & }` — a function that reaches itself
                    // through the functions it calls never stops forking.
                    if let Some(name) = function {
                        let callees: Vec<String> = self.trace[first_unit..].iter().map(|u| u.program.clone()).collect();
                        self.functions.push((name.clone(), callees));
                        if self.recursive(name) {
                            hits.push(Hit { rule: &shell::RECURSIVE_FUNCTION, detail: None, span: *span });
                        }
                    }
                    if lone && !*subshell {
                        *cwd = inner;
                    }
                    let (h, _) = self.redirects(redirects, cwd.as_deref(), *span);
                    hits.extend(h);
                    invs.push(None);
                    prev = None;
                }
                Stage::Unsupported { what, span } => {
                    let rule = &rules::PARSE_UNSUPPORTED;
                    hits.push(Hit { rule, detail: Some(format!("{what} is not modelled; run the inner command on its own")), span: *span });
                    invs.push(None);
                }
            }
        }
        if stages > 1 {
            let mut cx = Cx::new(self, Span::default());
            flow::check_pipeline(&invs, &mut cx);
            hits.extend(cx.hits);
        }
        hits
    }

    /// Hits from a wrapper's own words (`words[0]` is the wrapper, its target at
    /// `offset`), and the `explain` note naming what it runs. Kept out of
    /// `simple`, whose frame every nesting level pays for.
    #[inline(never)]
    fn wrapper_words(&mut self, name: &'static str, words: &[Arg], offset: usize, cwd: Option<&str>, span: Span) -> (Vec<Hit>, Option<Hit>) {
        let mut hits = Vec::new();
        // `env LD_PRELOAD=…`, `sudo PAGER=… cmd`, `systemd-run -E BASH_ENV=…`.
        let own = &words[1..offset];
        if own.iter().any(|a| rules::vocab::vars::hijacks(a.text.trim_start_matches("--setenv="), cwd, self.root, self.home, false)) {
            hits.push(Hit { rule: &shell::ENV_HIJACK, detail: None, span });
        }
        for a in own {
            hits.extend(self.assigned_command(&a.text, a.exact, cwd, span));
        }
        // The wrapper's own options from the shared table (`strace -o /etc/x`, `script -O …`).
        let wrapper = Invocation::from_args(name, &words[0], own, cwd, span);
        let mut cx = Cx::new(self, span);
        rules::exec::options::check(&wrapper, true, &mut cx);
        // `script FILE CMD`: the recording is a write like any other.
        for file in wrappers::written_operands(name, &words[..offset]) {
            rules::vocab::writes::check_write(&mut cx, file, cwd);
        }
        if rules::tools::TRACERS.contains(name) {
            rules::tools::tracer_attach(&wrapper, &mut cx);
        }
        hits.extend(cx.hits);
        if let Some(rule) = wrappers::gate(name) {
            hits.push(Hit { rule, detail: None, span });
        }
        if !self.keep_trace {
            return (hits, None);
        }
        // A few words name the target; the whole tail would make wrapper towers quadratic.
        let mut target: Vec<&str> = words[offset..].iter().take(12).map(|a| a.text.as_str()).collect();
        if words.len() > offset + 12 {
            target.push("…");
        }
        (hits, Some(runs_note(name, "runs the command it is given", &target.join(" "), span)))
    }

    /// True when function `name` reaches itself through the defined functions' calls.
    fn recursive(&self, name: &str) -> bool {
        let mut seen: Vec<&str> = Vec::new();
        let mut todo: Vec<&str> = vec![name];
        while let Some(f) = todo.pop() {
            for (def, callees) in self.functions.iter().filter(|(d, _)| d == f) {
                let _ = def;
                for c in callees {
                    if c == name {
                        return true;
                    }
                    if !seen.contains(&c.as_str()) && seen.len() < 256 {
                        seen.push(c);
                        todo.push(c);
                    }
                }
            }
        }
        false
    }

    #[inline(never)]
    fn assigned_commands(&mut self, assigns: &[Word], cwd: Option<&str>, span: Span) -> Vec<Hit> {
        let mut hits = Vec::new();
        for w in assigns {
            hits.extend(self.assigned_command(&w.text, w.exact, cwd, span));
        }
        hits
    }

    /// Hits for a `NAME=value` whose value a program runs as a command line.
    fn assigned_command(&mut self, word: &str, exact: bool, cwd: Option<&str>, span: Span) -> Vec<Hit> {
        let Some((name, value)) = word.split_once('=') else {
            return Vec::new();
        };
        if !rules::vocab::vars::carries_command(name) || value.is_empty() {
            return Vec::new();
        }
        if !exact {
            let detail = format!("`{name}` carries a command built at run time (`{value}`), which cannot be checked; write it out literally");
            return vec![Hit { rule: &shell::ENV_HIJACK, detail: Some(detail), span }];
        }
        let mut hits = vec![Hit { rule: &rules::exec::ENV_COMMAND, detail: Some(format!("`{name}` carries the command `{value}`, checked too")), span }];
        let mut h = self.source(value, cwd);
        for hit in &mut h {
            hit.span = span;
        }
        hits.extend(h);
        hits
    }

    fn cd(&self, inv: &Invocation, cwd: Option<&str>) -> Option<String> {
        match inv.args.iter().find(|a| !a.is_flag()) {
            None => self.home.map(str::to_owned),
            Some(a) if !a.exact || a.text == "-" => None,
            Some(a) => resolve(&a.text, cwd, self.home),
        }
    }

    /// `piped_from` is the previous stage's program and, when the shell text shows
    /// it (`echo 'DROP TABLE t' | psql`), the exact text it writes.
    fn simple(&mut self, s: &mut Simple, cwd: Option<&str>, piped_from: Option<(String, Option<String>)>) -> (Vec<Hit>, Option<Invocation>) {
        let inherited = self.inherited.take();
        self.units += 1;
        if self.units > MAX_UNITS {
            return (vec![engine_hit(&rules::LIMITS_UNITS)], None);
        }
        // This unit's number: files units numbered below it wrote came earlier on the line.
        let unit = self.units;
        let mut hits = Vec::new();
        // What secret data each assignment and word carries, in that order.
        let mut taints = Vec::with_capacity(s.assigns.len() + s.words.len());
        for w in s.assigns.iter().chain(&s.words) {
            taints.push(self.word_subs_into(w, cwd, &mut hits));
        }
        let (procsub_programs, procsub_taint) = self.procsubs(s, cwd, &mut hits);
        // What a grant binds besides the words, read before the walk takes the texts.
        let mut bound: Bound = if self.keep_trace { Parts::read(&s.assigns, &s.redirects) } else { None };
        let outer = std::mem::replace(&mut self.judging, unit);
        let (h, (writes, mut stdin, stdin_taint)) = self.redirects(&mut s.redirects, cwd, s.span);
        self.judging = outer;
        if let Some(b) = &mut bound {
            b.writes = writes.into_iter().map(|a| a.text).collect();
        }
        // Redirect effects (`> /etc/hosts`) are shown with the unit they belong to
        // (verdict-only runs find them again at `redirected` in `hits`).
        let redirected = hits.len()..hits.len() + h.len();
        let redirect_hits = if self.keep_trace { h.clone() } else { Vec::new() };
        hits.extend(h);
        let assigned = s.assigns.len();
        if s.words.is_empty() {
            // `$(< ~/.ssh/id_rsa)` writes out the file it redirects from.
            if self.capturing > 0 {
                self.emitted = self.emitted.max(stdin_taint);
            }
            self.assign_all(&s.assigns, &taints);
            // Were the variable exported already, the new value reaches later programs.
            self.export_paths(s.assigns.iter().map(|w| w.text.as_str()));
            return (hits, None);
        }
        // What the program is given besides its words: its input, and `NAME=value` set for it.
        let mut secret_input = taints[..assigned].iter().copied().fold(stdin_taint, Secret::max);
        // Recording: this unit's redirect writes wait for what it prints (`record`).
        self.mark_redirect_writes(&s.redirects);
        // Reserve this unit's place in the trace before any payload it runs is
        // classified, so `explain` lists a unit before its insides.
        let slot = self.trace.len();
        self.trace.push(TraceUnit::reserved(self.depth));
        let mut piped = piped_from.is_some();
        // A runner's child reads the runner's input unless it redirects its own.
        if let (Stdin::None, Some(parent)) = (&stdin, inherited) {
            stdin = parent.stdin;
            piped |= parent.piped;
            secret_input = secret_input.max(parent.secret);
        }
        if let (Stdin::None, Some((program, visible))) = (&stdin, piped_from) {
            // Visible text is judged as what it is: the next stage reads it as its input.
            stdin = match visible {
                Some(text) => Stdin::HereString(text),
                None => Stdin::Pipe { program },
            };
        }
        let mut args = Eng::arguments(&mut s.words, &taints[assigned..], procsub_taint);
        // The unit's own search paths hold while it, and whatever it runs, is judged.
        let paths_mark = self.unit_paths.len();
        self.unit_paths.extend(s.assigns.iter().filter(|w| rules::vocab::vars::search_path_set(&w.text).is_some()).map(|w| w.text.clone()));
        if s.assigns.iter().any(|w| rules::vocab::vars::hijacks(&w.text, cwd, self.root, self.home, s.words.is_empty())) {
            hits.push(Hit { rule: &shell::ENV_HIJACK, detail: None, span: s.span });
        }
        // `PAGER='rm -rf ~' git log`: the value is a command line too.
        if !s.assigns.is_empty() {
            hits.extend(self.assigned_commands(&s.assigns, cwd, s.span));
        }
        let mut start = 0;
        let mut peeled: Vec<&'static str> = Vec::new();
        let mut cx_hits = Vec::new();
        // Some word of the target is an input line (`xargs -I{} sh -c {}`).
        let mut fed_input = false;
        // What each peeled wrapper runs, for `explain` (never a verdict hit).
        let mut notes: Vec<Hit> = Vec::new();
        // The peeled program word's index, once no wrapper is left to peel.
        let target = loop {
            if !args[start].exact {
                // `$(curl …)` in command position runs whatever the server sends.
                let rule = if flow::fetches_in_substitution(&args[start].text) { &flow::REMOTE_EXEC } else { &shell::DYNAMIC_COMMAND };
                cx_hits.push(Hit { rule, detail: None, span: s.span });
                break None;
            }
            match wrappers::peel(&crate::names::program(&args[start].text), &args[start..]) {
                // A wrapper that runs nothing (`env`, `command -v x`) is itself the unit,
                // so pipelines still see it (`env | nc host 80`).
                Peeled::NotWrapper | Peeled::Nothing { harmless: true, .. } => break Some(start),
                Peeled::Target { name, start: offset } => {
                    let (own, target) = args[start..].split_at_mut(offset);
                    // `xargs CMD` may run CMD as written or with its input appended:
                    // the reading with the input is judged beside this one. Every
                    // xargs of the unit gives its own (`xargs xargs -J % cp … %`: the
                    // inner one's reading without input drops `%`); a tower of them
                    // stops at the parse budget, which asks.
                    let reading = if self.parsed_bytes > MAX_PARSED_BYTES {
                        cx_hits.push(engine_hit(&rules::LIMITS_SIZE));
                        None
                    } else {
                        wrappers::input_reading(name, own, target)
                    };
                    fed_input |= wrappers::mark_input_words(name, own, target);
                    if let Some(script) = reading {
                        let mut h = self.source(&script, cwd);
                        for hit in &mut h {
                            hit.span = s.span;
                        }
                        cx_hits.extend(h);
                    }
                    let own = &args[start + 1..start + offset];
                    self.unit_paths.extend(own.iter().filter(|a| rules::vocab::vars::search_path_set(&a.text).is_some()).map(|a| a.text.clone()));
                    let (h, note) = self.wrapper_words(name, &args[start..], offset, cwd, s.span);
                    cx_hits.extend(h);
                    notes.extend(note);
                    peeled.push(name);
                    start += offset;
                }
                Peeled::Shell { name, script } => {
                    if self.keep_trace {
                        notes.push(runs_note(name, "runs its argument as a shell command", &script, s.span));
                    }
                    peeled.push(name);
                    // `script -c CMD FILE`: the recording is a write, as in `script FILE CMD`.
                    let files = wrappers::written_operands(name, &args[start..]);
                    if !files.is_empty() {
                        let mut cx = Cx::new(self, s.span);
                        for file in files {
                            rules::vocab::writes::check_write(&mut cx, file, cwd);
                        }
                        cx_hits.extend(cx.hits);
                    }
                    let mut h = self.source(&script, cwd);
                    for hit in &mut h {
                        hit.span = s.span;
                    }
                    cx_hits.extend(h);
                    break None;
                }
                Peeled::Nothing { name, .. } => {
                    let rule = if wrappers::privileged(name) { &rules::WRAPPER_ROOT_SHELL } else { &rules::WRAPPER_SHELL };
                    cx_hits.push(Hit { rule, detail: None, span: s.span });
                    break None;
                }
                Peeled::UnknownOption { name, option } => {
                    let rule = &rules::WRAPPER_UNKNOWN_OPTION;
                    let detail = format!(
                        "`{name}` option `{option}` is not one tiergate knows, so the command it runs is unknown; drop the option or run the command directly"
                    );
                    cx_hits.push(Hit { rule, detail: Some(detail), span: s.span });
                    break None;
                }
            }
        };
        if let Some(start) = target {
            let parts = Target { args, start, unit, stdin, peeled, piped, secret_input, fed_input, cx_hits, notes, bound, redirect_hits };
            let judged = self.run_target(parts, slot, s.span, cwd, &procsub_programs, (hits, redirected));
            self.unit_paths.truncate(paths_mark);
            return judged;
        }
        self.unit_paths.truncate(paths_mark);
        if self.capturing > 0 {
            self.emitted = self.emitted.max(rules::flow::secrets::handed(&args)).max(secret_input);
        }
        self.record_words(slot, (&args, &peeled, cwd), bound, (redirect_hits, &hits[redirected]), notes, &cx_hits);
        hits.extend(cx_hits);
        (hits, None)
    }
}

/// The owning family, then the exec-vector checks every unit gets.
#[inline(never)]
fn dispatch_unit(inv: &Invocation, cx: &mut Cx<'_>) {
    let owned = rules::dispatch(inv, cx);
    rules::exec::check_unit(inv, owned, cx);
    rules::flow::secrets::check_unit(inv, cx);
}

/// The `explain` note for a wrapper: what it runs (never a verdict hit).
#[inline(never)]
fn runs_note(name: &str, how: &str, what: &str, span: Span) -> Hit {
    let mut what = what.replace('\n', "; ");
    if what.len() > 200 {
        let cut = (0..=200).rev().find(|&i| what.is_char_boundary(i)).unwrap_or(0);
        what.truncate(cut);
        what.push('…');
    }
    Hit { rule: &rules::WRAPPER_RUNS, detail: Some(format!("`{name}` {how}: `{what}`")), span }
}

fn first_program(p: &Pipeline) -> Option<String> {
    match p.stages.first()? {
        Stage::Simple(s) => {
            let words: Vec<Arg> = s.words.iter().map(arg).collect();
            let mut start = 0;
            while start < words.len() {
                match wrappers::peel(&crate::names::program(&words[start].text), &words[start..]) {
                    Peeled::Target { start: o, .. } => start += o,
                    _ => break,
                }
            }
            words.get(start).map(|w| crate::names::program(&w.text).into_owned())
        }
        _ => None,
    }
}

fn arg(w: &Word) -> Arg {
    Arg { text: w.text.clone(), exact: w.exact, quoted: w.quoted, span: w.span, secret: w.secret }
}

/// `arg`, taking the word's text out of the model instead of copying it, with the
/// secret data its expansions carry.
fn take_arg(w: &mut Word, secret: Secret) -> Arg {
    Arg { text: std::mem::take(&mut w.text), exact: w.exact, quoted: w.quoted, span: w.span, secret }
}

/// `dst.extend(src)`, moving `src` whole when `dst` is still empty (one
/// allocation fewer per level the hits climb; the order is the same).
fn append(dst: &mut Vec<Hit>, src: Vec<Hit>) {
    if dst.is_empty() {
        *dst = src;
    } else {
        dst.extend(src);
    }
}

fn engine_hit(rule: &'static rules::Rule) -> Hit {
    Hit { rule, detail: None, span: Span::default() }
}
