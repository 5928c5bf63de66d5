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
    pub trace: Vec<TraceUnit>,
}

impl<'f> Eng<'f> {
    pub fn new(files: &'f dyn FileSource, home: Option<String>, root: Option<String>) -> Eng<'f> {
        Eng { files, home, root, protect: Protected::default(), depth: 0, units: 0, parsed_bytes: 0, trace: Vec::new() }
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
                Stage::Group { body, words, redirects, subshell, span, function } => {
                    for w in words {
                        hits.extend(self.word_subs(w, cwd.as_deref()));
                    }
                    let mut inner = cwd.clone();
                    let first_unit = self.trace.len();
                    hits.extend(self.list(body, &mut inner));
                    // `:(){ :|:& };:` — a function that runs itself never stops forking.
                    if let Some(name) = function {
                        if self.trace[first_unit..].iter().any(|u| &u.program == name) {
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
        let mut start = 0;
        let mut peeled: Vec<&'static str> = Vec::new();
        let mut cx_hits = Vec::new();
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
                    let inv = Invocation {
                        program,
                        program_path: args[start].text.clone(),
                        args: args[start + 1..].to_vec(),
                        cwd: cwd.map(str::to_owned),
                        stdin,
                        wrappers: peeled,
                        piped,
                        span: s.span,
                    };
                    let mut cx = Cx::new(self, s.span);
                    rules::dispatch(&inv, &mut cx);
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
                    if name == "env" && args[start + 1..start + offset].iter().any(|a| shell::is_hijack_assignment(&a.text)) {
                        cx_hits.push(Hit { rule: &shell::ENV_HIJACK, detail: None, span: s.span });
                    }
                    peeled.push(name);
                    start += offset;
                }
                Peeled::Shell { name, script } => {
                    peeled.push(name);
                    let mut h = self.source(&script, cwd);
                    for hit in &mut h {
                        hit.span = s.span;
                    }
                    cx_hits.extend(h);
                    break;
                }
                Peeled::Nothing { .. } => {
                    cx_hits.push(Hit { rule: &rules::WRAPPER_ROOT_SHELL, detail: None, span: s.span });
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
