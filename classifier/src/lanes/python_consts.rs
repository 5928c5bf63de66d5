//! Names the AST pass may read as literals: `p = 'django/db/models/base.py'`
//! then `open(p, 'w')` writes that file, not a path computed at run time, and
//! `cmd = ['git', 'status']` then `subprocess.run(cmd)` runs that argv (issue 29). A name qualifies only when the whole source binds it once, to a
//! string literal (a `str` never changes in place), and every other occurrence
//! is in a position the grammar only reads. Any other occurrence — a second
//! assignment, `+=`, a loop, `with … as`, `except … as` or comprehension target,
//! a parameter, `global`, `del`, an import, a walrus, a pattern — disqualifies
//! it, and so does any way of rebinding a name without writing it
//! (`exec`, `globals()`, `setattr`, `__main__`, `sys.modules`, frames, `import *`): then nothing is constant.

use std::collections::HashMap;

use tree_sitter::Node;

use super::python_sinks::{self, ArgV};
use super::python_tokens::tokenize;
use crate::words;
use crate::words::Words;

/// Parents under which an identifier is only read.
const READ_PARENTS: Words = words![
    "argument_list", "keyword_argument", "binary_operator", "comparison_operator", "boolean_operator", "not_operator", "unary_operator",
    "parenthesized_expression", "interpolation", "expression_statement", "return_statement", "conditional_expression", "call", "attribute", "subscript",
    "assert_statement", "print_statement",
];

/// Identifiers that rebind names out of sight: with any of them in the source,
/// no name is taken as constant.
const REBINDERS: Words = words![
    "exec", "eval", "compile", "execfile", "globals", "locals", "vars", "setattr", "delattr", "__dict__", "__main__", "__builtins__", "builtins", "f_locals",
    "f_globals", "_getframe", "modules", "inspect", "ctypes", "importlib", "runpy", "__import__",
];

/// Statements that bind names the source does not spell: `from m import *`, Python 2's `exec "…"`.
const HIDDEN_BINDERS: Words = words!["wildcard_import", "exec_statement"];

/// The names bound once to a string literal and otherwise only read, or bound once
/// to a list of string literals and otherwise only a subprocess's argv, with their value.
pub(crate) fn constants(nodes: &[Node<'_>], src: &str) -> HashMap<String, ArgV> {
    let text = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    // None: the name is disqualified.
    let mut seen: HashMap<&str, Option<Option<ArgV>>> = HashMap::new();
    if nodes.iter().any(|n| HIDDEN_BINDERS.contains(n.kind())) {
        return HashMap::new();
    }
    for n in nodes.iter().filter(|n| n.kind() == "identifier") {
        let name = text(*n);
        if REBINDERS.contains(name) {
            return HashMap::new();
        }
        let Some(parent) = n.parent() else { continue };
        // `x.name`: an attribute, not the variable.
        if parent.kind() == "attribute" && parent.child_by_field_name("attribute") == Some(*n) {
            continue;
        }
        let entry = seen.entry(name).or_insert(Some(None));
        if parent.kind() == "assignment" && parent.child_by_field_name("left") == Some(*n) {
            let value = parent.child_by_field_name("right").and_then(|r| string_value(r, text(r)).or_else(|| argv_value(r, text(r))));
            *entry = match (entry.take(), value) {
                (Some(None), Some(v)) => Some(Some(v)),
                _ => None,
            };
        } else if !READ_PARENTS.contains(parent.kind()) {
            *entry = None;
        }
    }
    let mut out: HashMap<String, ArgV> = seen.into_iter().filter_map(|(name, v)| Some((name.to_owned(), v??))).collect();
    // A list changes in place (`cmd.append('--force')`, `cmd[0] = 'rm'`, `f(cmd)` that
    // mutates it), so a name bound to one stays constant only where each use is a
    // subprocess's argv, spelled out: nothing between the binding and the call can
    // change what runs.
    out.retain(|name, v| {
        v.list.is_none() || nodes.iter().filter(|n| n.kind() == "identifier" && text(**n) == name).all(|n| binds(*n) || is_spelled_argv(*n, &text))
    });
    out
}

/// `n` is the left side of an assignment.
fn binds(n: Node<'_>) -> bool {
    n.parent().is_some_and(|p| p.kind() == "assignment" && p.child_by_field_name("left") == Some(n))
}

/// Calls whose argv a list constant may be, spelled as written (an alias or a bare
/// `run` imported from the module is not read here, so the name stays computed).
const ARGV_CALLS: Words = words!["subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen"];

/// `n` is the argv of a subprocess call spelled in full: its first positional
/// argument (`subprocess.run(cmd, check=True)`) or its `args=` keyword.
fn is_spelled_argv<'a>(n: Node<'a>, text: &dyn Fn(Node<'a>) -> &'a str) -> bool {
    let Some(parent) = n.parent() else { return false };
    let list = match parent.kind() {
        "argument_list" => (parent.named_child(0) == Some(n)).then_some(parent),
        "keyword_argument" if parent.child_by_field_name("value") == Some(n) => {
            parent.child_by_field_name("name").filter(|k| text(*k) == "args").and_then(|_| parent.parent())
        }
        _ => None,
    };
    let call = list.and_then(|l| l.parent()).filter(|c| c.kind() == "call");
    call.and_then(|c| c.child_by_field_name("function")).is_some_and(|f| ARGV_CALLS.contains(text(f)))
}

/// A list or tuple of plain string literals (`['git', 'status']`): an argv.
fn argv_value(node: Node<'_>, text: &str) -> Option<ArgV> {
    if !matches!(node.kind(), "list" | "tuple") {
        return None;
    }
    let toks = tokenize(text).ok()?;
    let v = python_sinks::arg_value(&toks, &HashMap::new(), None);
    (v.list.as_ref().is_some_and(|l| !l.is_empty()) && v.kw.is_none()).then_some(v)
}

/// A plain string literal (adjacent and `+`-joined pieces folded; no f-string holes).
fn string_value(node: Node<'_>, text: &str) -> Option<ArgV> {
    if !matches!(node.kind(), "string" | "concatenated_string") {
        return None;
    }
    let toks = tokenize(text).ok()?;
    let v = python_sinks::arg_value(&toks, &HashMap::new(), None);
    (v.lit.is_some() && v.kw.is_none()).then_some(v)
}
