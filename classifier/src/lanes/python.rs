//! Python analysis for inline code, heredocs and script files. The tokens of
//! `python_tokens.rs` (every string form, comments dropped, logical lines) feed
//! this scanner, which resolves
//! import aliases (`import os as o`, `from shutil import rmtree`), simple
//! bindings (`p = Path("x")`, `cmd = ["rm", "x"]`), call chains
//! (`Path("x").unlink()`, `__import__("os").system(…)`, `getattr(os, "system")`)
//! and reports effects through the sink tables in `python_sinks.rs`.
//!
//! It does not evaluate code or follow data flow beyond those bindings; what it
//! cannot see into (`exec(var)`, `getattr(os, name)`) is reported as dynamic.
//! When the code parses, `python_ast.rs` adds the calls the syntax tree shows.
//! Why both: `docs/decisions/0003-python-analysis.md`.

use std::collections::HashMap;

use super::python_sinks::{self, ArgV, Call};
pub(crate) use super::python_tokens::{tokenize, Tok};
use super::scripts::{Analysis, Effect, MAX_CODE_DEPTH};

/// Analyses Python source.
pub fn analyse(src: &str) -> Analysis {
    analyse_at(src, 0)
}

pub(crate) fn analyse_at(src: &str, depth: u8) -> Analysis {
    let mut out = Analysis::default();
    if depth > MAX_CODE_DEPTH {
        out.push(Effect::Dynamic, "nested exec()");
        return out;
    }
    let toks = match tokenize(src) {
        Ok(t) => t,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    let mut s =
        Scan { toks: &toks, aliases: HashMap::new(), lits: HashMap::new(), stars: Vec::new(), visited: vec![false; toks.len()], out, depth, sql_lib: false };
    s.imports();
    s.calls();
    // The parser pass only adds what the tree shows (aliases resolved inside
    // f-string holes, parenthesised callees); code it rejects stays with the scanner.
    super::python_ast::add_ast_findings(src, &mut s.out);
    for t in &toks {
        if let Tok::Str { holes, .. } = t {
            for h in holes {
                s.out.absorb(analyse_at(h, depth + 1));
            }
        }
    }
    s.out
}

/// What a name is bound to: a resolved dotted chain, and the literal first
/// argument of the call that made it (`Path("x")` → `x`).
#[derive(Clone, Debug)]
pub(crate) struct Binding {
    pub chain: String,
    pub lit: Option<String>,
}

struct Scan<'t> {
    toks: &'t [Tok],
    aliases: HashMap<String, Binding>,
    /// `name = "literal"` / `name = ["a", "b"]` bindings, for exec arguments.
    lits: HashMap<String, ArgV>,
    stars: Vec<String>,
    visited: Vec<bool>,
    out: Analysis,
    depth: u8,
    sql_lib: bool,
}

impl Scan<'_> {
    fn name_at(&self, i: usize) -> Option<&str> {
        match self.toks.get(i) {
            Some(Tok::Name(n)) => Some(n),
            _ => None,
        }
    }

    fn op_at(&self, i: usize, op: &str) -> bool {
        matches!(self.toks.get(i), Some(Tok::Op(o)) if o == op)
    }

    fn stmt_start(&self, i: usize) -> bool {
        i == 0 || matches!(self.toks.get(i - 1), Some(Tok::Newline)) || self.op_at(i - 1, ":")
    }

    /// `import a.b as c, d` and `from a import x as y, (z), *`.
    fn imports(&mut self) {
        let mut i = 0;
        while i < self.toks.len() {
            let kw = self.name_at(i).filter(|_| self.stmt_start(i)).map(str::to_owned);
            match kw.as_deref() {
                Some("import") => {
                    i += 1;
                    loop {
                        let (module, next) = self.dotted(i);
                        i = next;
                        if module.is_empty() {
                            break;
                        }
                        let (alias, chain) = if self.name_at(i) == Some("as") {
                            let a = self.name_at(i + 1).unwrap_or("").to_owned();
                            i += 2;
                            (a, module.clone())
                        } else {
                            let root = module.split('.').next().unwrap_or("").to_owned();
                            (root.clone(), root)
                        };
                        self.note_module(&module);
                        self.aliases.insert(alias, Binding { chain, lit: None });
                        if !self.op_at(i, ",") {
                            break;
                        }
                        i += 1;
                    }
                }
                Some("from") => {
                    let mut dots = 0;
                    while self.op_at(i + 1 + dots, ".") {
                        dots += 1;
                    }
                    let (module, next) = self.dotted(i + 1 + dots);
                    let module = if dots > 0 { format!(".{module}") } else { module };
                    i = next;
                    self.note_module(&module);
                    if self.name_at(i) != Some("import") {
                        continue;
                    }
                    i += 1;
                    while i < self.toks.len() && !matches!(self.toks[i], Tok::Newline) {
                        if self.op_at(i, "*") {
                            self.stars.push(module.clone());
                        } else if let Some(n) = self.name_at(i).map(str::to_owned) {
                            if n != "as" {
                                let alias = if self.name_at(i + 1) == Some("as") { self.name_at(i + 2).unwrap_or(&n).to_owned() } else { n.clone() };
                                self.aliases.insert(alias, Binding { chain: format!("{module}.{n}"), lit: None });
                                if self.name_at(i + 1) == Some("as") {
                                    i += 2;
                                }
                            }
                        }
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
    }

    fn note_module(&mut self, module: &str) {
        self.out.import(module);
        let root = module.split('.').next().unwrap_or("");
        if python_sinks::SQL_LIBS.contains(root) {
            self.sql_lib = true;
        }
    }

    /// A dotted name starting at `i` (`os.path`), and the index after it.
    fn dotted(&self, mut i: usize) -> (String, usize) {
        let mut out = String::new();
        while let Some(n) = self.name_at(i) {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(n);
            i += 1;
            if self.op_at(i, ".") && self.name_at(i + 1).is_some() {
                i += 1;
            } else {
                break;
            }
        }
        (out, i)
    }

    fn resolve(&self, name: &str) -> String {
        if let Some(b) = self.aliases.get(name) {
            return b.chain.clone();
        }
        python_sinks::resolve_unaliased(name, &self.stars)
    }

    /// The main pass: bindings, call chains, indirect references to sinks.
    fn calls(&mut self) {
        let mut i = 0;
        while i < self.toks.len() {
            if self.stmt_start(i) && matches!(self.name_at(i), Some("import" | "from")) {
                while i < self.toks.len() && !matches!(self.toks[i], Tok::Newline) {
                    i += 1;
                }
                continue;
            }
            let Some(name) = self.name_at(i).map(str::to_owned) else {
                i += 1;
                continue;
            };
            if self.stmt_start(i) && self.op_at(i + 1, "=") {
                self.binding(&name, i + 2);
            } else if !self.visited[i] && !self.op_at(i.wrapping_sub(1), ".") && !matches!(self.name_at(i.wrapping_sub(1)), Some("def" | "class" | "as")) {
                let (b, called, _) = self.chain(i);
                if !called && python_sinks::is_sink(&b.chain) && !self.op_at(i + 1, "=") {
                    // `map(os.system, cmds)`: a sink passed around runs unseen arguments.
                    self.out.push(Effect::Dynamic, &b.chain);
                }
            }
            i += 1;
        }
    }

    fn binding(&mut self, name: &str, start: usize) {
        let end = self.toks[start..].iter().position(|t| matches!(t, Tok::Newline)).map_or(self.toks.len(), |p| start + p);
        let value = python_sinks::arg_value(&self.toks[start..end], &self.lits, None);
        if value.lit.is_some() || value.list.is_some() {
            self.lits.insert(name.to_owned(), value);
            return;
        }
        if self.name_at(start).is_some() {
            let (b, _, next) = self.chain(start);
            if next == end {
                self.aliases.insert(name.to_owned(), b);
            }
        }
    }

    /// Follows `name(.attr | (args) | [idx])*` from `i`, reporting each call.
    /// Returns the chain's binding, whether its last step was a call, and the end.
    fn chain(&mut self, i: usize) -> (Binding, bool, usize) {
        self.visited[i] = true;
        let name = self.name_at(i).unwrap_or("").to_owned();
        let mut cur = match self.aliases.get(&name) {
            Some(b) => b.clone(),
            None => Binding { chain: self.resolve(&name), lit: None },
        };
        let mut j = i + 1;
        let mut called = false;
        loop {
            if self.op_at(j, ".") {
                if let Some(attr) = self.name_at(j + 1) {
                    // A module reached as another module's attribute is that module:
                    // `shutil.os.system(…)` is `os.system(…)`.
                    cur.chain = if python_sinks::SENSITIVE_MODULES.contains(attr) && self.known_module(&cur.chain) {
                        attr.to_owned()
                    } else {
                        format!("{}.{attr}", cur.chain)
                    };
                    j += 2;
                    called = false;
                    continue;
                }
            }
            if self.op_at(j, "(") {
                let close = self.matching(j);
                let args = self.args(j + 1, close);
                // A lookup's result is the attribute itself, not yet called:
                // `map(getattr(os, "system"), cmds)` passes os.system around.
                let lookup = cur.chain == "builtins.getattr" || cur.chain.ends_with(".__getattribute__");
                cur = self.call(&cur, &args);
                j = close + 1;
                called = !lookup;
                continue;
            }
            if self.op_at(j, "[") {
                // `sys.modules["os"]` with a literal module name is that module (its reads are not
                // dynamic code; `sys.modules["os"].system(…)` is `os.system(…)`).
                if cur.chain == "sys.modules" && self.op_at(j + 2, "]") {
                    if let Some(Tok::Str { text, holes }) = self.toks.get(j + 1) {
                        if holes.is_empty() && is_module_path(text) {
                            cur.chain = text.clone();
                            j += 3;
                            called = false;
                            continue;
                        }
                    }
                }
                // `sys.modules[name]`, `vars(os)["system"]`, `os.__dict__[…]`: a lookup by name the scan cannot follow.
                let c = cur.chain.as_str();
                if matches!(c, "sys.modules" | "builtins.vars()" | "builtins.globals()" | "builtins.locals()" | "builtins.__dict__") || c.ends_with(".__dict__")
                {
                    self.out.push(Effect::Dynamic, &format!("{c}[…]"));
                }
                let close = self.matching(j);
                cur.chain = format!("{}[]", cur.chain);
                j = close + 1;
                called = false;
                continue;
            }
            break;
        }
        (cur, called, j)
    }

    fn matching(&self, open: usize) -> usize {
        python_sinks::closing(self.toks, open).unwrap_or(self.toks.len())
    }

    fn args(&self, start: usize, end: usize) -> Vec<ArgV> {
        let end = end.min(self.toks.len());
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut from = start;
        for k in start..=end {
            let at_end = k == end;
            if !at_end {
                if let Tok::Op(o) = &self.toks[k] {
                    match o.as_str() {
                        "(" | "[" | "{" => depth += 1,
                        ")" | "]" | "}" => depth = depth.saturating_sub(1),
                        "," if depth == 0 => {}
                        _ => continue,
                    }
                    if !(o == "," && depth == 0) {
                        continue;
                    }
                } else {
                    continue;
                }
            }
            if from < k {
                out.push(python_sinks::arg_value(&self.toks[from..k], &self.lits, Some(self)));
            }
            from = k + 1;
        }
        out
    }

    /// Reports the call's effect and returns the binding its result has.
    fn call(&mut self, callee: &Binding, args: &[ArgV]) -> Binding {
        let call = Call { chain: &callee.chain, recv: callee.lit.as_deref(), args };
        let first_lit = args.first().and_then(|a| a.lit.clone());
        match callee.chain.as_str() {
            "builtins.__import__" | "importlib.import_module" => {
                return match first_lit {
                    // A module loaded by name is an import like any other: a local one is followed.
                    Some(m) => {
                        self.note_module(&m);
                        Binding { chain: m, lit: None }
                    }
                    None => {
                        self.out.push(Effect::Dynamic, &callee.chain);
                        Binding { chain: "?".to_owned(), lit: None }
                    }
                };
            }
            "builtins.getattr" => return self.lookup(args.first().and_then(|a| a.chain.clone()), args.get(1), "getattr"),
            c if c.ends_with(".__getattribute__") && args.len() == 2 => {
                return self.lookup(args.first().and_then(|a| a.chain.clone()), args.get(1), "__getattribute__");
            }
            c if c.ends_with(".__getattribute__") => {
                return self.lookup(c.strip_suffix(".__getattribute__").map(str::to_owned), args.first(), "__getattribute__");
            }
            "operator.attrgetter" | "operator.methodcaller" => {
                // The object the name is looked up on comes later: a runner's name, or a name the scan cannot read, is unseen.
                if first_lit.as_deref().is_none_or(|n| python_sinks::is_runner_name(n.rsplit('.').next().unwrap_or(n))) {
                    self.out.push(Effect::Dynamic, &callee.chain);
                }
                return Binding { chain: format!("{}()", callee.chain), lit: None };
            }
            "builtins.exec" | "builtins.eval" | "builtins.compile" => {
                match &first_lit {
                    Some(code) => {
                        let inner = analyse_at(code, self.depth + 1);
                        let failed = inner.error.is_some();
                        self.out.absorb(inner);
                        if args.first().is_some_and(|a| a.encoded) {
                            self.out.push(Effect::Dynamic, &format!("{} of a decoded string", callee.chain.trim_start_matches("builtins.")));
                        }
                        if failed && callee.chain != "builtins.eval" {
                            self.out.push(Effect::Dynamic, &callee.chain);
                        }
                    }
                    None => self.out.push(Effect::Dynamic, &callee.chain),
                }
                return Binding { chain: format!("{}()", callee.chain), lit: None };
            }
            _ => {}
        }
        for (effect, sink) in python_sinks::effects(&call, self.sql_lib) {
            self.out.push(effect, &sink);
        }
        Binding { chain: format!("{}()", callee.chain), lit: first_lit }
    }

    /// `getattr(base, attr)` and its spellings: the attribute's chain when the name
    /// is literal. A computed name on a module that holds runners, or a runner's name
    /// on something the scan cannot resolve to a module it knows
    /// (`getattr(o[0], "system")`, `getattr(f(), "run")`), is unseen code.
    fn lookup(&mut self, base: Option<String>, attr: Option<&ArgV>, how: &str) -> Binding {
        let base = base.unwrap_or_else(|| "?".to_owned());
        match attr.and_then(|a| a.lit.clone()) {
            Some(attr) => {
                let chain = format!("{base}.{attr}");
                if python_sinks::is_runner_name(&attr) && !python_sinks::is_sink(&chain) && !self.known_module(&base) {
                    self.out.push(Effect::Dynamic, &format!("{how}(…, \"{attr}\")"));
                }
                Binding { chain, lit: None }
            }
            None => {
                if python_sinks::sensitive_module(&base) {
                    self.out.push(Effect::Dynamic, how);
                }
                Binding { chain: "?".to_owned(), lit: None }
            }
        }
    }

    /// True when `chain` names a module the code imported, or one of its attributes,
    /// rather than what a call or a subscript returned.
    fn known_module(&self, chain: &str) -> bool {
        let root = chain.split('.').next().unwrap_or("");
        !chain.contains(['(', '[', '?']) && (root == "builtins" || self.out.imports.iter().any(|m| m.split('.').next() == Some(root)))
    }

    /// The resolved chain of a simple `name.attr` expression (for `getattr(os, …)`).
    pub(crate) fn simple_chain(&self, toks: &[Tok]) -> Option<String> {
        python_sinks::dotted_chain(toks, |n| self.resolve(n))
    }
}

pub(crate) trait Resolver {
    fn chain_of(&self, toks: &[Tok]) -> Option<String>;
}

impl Resolver for Scan<'_> {
    fn chain_of(&self, toks: &[Tok]) -> Option<String> {
        self.simple_chain(toks)
    }
}

/// `os`, `os.path`, `django.db.models`: a dotted module path, nothing that could name something else.
fn is_module_path(text: &str) -> bool {
    !text.is_empty()
        && text.split('.').all(|p| !p.is_empty() && !p.starts_with(|c: char| c.is_ascii_digit()) && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::analyse;
    use crate::lanes::scripts::Effect;

    fn effects(src: &str) -> Vec<Effect> {
        analyse(src).findings.into_iter().map(|f| f.effect).collect()
    }

    #[test]
    fn a_module_named_through_any_alias_of_import_is_followed_into_getattr() {
        // Checked with python 3.11: each runs the command.
        for src in [
            "m = __import__; getattr(m('os'), 'system')('reboot')",
            "i = __import__('importlib').import_module; getattr(i('os'), 'system')('reboot')",
            "g = getattr; g(g(__builtins__, '__import__')('os'), 'system')('reboot')",
            "import os; object.__getattribute__(os, 'system')('reboot')",
            "import os; os.__getattribute__('system')('reboot')",
        ] {
            assert!(effects(src).contains(&Effect::Shell("reboot".into())), "{src:?}: {:?}", effects(src));
        }
    }

    #[test]
    fn a_runners_name_looked_up_where_the_scan_cannot_follow_is_unseen() {
        for src in [
            "o = [__import__('os')]; getattr(o[0], 'system')('x')",
            "getattr((lambda: __import__('os'))(), 'system')('x')",
            "import operator, os; operator.methodcaller('system', 'x')(os)",
            "import operator, os; operator.attrgetter('system')(os)('x')",
        ] {
            assert!(effects(src).contains(&Effect::Dynamic), "{src:?}: {:?}", effects(src));
        }
        // A name no runner has, or a runner's name on a module the code imported that has no such sink, is no finding.
        for src in ["print(getattr(str, 'upper')('x'))", "import asyncio; print(getattr(asyncio, 'run'))", "m = __import__; print(m('json').dumps([1]))"] {
            assert!(effects(src).is_empty(), "{src:?}: {:?}", effects(src));
        }
    }
}
