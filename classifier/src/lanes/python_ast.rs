//! The parser front end of the Python analysis: when `tree-sitter-python`
//! parses the code with no ERROR or MISSING node, every `call` node of the
//! tree (inside f-string holes, lambdas, decorators, default values and
//! comprehensions included) is resolved through `import x as y` /
//! `from x import y` aliases and attribute chains, and its arguments are
//! summarised by the same `python_sinks::arg_value` the token scanner uses,
//! so the sink catalogue and its semantics are shared.
//!
//! It does not replace the token scanner (`python.rs`), which still runs on
//! every input: it keeps the bindings (`p = Path("x")`), the dynamic forms
//! (`__import__`, `getattr`, `exec` of literals) and the fallback for code the
//! parser rejects (Python 2, fragments). This pass only adds findings, so it
//! can tighten a verdict and never loosen one.
//! Why this shape: `docs/decisions/0003-python-analysis.md`.

use crate::words;
use crate::words::Words;
use std::cell::Cell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser};

use super::python_sinks::{self, ArgV, Call};
use super::python_tokens::{tokenize, Tok};
use super::scripts::{Analysis, Effect};

/// Larger sources are left to the token scanner alone: the parse is linear,
/// but the shell layer's byte budget is the real bound and this keeps one call cheap.
const MAX_AST_BYTES: usize = 256 * 1024;

/// Attribute/call chains deeper than this are not resolved (no unbounded recursion); such a call is reported as unseen code.
const MAX_CHAIN_DEPTH: usize = 48;

/// Calls the token scanner treats specially (module lookups by name, `exec`
/// of literals): the AST pass leaves them to it rather than judging them twice.
const SCANNER_ONLY: Words = words!["builtins.__import__", "importlib.import_module", "builtins.getattr", "builtins.exec", "builtins.eval", "builtins.compile"];

/// Adds the findings of the AST pass to `out`. Returns false (and adds
/// nothing) when the code does not parse cleanly, so the caller knows only the
/// token scanner judged it.
pub(crate) fn add_ast_findings(src: &str, out: &mut Analysis) -> bool {
    if src.len() > MAX_AST_BYTES {
        return false;
    }
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_python::LANGUAGE.into()).is_err() {
        return false;
    }
    let Some(tree) = parser.parse(src, None) else { return false };
    let root = tree.root_node();
    if root.has_error() {
        return false;
    }
    let nodes = preorder(root);
    if nodes.iter().any(|n| n.is_missing() || n.is_error()) {
        return false;
    }
    let consts = super::python_consts::constants(&nodes, src);
    let mut scan = AstScan { src, aliases: HashMap::new(), stars: Vec::new(), sql_lib: false, consts, too_deep: Cell::new(false) };
    for n in &nodes {
        match n.kind() {
            "import_statement" => scan.import(*n),
            "import_from_statement" => scan.import_from(*n),
            _ => {}
        }
    }
    for n in &nodes {
        if n.kind() != "call" {
            continue;
        }
        let Some(func) = n.child_by_field_name("function") else { continue };
        let Some((chain, recv)) = scan.callee(func, 0) else {
            // A callee past the depth bound is not read, and what is not read may be a
            // sink this pass alone would have seen (an argument only `python_consts`
            // knows): unseen code, never nothing.
            if scan.too_deep.take() {
                out.push(Effect::Dynamic, &format!("a call chain deeper than {MAX_CHAIN_DEPTH}"));
            }
            continue;
        };
        if SCANNER_ONLY.contains(chain.as_str()) {
            continue;
        }
        let args = n.child_by_field_name("arguments").map(|a| scan.args(a)).unwrap_or_default();
        let call = Call { chain: &chain, recv: recv.as_deref(), args: &args };
        for (effect, sink) in python_sinks::effects(&call, scan.sql_lib) {
            if !out.findings.iter().any(|f| f.effect == effect && f.sink == sink) {
                out.push(effect, &sink);
            }
        }
    }
    true
}

/// Every node of the tree in document order, without recursion (deeply nested
/// code cannot overflow the stack).
fn preorder(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

struct AstScan<'s> {
    src: &'s str,
    aliases: HashMap<String, String>,
    stars: Vec<String>,
    sql_lib: bool,
    /// Names bound once to a string literal and only read (`python_consts`).
    consts: HashMap<String, ArgV>,
    /// Set when `callee` gave up at `MAX_CHAIN_DEPTH`.
    too_deep: Cell<bool>,
}

impl<'s> AstScan<'s> {
    fn text(&self, n: Node<'_>) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    fn note_module(&mut self, module: &str) {
        let root = module.split('.').next().unwrap_or("");
        if python_sinks::SQL_LIBS.contains(root) {
            self.sql_lib = true;
        }
    }

    /// `import a.b as c, d`: `c` → `a.b`, `d` → `d`, and `a.b` alone binds `a`.
    fn import(&mut self, n: Node<'_>) {
        let mut cursor = n.walk();
        let names: Vec<Node<'_>> = n.children_by_field_name("name", &mut cursor).collect();
        for name in names {
            if name.kind() == "aliased_import" {
                let (Some(m), Some(a)) = (name.child_by_field_name("name"), name.child_by_field_name("alias")) else { continue };
                let module = self.text(m).to_owned();
                self.note_module(&module);
                self.aliases.insert(self.text(a).to_owned(), module);
            } else {
                let module = self.text(name).to_owned();
                self.note_module(&module);
                let root = module.split('.').next().unwrap_or("").to_owned();
                self.aliases.insert(root.clone(), root);
            }
        }
    }

    /// `from m import x as y, z` and `from m import *`.
    fn import_from(&mut self, n: Node<'_>) {
        let Some(m) = n.child_by_field_name("module_name") else { return };
        let module: String = self.text(m).chars().filter(|c| !c.is_whitespace()).collect();
        self.note_module(&module);
        let mut cursor = n.walk();
        let names: Vec<Node<'_>> = n.children_by_field_name("name", &mut cursor).collect();
        for name in names {
            let (orig, alias) = if name.kind() == "aliased_import" {
                let (Some(o), Some(a)) = (name.child_by_field_name("name"), name.child_by_field_name("alias")) else { continue };
                (self.text(o), self.text(a))
            } else {
                (self.text(name), self.text(name))
            };
            self.aliases.insert(alias.to_owned(), format!("{module}.{orig}"));
        }
        let mut cursor = n.walk();
        if n.children(&mut cursor).any(|c| c.kind() == "wildcard_import") {
            self.stars.push(module);
        }
    }

    fn resolve(&self, name: &str) -> String {
        if let Some(c) = self.aliases.get(name) {
            return c.clone();
        }
        python_sinks::resolve_unaliased(name, &self.stars)
    }

    /// The resolved chain of a callee expression, and the literal its receiver
    /// was built from (`Path("x").unlink` → `x`), named as the token scanner
    /// names them (`pathlib.Path().unlink`). None for what it cannot name.
    fn callee(&self, n: Node<'_>, depth: usize) -> Option<(String, Option<String>)> {
        if depth > MAX_CHAIN_DEPTH {
            self.too_deep.set(true);
            return None;
        }
        match n.kind() {
            "identifier" => Some((self.resolve(self.text(n)), None)),
            "parenthesized_expression" => {
                let mut cursor = n.walk();
                let inner: Vec<Node<'_>> = n.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect();
                match inner.as_slice() {
                    [one] => self.callee(*one, depth + 1),
                    _ => None,
                }
            }
            "attribute" => {
                let (base, recv) = self.callee(n.child_by_field_name("object")?, depth + 1)?;
                let attr = self.text(n.child_by_field_name("attribute")?);
                Some((format!("{base}.{attr}"), recv))
            }
            "subscript" => {
                let (base, recv) = self.callee(n.child_by_field_name("value")?, depth + 1)?;
                Some((format!("{base}[]"), recv))
            }
            "call" => {
                let (func, _) = self.callee(n.child_by_field_name("function")?, depth + 1)?;
                let args = n.child_by_field_name("arguments").map(|a| self.args(a)).unwrap_or_default();
                let first = args.first().and_then(|a| a.lit.clone());
                match func.as_str() {
                    // `__import__("os").system`: the module itself, as the scanner follows it.
                    "builtins.__import__" | "importlib.import_module" => first.map(|m| (m, None)),
                    "builtins.getattr" => {
                        let base = args.first().and_then(|a| a.chain.clone())?;
                        let attr = args.get(1).and_then(|a| a.lit.clone())?;
                        Some((format!("{base}.{attr}"), None))
                    }
                    _ => Some((format!("{func}()"), first)),
                }
            }
            _ => None,
        }
    }

    /// Summarises each argument by re-tokenizing its source text, so keyword
    /// names, folded literals, lists and decoded literals mean what they mean
    /// to the token scanner.
    fn args(&self, list: Node<'_>) -> Vec<ArgV> {
        if list.kind() != "argument_list" {
            // `f(x for x in y)`: one generator argument, nothing literal.
            return vec![ArgV::default()];
        }
        let mut cursor = list.walk();
        let children: Vec<Node<'_>> = list.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect();
        children
            .into_iter()
            .map(|c| match tokenize(self.text(c)) {
                Ok(mut toks) => {
                    // Inside call brackets a line break is not a statement end.
                    toks.retain(|t| !matches!(t, Tok::Newline));
                    python_sinks::arg_value(&toks, &self.consts, Some(self))
                }
                Err(_) => ArgV::default(),
            })
            .collect()
    }
}

impl super::python::Resolver for AstScan<'_> {
    /// `name.attr…` resolved through the aliases, or the module of a literal
    /// `__import__("os")` (as `python.rs`'s `simple_chain`).
    fn chain_of(&self, toks: &[Tok]) -> Option<String> {
        python_sinks::dotted_chain(toks, |n| self.resolve(n))
    }
}

#[cfg(test)]
mod tests {
    use super::super::python::analyse;
    use super::super::scripts::{Analysis, Effect};
    use super::add_ast_findings;

    fn ast_only(src: &str) -> (bool, Analysis) {
        let mut out = Analysis::default();
        let parsed = add_ast_findings(src, &mut out);
        (parsed, out)
    }

    fn has_exec(a: &Analysis) -> bool {
        a.findings.iter().any(|f| matches!(f.effect, Effect::Shell(_) | Effect::Argv(_)))
    }

    #[test]
    fn an_aliased_call_inside_an_f_string_hole_is_found() {
        // The scanner analyses the hole on its own and loses the `sp` alias; the tree keeps it.
        let src = "import subprocess as sp\nprint(f\"{sp.run(['rm', '-rf', '/'])}\")";
        let (parsed, a) = ast_only(src);
        assert!(parsed);
        assert!(has_exec(&a), "{a:?}");
        assert!(has_exec(&analyse(src)));
    }

    #[test]
    fn a_parenthesised_callee_is_resolved() {
        let (parsed, a) = ast_only("import os\n(os.system)('rm -rf /')");
        assert!(parsed);
        assert!(a.findings.iter().any(|f| f.effect == Effect::Shell("rm -rf /".into())), "{a:?}");
    }

    #[test]
    fn calls_in_lambdas_decorators_and_defaults_are_found_with_their_arguments() {
        let (_, a) = ast_only("from shutil import rmtree as r\nf = lambda: r('/srv')\n");
        assert!(a.findings.iter().any(|f| matches!(f.effect, Effect::Delete { .. })), "{a:?}");
        let (_, a) = ast_only("import os\n@deco(os.remove('/etc/x'))\ndef g(p=open('/etc/passwd', mode='a')):\n    pass\n");
        assert!(a.findings.iter().any(|f| matches!(f.effect, Effect::Delete { .. })), "{a:?}");
        assert!(a.findings.iter().any(|f| matches!(f.effect, Effect::Write(_))), "{a:?}");
    }

    #[test]
    fn a_string_that_only_looks_like_a_call_adds_nothing() {
        let (parsed, a) = ast_only("print(\"os.system('rm -rf /')\")\nx = 'shutil.rmtree(\"/\")'");
        assert!(parsed);
        assert!(a.findings.is_empty(), "{a:?}");
    }

    #[test]
    fn code_the_parser_rejects_falls_back_to_the_scanner() {
        // A fragment with a stray bracket (and a Python 2 backtick): no clean tree, so only the token scanner judges it.
        let src = "import os\nos.system('rm -rf /'))\nx = `y`";
        let (parsed, a) = ast_only(src);
        assert!(!parsed);
        assert!(a.findings.is_empty());
        assert!(has_exec(&analyse(src)));
    }

    #[test]
    fn deep_nesting_neither_panics_nor_recurses_without_bound() {
        let deep = format!("import os\nx = {}os.system('a'){}", "(".repeat(5000), ")".repeat(5000));
        let _ = ast_only(&deep);
        let chain = format!("import os\nos{}.system('a')", ".a".repeat(5000));
        let _ = ast_only(&chain);
    }
}
