//! A small Makefile reader for the make lane: rules (targets, prerequisites,
//! recipe lines), variable assignments, `.DEFAULT_GOAL`, and variable expansion
//! that turns make references into text the shell classifier can judge.
//!
//! It does not evaluate conditionals (both branches are kept, which can only add
//! recipe lines), does not read `include`d files (`make.rs` appends them), and
//! does not run anything: a
//! `$(shell …)` body is returned to the caller to classify, and references it
//! cannot resolve become shell parameter expansions (`${NAME}`), which the engine
//! treats as unknown (never as a safe literal).

use std::collections::HashMap;

/// One rule: `targets: prerequisites` plus its recipe lines.
#[derive(Debug, Default)]
pub(super) struct MkRule {
    pub targets: Vec<String>,
    pub prereqs: Vec<String>,
    pub recipe: Vec<String>,
}

#[derive(Debug, Default)]
pub(super) struct Makefile {
    pub rules: Vec<MkRule>,
    pub vars: HashMap<String, String>,
    pub default_goal: Option<String>,
    /// `$(shell …)` bodies and `!=` commands run while the Makefile is read.
    pub parse_time_shell: Vec<String>,
    /// `include` directives were present (targets may live elsewhere).
    pub includes: bool,
}

/// Built-in variables GNU make defines.
const BUILTINS: &[(&str, &str)] = &[
    ("CC", "cc"),
    ("CXX", "g++"),
    ("CPP", "cc -E"),
    ("FC", "f77"),
    ("LD", "ld"),
    ("AR", "ar"),
    ("AS", "as"),
    ("RM", "rm -f"),
    ("MAKE", "make"),
    ("INSTALL", "install"),
    ("LEX", "lex"),
    ("YACC", "yacc"),
    ("ARFLAGS", "rv"),
    ("CFLAGS", ""),
    ("CXXFLAGS", ""),
    ("CPPFLAGS", ""),
    ("LDFLAGS", ""),
    ("LDLIBS", ""),
    ("SHELL", "/bin/sh"),
    ("MAKEFLAGS", ""),
    ("MFLAGS", ""),
    ("TARGET_ARCH", ""),
    ("OUTPUT_OPTION", "-o $@"),
    ("GO", "go"),
    ("CARGO", "cargo"),
];

pub(super) fn parse(text: &str) -> Makefile {
    let mut mk = Makefile::default();
    let mut in_rule = false;
    let mut define_depth = 0usize;
    let mut lines = text.lines().peekable();
    while let Some(raw) = lines.next() {
        let mut line = raw.to_owned();
        // Backslash-newline continues a line (recipe or not).
        while line.ends_with('\\') {
            line.pop();
            match lines.next() {
                Some(next) => {
                    line.push(' ');
                    line.push_str(next.trim_start_matches('\t'));
                }
                None => break,
            }
        }
        let trimmed = line.trim();
        if define_depth > 0 {
            if trimmed.starts_with("endef") {
                define_depth -= 1;
            } else if trimmed.starts_with("define ") {
                define_depth += 1;
            }
            continue;
        }
        if let Some(body) = line.strip_prefix('\t') {
            if in_rule {
                if let Some(rule) = mk.rules.last_mut() {
                    rule.recipe.push(body.to_owned());
                }
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let content = strip_comment(trimmed);
        let first_word = content.split_whitespace().next().unwrap_or("");
        match first_word {
            "define" => {
                define_depth = 1;
                in_rule = false;
                continue;
            }
            "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif" | "vpath" | "unexport" => continue,
            "include" | "-include" | "sinclude" => {
                mk.includes = true;
                in_rule = false;
                continue;
            }
            _ => {}
        }
        let content = content.strip_prefix("export ").or_else(|| content.strip_prefix("override ")).unwrap_or(content).trim();
        match split_line(content) {
            Line::Assign { name, op, value } => {
                in_rule = false;
                if op == "!=" {
                    mk.parse_time_shell.push(value.to_owned());
                } else if matches!(op, ":=" | "::=" | ":::=") {
                    collect_shell_calls(value, &mut mk.parse_time_shell);
                }
                if name == ".DEFAULT_GOAL" {
                    mk.default_goal = Some(value.trim().to_owned());
                }
                let entry = mk.vars.entry(name.to_owned()).or_default();
                match op {
                    "+=" if !entry.is_empty() => {
                        entry.push(' ');
                        entry.push_str(value);
                    }
                    "?=" if !entry.is_empty() => {}
                    _ => *entry = value.to_owned(),
                }
            }
            Line::Rule { targets, prereqs, inline } => {
                // `target: VAR = value` sets a target-specific variable; no recipe.
                if prereqs.contains('=') {
                    in_rule = false;
                    continue;
                }
                let rule = MkRule {
                    targets: targets.split_whitespace().map(str::to_owned).collect(),
                    prereqs: prereqs.split_whitespace().filter(|p| *p != "|").map(str::to_owned).collect(),
                    recipe: inline.map(|r| vec![r.to_owned()]).unwrap_or_default(),
                };
                mk.rules.push(rule);
                in_rule = true;
            }
            Line::Other => in_rule = false,
        }
    }
    mk
}

fn strip_comment(s: &str) -> &str {
    let bytes = s.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'#' && (i == 0 || bytes[i - 1] != b'\\') {
            return s[..i].trim_end();
        }
    }
    s
}

enum Line<'a> {
    Assign { name: &'a str, op: &'a str, value: &'a str },
    Rule { targets: &'a str, prereqs: &'a str, inline: Option<&'a str> },
    Other,
}

fn split_line(s: &str) -> Line<'_> {
    let bytes = s.as_bytes();
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            _ if depth > 0 => {}
            b'=' => {
                let op_start = (0..i).rev().take_while(|&k| matches!(bytes[k], b':' | b'?' | b'+' | b'!')).last().unwrap_or(i);
                let name = s[..op_start].trim();
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Line::Other;
                }
                return Line::Assign { name, op: &s[op_start..=i], value: s[i + 1..].trim() };
            }
            b':' => {
                let rest = &s[i..];
                if rest.starts_with(":=") || rest.starts_with("::=") || rest.starts_with(":::=") {
                    continue;
                }
                let after = rest.trim_start_matches(':');
                // Static pattern rules `objs: %.o: %.c` keep the last part as prerequisites.
                let after = match after.split_once(':') {
                    Some((_, p)) if !after.contains('=') => p,
                    _ => after,
                };
                let (prereqs, inline) = match after.split_once(';') {
                    Some((p, r)) => (p, Some(r.trim())),
                    None => (after, None),
                };
                return Line::Rule { targets: s[..i].trim(), prereqs: prereqs.trim(), inline };
            }
            _ => {}
        }
    }
    Line::Other
}

fn collect_shell_calls(value: &str, out: &mut Vec<String>) {
    let mut rest = value;
    while let Some(i) = rest.find("$(shell ").or_else(|| rest.find("${shell ")) {
        let body_start = i + 8;
        match matching_close(&rest[i + 1..]) {
            Some(len) => {
                out.push(rest[body_start..i + 1 + len].to_owned());
                rest = &rest[i + 2 + len..];
            }
            None => {
                out.push(rest[body_start..].to_owned());
                return;
            }
        }
    }
}

/// Given text starting at `(` or `{`, the index of its matching closer.
fn matching_close(s: &str) -> Option<usize> {
    let open = s.as_bytes().first().copied()?;
    let close = if open == b'(' { b')' } else { b'}' };
    let mut depth = 0i32;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// What expanding a recipe line found besides its text.
#[derive(Debug, Default)]
pub(super) struct Expanded {
    pub text: String,
    /// `$(shell …)` bodies the expansion runs.
    pub shell: Vec<String>,
    /// Functions tiergate does not evaluate that can produce commands (`call`, `eval`, `file` …).
    pub opaque: Vec<String>,
}

crate::table! {
    /// Functions whose result is data (file names, words): their text becomes unknown, not a command.
    /// A name here is read as the function even where a variable of that name exists, as make does.
    DATA_FUNCTIONS = [
        "wildcard", "patsubst", "subst", "strip", "findstring", "filter", "filter-out", "sort", "word", "words", "wordlist", "firstword", "lastword", "dir",
        "notdir", "suffix", "basename", "addsuffix", "addprefix", "join", "abspath", "realpath", "if", "or", "and", "origin", "flavor", "info", "warning", "error",
        "intcmp", "let",
    ];
    probe "make -f - {}=echo <<< 'all: ; $({} :a=b)'" => T3, "shell.dynamic-command";
}

/// The context one recipe line expands in.
pub(super) struct Scope<'a> {
    pub vars: &'a HashMap<String, String>,
    pub overrides: &'a HashMap<String, String>,
    pub target: &'a str,
    pub prereqs: &'a [String],
}

impl Scope<'_> {
    fn lookup(&self, name: &str) -> Option<String> {
        if let Some(v) = self.overrides.get(name).or_else(|| self.vars.get(name)) {
            return Some(v.clone());
        }
        BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned())
    }
}

/// Variable references one recipe line may expand (bounds `A = $(B)$(B)…` fan-out).
const MAX_REFERENCES: u32 = 4096;

pub(super) fn expand(s: &str, scope: &Scope<'_>) -> Expanded {
    let mut out = Expanded::default();
    let mut budget = MAX_REFERENCES;
    out.text = expand_into(s, scope, 0, &mut out.shell, &mut out.opaque, &mut budget);
    out
}

fn placeholder(name: &str) -> String {
    let clean: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("${{MAKE_{clean}}}")
}

fn expand_into(s: &str, scope: &Scope<'_>, depth: u32, shell: &mut Vec<String>, opaque: &mut Vec<String>, budget: &mut u32) -> String {
    if *budget == 0 {
        if opaque.iter().all(|o| !o.starts_with("more variable")) {
            opaque.push("more variable references than tiergate expands".to_owned());
        }
        return placeholder("BUDGET");
    }
    *budget -= 1;
    if depth > 8 {
        opaque.push("deeply nested variables".to_owned());
        return placeholder("DEPTH");
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let b = s.as_bytes();
    while i < b.len() {
        if b[i] != b'$' || i + 1 >= b.len() {
            let ch = s[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
            continue;
        }
        let next = b[i + 1];
        match next {
            b'$' => {
                out.push('$');
                i += 2;
            }
            // Automatic variables: target and prerequisite names may hold references themselves.
            b'@' => {
                out.push_str(&expand_into(scope.target, scope, depth + 1, shell, opaque, budget));
                i += 2;
            }
            b'<' => {
                out.push_str(&expand_into(scope.prereqs.first().map_or("", String::as_str), scope, depth + 1, shell, opaque, budget));
                i += 2;
            }
            b'^' | b'+' | b'?' | b'|' => {
                out.push_str(&expand_into(&scope.prereqs.join(" "), scope, depth + 1, shell, opaque, budget));
                i += 2;
            }
            b'(' | b'{' => {
                let Some(len) = matching_close(&s[i + 1..]) else {
                    opaque.push("an unbalanced reference".to_owned());
                    out.push_str(&placeholder("UNBALANCED"));
                    break;
                };
                let inner = &s[i + 2..i + 1 + len];
                i += len + 2;
                let (head, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
                if head == "shell" {
                    let body = expand_into(args, scope, depth + 1, shell, opaque, budget);
                    shell.push(body);
                    out.push_str(&placeholder("SHELL"));
                } else if matches!(head, "call" | "eval" | "value" | "foreach" | "file" | "guile" | "load") && !args.is_empty() {
                    opaque.push(format!("$({head} …)"));
                    out.push_str(&placeholder(head));
                } else if DATA_FUNCTIONS.contains(head) && !args.is_empty() {
                    // Arguments may hold `$(shell …)`; expand them for that, keep the result unknown.
                    let _ = expand_into(args, scope, depth + 1, shell, opaque, budget);
                    out.push_str(&placeholder(head));
                } else {
                    // A computed name (`$(FOO_$(shell …))`, `$(X:$(shell …)=y)`, `$(nofn $(shell …))`):
                    // make expands the reference's own text before the lookup, so its `$(shell …)` runs.
                    if inner.contains('$') {
                        let _ = expand_into(inner, scope, depth + 1, shell, opaque, budget);
                    }
                    // Substitution reference `$(SRCS:.c=.o)`: still the variable's words.
                    let var = inner.split_once(':').filter(|(_, r)| r.contains('=')).map_or(inner, |(var, _)| var);
                    out.push_str(&reference(var, scope, depth, shell, opaque, budget));
                }
            }
            c if c.is_ascii_alphanumeric() || c == b'*' => {
                let name = (c as char).to_string();
                out.push_str(&if c == b'*' { placeholder("STEM") } else { reference(&name, scope, depth, shell, opaque, budget) });
                i += 2;
            }
            _ => {
                out.push('$');
                i += 1;
            }
        }
    }
    out
}

fn reference(name: &str, scope: &Scope<'_>, depth: u32, shell: &mut Vec<String>, opaque: &mut Vec<String>, budget: &mut u32) -> String {
    match name {
        "@D" | "@F" | "<D" | "<F" | "*D" | "*F" => return placeholder(name),
        _ => {}
    }
    match scope.lookup(name.trim()) {
        Some(v) => expand_into(&v, scope, depth + 1, shell, opaque, budget),
        None => placeholder(name),
    }
}

crate::tables![DATA_FUNCTIONS];

#[cfg(test)]
mod tests {
    use super::*;

    const MK: &str = "CC ?= gcc\nVERSION := $(shell git describe)\n\n.PHONY: all test\nall: build test\n\nbuild: main.c\n\t@$(CC) -o app $<\n\ntest:\n\t-pytest -q \\\n\t  tests/\n# comment\ndeploy: build ; kubectl apply -f k8s/\nfoo: CFLAGS += -g\n";

    #[test]
    fn rules_recipes_and_variables_are_read() {
        let mk = parse(MK);
        let names: Vec<&str> = mk.rules.iter().flat_map(|r| r.targets.iter().map(String::as_str)).collect();
        assert_eq!(names, [".PHONY", "all", "build", "test", "deploy"]);
        assert_eq!(mk.rules[2].recipe, ["@$(CC) -o app $<"]);
        assert_eq!(mk.rules[3].recipe, ["-pytest -q    tests/"]);
        assert_eq!(mk.rules[4].recipe, ["kubectl apply -f k8s/"]);
        assert_eq!(mk.vars.get("CC").map(String::as_str), Some("gcc"));
        assert_eq!(mk.parse_time_shell, ["git describe"]);
    }

    #[test]
    fn fan_out_is_bounded() {
        let mut vars = HashMap::new();
        for (v, next) in [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"), ("E", "F"), ("F", "G"), ("G", "H")] {
            vars.insert(v.to_owned(), format!("$({next})").repeat(10));
        }
        let none = HashMap::new();
        let scope = Scope { vars: &vars, overrides: &none, target: "t", prereqs: &[] };
        let e = expand("$(A)", &scope);
        assert!(!e.opaque.is_empty() && e.text.len() < 1_000_000);
    }

    #[test]
    fn expansion_resolves_known_and_marks_unknown() {
        let vars: HashMap<String, String> = [("CC".to_owned(), "gcc".to_owned())].into();
        let none = HashMap::new();
        let pre = vec!["main.c".to_owned()];
        let scope = Scope { vars: &vars, overrides: &none, target: "app", prereqs: &pre };
        assert_eq!(expand("$(CC) -o $@ $< $$HOME", &scope).text, "gcc -o app main.c $HOME");
        assert_eq!(expand("$(PYTHON) -m x", &scope).text, "${MAKE_PYTHON} -m x");
        let e = expand("echo $(shell rm -rf /tmp/x) $(call f,1)", &scope);
        assert_eq!(e.shell, ["rm -rf /tmp/x"]);
        assert_eq!(e.opaque, ["$(call …)"]);
    }

    #[test]
    fn computed_names_run_their_shell_calls() {
        let none = HashMap::new();
        let scope = Scope { vars: &none, overrides: &none, target: "t", prereqs: &[] };
        for line in ["echo $(FOO_$(shell rm -rf ~/a))", "echo $(X:$(shell rm -rf ~/a)=y)", "echo $(nofn $(shell rm -rf ~/a))"] {
            assert_eq!(expand(line, &scope).shell, ["rm -rf ~/a"], "{line}");
        }
        assert_eq!(expand("echo $(FOO_$(call f,1))", &scope).opaque, ["$(call …)"]);
    }
}
