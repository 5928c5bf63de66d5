//! The engine: walks the parsed model, turns every executed piece into a unit
//! (pipeline stages, list items, group bodies, substitution bodies, wrapper
//! targets, shell payloads), runs the owning family on each and collects hits.
//!
//! It decides no tiers itself beyond the engine rules (parse, limits, wrappers,
//! default); `combine.rs` picks the verdict from the hits.

use crate::call::{basename, Arg, Invocation, Stdin};
use crate::lanes::{resolve, FileSource, MAX_FILE_BYTES};
use crate::limits::{MAX_DEPTH, MAX_PARSED_BYTES, MAX_UNITS};
use crate::parse::model::{List, Pipeline, Redirect, Simple, Stage, Word};
use crate::parse::{self, ParseFailure};
use crate::protect::Protected;
use crate::rules::{self, flow, paths, shell, Cx, Engine, FileText, Hit};
use crate::verdict::Span;
use crate::wrappers::{self, Peeled};

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
}

pub struct Eng<'f> {
    files: &'f dyn FileSource,
    home: Option<String>,
    root: Option<String>,
    protect: Protected,
    depth: u32,
    units: usize,
    parsed_bytes: usize,
    /// Functions defined so far, with the programs their bodies call.
    functions: Vec<(String, Vec<String>)>,
    pub trace: Vec<TraceUnit>,
}

impl<'f> Eng<'f> {
    pub fn new(files: &'f dyn FileSource, home: Option<String>, root: Option<String>) -> Eng<'f> {
        Eng { files, home, root, protect: Protected::default(), depth: 0, units: 0, parsed_bytes: 0, functions: Vec::new(), trace: Vec::new() }
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
        let list = match parse::parse(src) {
            Ok(l) => l,
            Err(ParseFailure::TooDeep) => return vec![engine_hit(&rules::LIMITS_NESTING)],
            Err(ParseFailure::Syntax(e)) => {
                let rule = &rules::PARSE_UNSUPPORTED;
                return vec![Hit { rule, detail: Some(format!("{} ({e})", rule.reason)), span: Span { start: 0, end: src.len() } }];
            }
        };
        self.depth += 1;
        let mut cwd = cwd.map(str::to_owned);
        let hits = self.list(&list, &mut cwd);
        self.depth -= 1;
        hits
    }

    fn list(&mut self, list: &List, cwd: &mut Option<String>) -> Vec<Hit> {
        let mut hits = Vec::new();
        for p in &list.pipelines {
            hits.extend(self.pipeline(p, cwd));
        }
        hits
    }

    fn pipeline(&mut self, p: &Pipeline, cwd: &mut Option<String>) -> Vec<Hit> {
        let mut hits = Vec::new();
        let mut invs: Vec<Option<Invocation>> = Vec::with_capacity(p.stages.len());
        let mut prev: Option<(String, Option<String>)> = None;
        let lone = p.stages.len() == 1;
        for stage in &p.stages {
            match stage {
                Stage::Simple(s) => {
                    let (h, inv) = self.simple(s, cwd.as_deref(), prev.take());
                    hits.extend(h);
                    if let Some(inv) = &inv {
                        if lone && matches!(inv.program.as_str(), "cd" | "pushd") {
                            *cwd = self.cd(inv, cwd.as_deref());
                        }
                        prev = Some((inv.program.clone(), visible_output(inv)));
                    }
                    invs.push(inv);
                }
                Stage::Group { body, words, redirects, subshell, span, function, forks_forever } => {
                    for w in words {
                        hits.extend(self.word_subs(w, cwd.as_deref()));
                    }
                    let mut inner = cwd.clone();
                    let first_unit = self.trace.len();
                    hits.extend(self.list(body, &mut inner));
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
                    if lone && !subshell {
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
        if p.stages.len() > 1 {
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
    fn wrapper_words(&mut self, name: &'static str, words: &[Arg], offset: usize, cwd: Option<&str>, span: Span) -> (Vec<Hit>, Hit) {
        let mut hits = Vec::new();
        // `env LD_PRELOAD=…`, `sudo PAGER=… cmd`, `systemd-run -E BASH_ENV=…`.
        let own = &words[1..offset];
        if own.iter().any(|a| shell::is_hijack_assignment(&a.text) || shell::is_hijack_assignment(a.text.trim_start_matches("--setenv="))) {
            hits.push(Hit { rule: &shell::ENV_HIJACK, detail: None, span });
        }
        for a in own {
            hits.extend(self.assigned_command(&a.text, a.exact, cwd, span));
        }
        // The wrapper's own options from the shared table (`strace -o /etc/x`, `script -O …`).
        let wrapper = Invocation::from_args(name, &words[0], own, cwd, span);
        let mut cx = Cx::new(self, span);
        rules::exec::options::check(&wrapper, true, &mut cx);
        if rules::tools::TRACERS.contains(&name) {
            rules::tools::tracer_attach(&wrapper, &mut cx);
        }
        hits.extend(cx.hits);
        if let Some(rule) = wrappers::gate(name) {
            hits.push(Hit { rule, detail: None, span });
        }
        // A few words name the target; the whole tail would make wrapper towers quadratic.
        let mut target: Vec<&str> = words[offset..].iter().take(12).map(|a| a.text.as_str()).collect();
        if words.len() > offset + 12 {
            target.push("…");
        }
        (hits, runs_note(name, "runs the command it is given", &target.join(" "), span))
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
        if !rules::exec::env::carries_command(name) || value.is_empty() {
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
            None => self.home.clone(),
            Some(a) if !a.exact || a.text == "-" => None,
            Some(a) => resolve(&a.text, cwd, self.home.as_deref()),
        }
    }

    fn word_subs(&mut self, w: &Word, cwd: Option<&str>) -> Vec<Hit> {
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
    fn redirects(&mut self, redirects: &[Redirect], cwd: Option<&str>, span: Span) -> (Vec<Hit>, (Vec<Arg>, Stdin)) {
        let mut hits = Vec::new();
        let mut writes = Vec::new();
        let mut stdin = Stdin::None;
        for r in redirects {
            match r {
                Redirect::Read { fd, target } => {
                    hits.extend(self.word_subs(target, cwd));
                    if fd.is_none_or(|f| f == 0) {
                        stdin = Stdin::File(target.text.clone());
                    }
                }
                Redirect::Write { target, .. } => {
                    hits.extend(self.word_subs(target, cwd));
                    writes.push(arg(target));
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
                    stdin = Stdin::Heredoc { body: body.clone(), expands: *expands };
                }
                Redirect::HereString { word } => {
                    hits.extend(self.word_subs(word, cwd));
                    stdin = Stdin::HereString(word.text.clone());
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
                paths::check_write(&mut cx, w, cwd);
            }
            hits.extend(cx.hits);
        }
        (hits, (writes, stdin))
    }

    /// `piped_from` is the previous stage's program and, when the shell text shows
    /// it (`echo 'DROP TABLE t' | psql`), the exact text it writes.
    fn simple(&mut self, s: &Simple, cwd: Option<&str>, piped_from: Option<(String, Option<String>)>) -> (Vec<Hit>, Option<Invocation>) {
        self.units += 1;
        if self.units > MAX_UNITS {
            return (vec![engine_hit(&rules::LIMITS_UNITS)], None);
        }
        let mut hits = Vec::new();
        for w in s.assigns.iter().chain(&s.words) {
            hits.extend(self.word_subs(w, cwd));
        }
        let mut procsub_programs = Vec::new();
        for l in &s.procsubs {
            let mut inner = cwd.map(str::to_owned);
            hits.extend(self.list(l, &mut inner));
            procsub_programs.extend(l.pipelines.iter().filter_map(first_program));
        }
        let (h, (writes, mut stdin)) = self.redirects(&s.redirects, cwd, s.span);
        let writes: Vec<String> = writes.into_iter().map(|a| a.text).collect();
        // Redirect effects (`> /etc/hosts`) are shown with the unit they belong to.
        let redirect_hits = h.clone();
        hits.extend(h);
        if s.words.is_empty() {
            return (hits, None);
        }
        // Reserve this unit's place in the trace before any payload it runs is
        // classified, so `explain` lists a unit before its insides.
        let slot = self.trace.len();
        self.trace.push(TraceUnit {
            depth: self.depth,
            program: String::new(),
            args: Vec::new(),
            wrappers: Vec::new(),
            cwd: None,
            writes: Vec::new(),
            hits: Vec::new(),
        });
        let piped = piped_from.is_some();
        if let (Stdin::None, Some((program, visible))) = (&stdin, piped_from) {
            // Visible text is judged as what it is: the next stage reads it as its input.
            stdin = match visible {
                Some(text) => Stdin::HereString(text),
                None => Stdin::Pipe { program },
            };
        }
        let args: Vec<Arg> = s.words.iter().map(arg).collect();
        if s.assigns.iter().any(|w| shell::is_hijack_assignment(&w.text)) {
            hits.push(Hit { rule: &shell::ENV_HIJACK, detail: None, span: s.span });
        }
        // `PAGER='rm -rf ~' git log`: the value is a command line too.
        if !s.assigns.is_empty() {
            hits.extend(self.assigned_commands(&s.assigns, cwd, s.span));
        }
        let mut start = 0;
        let mut peeled: Vec<&'static str> = Vec::new();
        let mut cx_hits = Vec::new();
        // What each peeled wrapper runs, for `explain` (never a verdict hit).
        let mut notes: Vec<Hit> = Vec::new();
        loop {
            if !args[start].exact {
                // `$(curl …)` in command position runs whatever the server sends.
                let rule = if flow::fetches_in_substitution(&args[start].text) { &flow::REMOTE_EXEC } else { &shell::DYNAMIC_COMMAND };
                cx_hits.push(Hit { rule, detail: None, span: s.span });
                break;
            }
            let program = basename(&args[start].text).to_owned();
            match wrappers::peel(&program, &args[start..]) {
                // A wrapper that runs nothing (`env`, `command -v x`) is itself the unit,
                // so pipelines still see it (`env | nc host 80`).
                Peeled::NotWrapper | Peeled::Nothing { harmless: true, .. } => {
                    // `git reset --h` is `--hard`: every family sees the full option.
                    let mut own_args = args[start + 1..].to_vec();
                    if rules::exec::options::expand_abbreviations(&mut own_args) {
                        cx_hits.push(Hit { rule: &rules::exec::options::ABBREVIATION, detail: None, span: s.span });
                    }
                    let inv = Invocation {
                        program,
                        program_path: args[start].text.clone(),
                        args: own_args,
                        cwd: cwd.map(str::to_owned),
                        stdin,
                        wrappers: peeled,
                        piped,
                        span: s.span,
                    };
                    let mut cx = Cx::new(self, s.span);
                    dispatch_unit(&inv, &mut cx);
                    if !procsub_programs.is_empty() {
                        flow::check_procsub_exec(&inv, &procsub_programs, &mut cx);
                    }
                    if cx.hits.is_empty() {
                        cx.hit(&rules::DEFAULT_ELIMINATION);
                    }
                    let mut unit_hits = std::mem::take(&mut cx.hits);
                    // Hits found while peeling wrappers (`env LD_PRELOAD=…`) belong to this unit.
                    unit_hits.extend(cx_hits);
                    let mut shown = redirect_hits;
                    shown.extend(notes);
                    shown.extend(unit_hits.iter().cloned());
                    self.trace[slot] = TraceUnit {
                        depth: self.depth,
                        program: inv.program.clone(),
                        args: inv.args.iter().map(|a| a.text.clone()).collect(),
                        wrappers: inv.wrappers.clone(),
                        cwd: inv.cwd.clone(),
                        writes,
                        hits: shown,
                    };
                    hits.extend(unit_hits);
                    return (hits, Some(inv));
                }
                Peeled::Target { name, start: offset } => {
                    let (h, note) = self.wrapper_words(name, &args[start..], offset, cwd, s.span);
                    cx_hits.extend(h);
                    notes.push(note);
                    peeled.push(name);
                    start += offset;
                }
                Peeled::Shell { name, script } => {
                    notes.push(runs_note(name, "runs its argument as a shell command", &script, s.span));
                    peeled.push(name);
                    let mut h = self.source(&script, cwd);
                    for hit in &mut h {
                        hit.span = s.span;
                    }
                    cx_hits.extend(h);
                    break;
                }
                Peeled::Nothing { name, .. } => {
                    let rule = if wrappers::privileged(name) { &rules::WRAPPER_ROOT_SHELL } else { &rules::WRAPPER_SHELL };
                    cx_hits.push(Hit { rule, detail: None, span: s.span });
                    break;
                }
                Peeled::UnknownOption { name, option } => {
                    let rule = &rules::WRAPPER_UNKNOWN_OPTION;
                    let detail = format!(
                        "`{name}` option `{option}` is not one tiergate knows, so the command it runs is unknown; drop the option or run the command directly"
                    );
                    cx_hits.push(Hit { rule, detail: Some(detail), span: s.span });
                    break;
                }
            }
        }
        let words: Vec<String> = args.iter().map(|a| a.text.clone()).collect();
        let mut shown = redirect_hits;
        shown.extend(notes);
        shown.extend(cx_hits.iter().cloned());
        self.trace[slot] = TraceUnit {
            depth: self.depth,
            program: words.first().cloned().unwrap_or_default(),
            args: words[1..].to_vec(),
            wrappers: peeled,
            cwd: cwd.map(str::to_owned),
            writes,
            hits: shown,
        };
        hits.extend(cx_hits);
        (hits, None)
    }
}

/// The owning family, then the exec-vector checks every unit gets.
#[inline(never)]
fn dispatch_unit(inv: &Invocation, cx: &mut Cx<'_>) {
    let owned = rules::dispatch(inv, cx);
    rules::exec::check_unit(inv, owned, cx);
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

/// What a stage writes to stdout, when the command line alone says it exactly:
/// `echo`/`printf` of literal words, `cat` of a heredoc or here-string.
fn visible_output(inv: &Invocation) -> Option<String> {
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
            // `printf '%s\n' a b`: the usual shape; anything fancier is not guessed.
            (format.trim_end() == "%s").then(|| rest.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join("\n"))
        }
        "cat" if inv.args.is_empty() => match &inv.stdin {
            Stdin::Heredoc { body, .. } => Some(body.clone()),
            Stdin::HereString(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn first_program(p: &Pipeline) -> Option<String> {
    match p.stages.first()? {
        Stage::Simple(s) => {
            let words: Vec<Arg> = s.words.iter().map(arg).collect();
            let mut start = 0;
            while start < words.len() {
                match wrappers::peel(basename(&words[start].text), &words[start..]) {
                    Peeled::Target { start: o, .. } => start += o,
                    _ => break,
                }
            }
            words.get(start).map(|w| basename(&w.text).to_owned())
        }
        _ => None,
    }
}

fn arg(w: &Word) -> Arg {
    Arg { text: w.text.clone(), exact: w.exact, quoted: w.quoted, span: w.span }
}

fn engine_hit(rule: &'static rules::Rule) -> Hit {
    Hit { rule, detail: None, span: Span::default() }
}

impl Engine for Eng<'_> {
    fn shell(&mut self, src: &str, cwd: Option<&str>) -> Vec<Hit> {
        self.source(src, cwd)
    }

    fn argv(&mut self, args: &[Arg], cwd: Option<&str>) -> Vec<Hit> {
        if args.is_empty() {
            return Vec::new();
        }
        if self.depth >= MAX_DEPTH {
            return vec![engine_hit(&rules::LIMITS_DEPTH)];
        }
        let words =
            args.iter().map(|a| Word { text: a.text.clone(), exact: a.exact, quoted: a.quoted, subs: Vec::new(), opaque: false, span: a.span }).collect();
        let s = Simple { assigns: Vec::new(), words, redirects: Vec::new(), procsubs: Vec::new(), span: args[0].span };
        self.depth += 1;
        let (hits, _) = self.simple(&s, cwd, None);
        self.depth -= 1;
        hits
    }

    fn read(&mut self, path: &str, cwd: Option<&str>) -> FileText {
        let Some(abs) = resolve(path, cwd, self.home.as_deref()) else {
            return FileText::Unusable("relative path and no working directory");
        };
        match self.files.read(&abs) {
            Ok(None) => FileText::Missing,
            Ok(Some(bytes)) if bytes.len() > MAX_FILE_BYTES => FileText::Unusable("too large"),
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(s) if !s.contains('\0') => FileText::Text(s),
                _ => FileText::Unusable("not text"),
            },
            Err(_) => FileText::Unusable("unreadable"),
        }
    }

    fn home(&self) -> Option<&str> {
        self.home.as_deref()
    }

    fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

    fn protected(&self) -> &Protected {
        &self.protect
    }

    fn canonical(&self, absolute_path: &str) -> Option<String> {
        self.files.canonical(absolute_path)
    }
}
