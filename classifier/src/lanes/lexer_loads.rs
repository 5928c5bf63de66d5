//! Code loaders of Ruby, Perl, PHP and Lua (`require`, `require_relative`,
//! `autoload`, `include`, `require_once`, Lua's `require`): a file or module named by
//! a literal becomes an import, which the caller follows where it is local
//! (`lanes::scripts::load_candidates`), as it follows Python's and Node's; a name the
//! code computes (`require ARGV[0]`, `include $argv[1]`) loads a program no one has
//! seen, so it is `Effect::Dynamic`.
//!
//! Loaders that run whatever they are given (`load`, `do FILE`, `dofile`,
//! `loadfile`) are sinks of `lexer_sinks.rs`, unseen whatever their argument.

use super::lexer::Tok;
use super::lexer_sinks::{args_after, lit, member_op};
use super::scripts::{Analysis, Effect, Lang};

/// What a loader's argument names.
#[derive(Debug, PartialEq, Eq)]
enum Load {
    /// A file or module, as the language's loader looks it up (`load_candidates`).
    Spec(String),
    /// Not a load: Perl's `require 5.010` checks the interpreter's version.
    Nothing,
    /// Computed at run time.
    Computed,
}

/// Scans `toks` for loader calls, recording imports and unseen loads in `out`.
pub(super) fn scan(lang: Lang, toks: &[Tok], out: &mut Analysis) {
    // Perl's `use lib "DIR"`: where the modules the code names are looked up too.
    let mut lib_dirs: Vec<String> = Vec::new();
    let mut modules: Vec<String> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Tok::Ident(name) = t else { continue };
        let member = i > 0 && member_op(lang, &toks[i - 1]);
        // Ruby reaches `require` through `Kernel.require` as well.
        let through_kernel = member && lang == Lang::Ruby && matches!(toks.get(i.wrapping_sub(2)), Some(Tok::Ident(k)) if k == "Kernel");
        if member && !through_kernel {
            continue;
        }
        if lang == Lang::Perl && name == "@INC" {
            if let Some(dirs) = inc_change(toks, i) {
                match dirs {
                    Some(dirs) => lib_dirs.extend(dirs),
                    None => out.push(Effect::Dynamic, name),
                }
            }
            continue;
        }
        let loads = match (lang, name.as_str()) {
            (Lang::Ruby, "require" | "require_relative") => vec![call(toks, i, lang, |a| literal(a.first()))],
            // `autoload :Name, "file"`: the file is required when the constant is used.
            // Its bare form starts with a symbol, which is no bare call's first word.
            (Lang::Ruby, "autoload") if matches!(toks.get(i + 1), Some(Tok::Punct(':'))) => {
                let words = statement_after(toks, i);
                vec![literal(words.split(|t| *t == Tok::Punct(',')).nth(1).map(<[Tok]>::to_vec).as_ref())]
            }
            (Lang::Ruby, "autoload") => vec![call(toks, i, lang, |a| literal(a.get(1)))],
            (Lang::Perl, "require") => vec![call(toks, i, lang, |a| perl(a.first()))],
            // `use Foo::Bar LIST;` (and `no`) loads Foo/Bar.pm as the code compiles; only
            // at the start of a statement (`$h{use}` is a hash key).
            (Lang::Perl, "use" | "no") if matches!(i.checked_sub(1).map(|p| &toks[p]), None | Some(Tok::Sep | Tok::Punct('{' | '}'))) => {
                perl_use(&statement_after(toks, i), &mut lib_dirs)
            }
            (Lang::Php, "include" | "include_once" | "require" | "require_once") => vec![php(&statement_after(toks, i))],
            (Lang::Lua, "require") => vec![call(toks, i, lang, |a| literal(a.first()))],
            _ => Vec::new(),
        };
        for load in loads {
            match load {
                Load::Spec(spec) => {
                    if lang == Lang::Perl && spec.ends_with(".pm") {
                        modules.push(spec.clone());
                    }
                    out.import(&spec)
                }
                Load::Computed => out.push(Effect::Dynamic, name),
                Load::Nothing => {}
            }
        }
    }
    for dir in &lib_dirs {
        for m in &modules {
            out.import(&format!("{}/{m}", dir.trim_end_matches('/')));
        }
    }
}

/// Perl's `use`/`no` statement (its words after the keyword): a version (`use 5.010`,
/// `use v5.36`) loads nothing; `use lib LIST` adds literal directories to `lib_dirs`
/// (a computed one, `use lib "$ENV{X}"`, makes every later load unseen: `Computed`);
/// `use parent LIST` / `use base LIST` load each class named (unless `-norequire`);
/// any other module is loaded (`use POSIX qw(floor)` → `POSIX.pm`, a library).
fn perl_use(words: &[Tok], lib_dirs: &mut Vec<String>) -> Vec<Load> {
    // The module's name: `Foo`, `Foo::Bar` (`::` lexes as an arrow); its import list follows.
    let mut module = usize::from(matches!(words.first(), Some(Tok::Ident(_))));
    while module > 0 && matches!(words.get(module..module + 2), Some([Tok::Arrow, Tok::Ident(_)])) {
        module += 2;
    }
    // The list's literal words (`qw(a b)` is one literal: split at spaces); `None` when one is computed.
    let list = || -> Option<Vec<String>> {
        let mut out = Vec::new();
        for item in words[module..].split(|t| *t == Tok::Punct(',')).filter(|w| !w.is_empty()) {
            if let [Tok::Punct('-'), Tok::Ident(flag)] = item {
                out.push(format!("-{flag}"));
                continue;
            }
            out.extend(lit(Some(&item.to_vec()))?.split_whitespace().map(str::to_owned));
        }
        Some(out)
    };
    match &words[..module] {
        [] if matches!(words.first(), Some(Tok::Num)) => vec![Load::Nothing],
        [] => Vec::new(),
        [Tok::Ident(m)] if m == "lib" => match list() {
            Some(dirs) => {
                lib_dirs.extend(dirs);
                vec![Load::Nothing]
            }
            None => vec![Load::Computed],
        },
        [Tok::Ident(m)] if m == "parent" || m == "base" => match list() {
            Some(classes) if classes.iter().any(|c| c == "-norequire") => vec![Load::Nothing],
            Some(classes) => classes.iter().map(|c| Load::Spec(format!("{}.pm", c.replace("::", "/")))).chain([Load::Spec(format!("{m}.pm"))]).collect(),
            None => vec![Load::Computed],
        },
        name => vec![perl(Some(&name.to_vec()))],
    }
}

/// A change of Perl's `@INC` at `toks[i]`, which `use lib` makes too: `push`/`unshift`
/// of literal directories gives them (`BEGIN { unshift @INC, "lib" }`), any other
/// write (`@INC = …`, a computed directory) `Some(None)`: every later load is unseen.
/// Reading it (`print "@INC"`) is no change: `None`.
fn inc_change(toks: &[Tok], i: usize) -> Option<Option<Vec<String>>> {
    let before = toks[..i].iter().rev().find(|t| **t != Tok::Punct('('));
    if matches!(before, Some(Tok::Ident(f)) if f == "push" || f == "unshift") {
        // The statement ends at `;` or at the block's `}` (`BEGIN { unshift @INC, "lib" }`).
        let rest: Vec<Tok> = statement_after(toks, i).into_iter().take_while(|t| *t != Tok::Punct('}')).collect();
        let Some((Tok::Punct(','), items)) = rest.split_first() else { return Some(None) };
        let items = items.strip_suffix(&[Tok::Punct(')')]).unwrap_or(items);
        let dirs: Option<Vec<String>> = items.split(|t| *t == Tok::Punct(',')).filter(|w| !w.is_empty()).map(|w| lit(Some(&w.to_vec()))).collect();
        return Some(dirs);
    }
    let assigned = matches!(toks.get(i + 1), Some(Tok::Punct('='))) && !matches!(toks.get(i + 2), Some(Tok::Punct('=' | '~')));
    assigned.then_some(None)
}

/// A loader called with arguments, read by `read`; a loader named but not called
/// (`pcall(require, arg[1])`, `each(&method(:require))`) is handed names the code computes.
fn call(toks: &[Tok], i: usize, lang: Lang, read: impl Fn(&[Vec<Tok>]) -> Load) -> Load {
    args_after(toks, i, lang).map_or(Load::Computed, |a| read(&a))
}

/// Ruby and Lua: a literal names a feature (`"json"`, `"./lib/x"`); anything else is computed.
fn literal(arg: Option<&Vec<Tok>>) -> Load {
    lit(arg).map_or(Load::Computed, Load::Spec)
}

/// Perl: a bareword is a module (`Foo::Bar` → `Foo/Bar.pm`), a string a file, a
/// number or `v5.10` a version check; anything else is computed.
fn perl(arg: Option<&Vec<Tok>>) -> Load {
    let Some(arg) = arg else { return Load::Computed };
    if let Some(file) = lit(Some(arg)) {
        return Load::Spec(file);
    }
    match arg.as_slice() {
        [Tok::Num, ..] => Load::Nothing,
        [Tok::Ident(v), ..] if v.strip_prefix('v').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) => Load::Nothing,
        words => {
            let mut parts = Vec::new();
            for (k, t) in words.iter().enumerate() {
                match t {
                    Tok::Ident(w) if k % 2 == 0 && w.starts_with(|c: char| c.is_alphabetic() || c == '_') => parts.push(w.as_str()),
                    Tok::Arrow if k % 2 == 1 => {}
                    _ => return Load::Computed,
                }
            }
            if parts.is_empty() || words.len() % 2 == 0 {
                return Load::Computed;
            }
            Load::Spec(format!("{}.pm", parts.join("/")))
        }
    }
}

/// PHP's `include` is a statement whose operand runs to the `;` (`include "x.php";`,
/// `include("x.php");`): a literal path, or one beside the file (`__DIR__ . "/x.php"`,
/// `dirname(__FILE__) . "/x.php"`); anything else is computed.
fn php(operand: &[Tok]) -> Load {
    let inner = match operand {
        [Tok::Punct('('), rest @ .., Tok::Punct(')')] => rest,
        all => all,
    };
    let here = |t: &[Tok]| match t {
        [Tok::Ident(d)] => d == "__DIR__",
        [Tok::Ident(f), Tok::Punct('('), Tok::Ident(file), Tok::Punct(')')] => f == "dirname" && file == "__FILE__",
        _ => false,
    };
    match inner {
        [Tok::Str { text, interp: false }] => Load::Spec(text.clone()),
        [dir @ .., Tok::Punct('.'), Tok::Str { text, interp: false }] if here(dir) && text.starts_with('/') => Load::Spec(format!(".{text}")),
        _ => Load::Computed,
    }
}

/// The tokens after `toks[i]` up to the end of its statement.
fn statement_after(toks: &[Tok], i: usize) -> Vec<Tok> {
    toks[i + 1..].iter().take_while(|t| !matches!(t, Tok::Sep)).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::super::lexer_sinks::analyse;
    use super::*;

    fn check(lang: Lang, src: &str, imports: &[&str], unseen: bool) {
        let a = analyse(lang, src);
        assert_eq!(a.imports, imports, "{src}");
        assert_eq!(a.findings.iter().any(|f| f.effect == Effect::Dynamic), unseen, "{src}: {:?}", a.findings);
    }

    #[test]
    fn perl_use_loads_its_module_and_use_lib_adds_where() {
        check(Lang::Perl, "use 5.010; use v5.36; no warnings 'once'", &["warnings.pm"], false);
        check(Lang::Perl, "use POSIX qw(floor); use Foo::Bar 1.2 ();", &["POSIX.pm", "Foo/Bar.pm"], false);
        check(Lang::Perl, "use lib 'lib', \"t/lib\"; use Wipe;", &["Wipe.pm", "lib/Wipe.pm", "t/lib/Wipe.pm"], false);
        check(Lang::Perl, "use lib $ENV{LIB}; use Wipe;", &["Wipe.pm"], true);
        check(Lang::Perl, "my %h = (use => 1); print $h{use}", &[], false);
        check(Lang::Perl, "BEGIN { unshift @INC, 'lib' } use Wipe;", &["Wipe.pm", "lib/Wipe.pm"], false);
        check(Lang::Perl, "BEGIN { push(@INC, 'lib', $ENV{X}) } use Wipe;", &["Wipe.pm"], true);
        check(Lang::Perl, "@INC = ('x'); print \"@INC\"; print scalar(@INC)", &[], true);
        check(Lang::Perl, "print join(',', @INC)", &[], false);
        check(
            Lang::Perl,
            "use lib qw(lib t/lib); use parent 'Foo::Base', 'Bar'; use parent -norequire, 'Baz';",
            &["Foo/Base.pm", "Bar.pm", "parent.pm", "lib/Foo/Base.pm", "lib/Bar.pm", "lib/parent.pm", "t/lib/Foo/Base.pm", "t/lib/Bar.pm", "t/lib/parent.pm"],
            false,
        );
    }

    #[test]
    fn a_literal_load_is_an_import_and_a_computed_one_is_unseen() {
        check(Lang::Ruby, "require 'json'", &["json"], false);
        check(Lang::Ruby, "require_relative('lib/x') if true", &["lib/x"], false);
        check(Lang::Ruby, "Kernel.require ARGV[0]", &[], true);
        check(Lang::Ruby, "autoload :X, './x'", &["./x"], false);
        check(Lang::Ruby, "autoload(:X, './y')", &["./y"], false);
        check(Lang::Ruby, "autoload :X, ARGV[0]", &[], true);
        check(Lang::Ruby, "%w[a b].each { |l| require l }", &[], true);
        check(Lang::Ruby, "ARGV.each(&method(:require))", &[], true);
        check(Lang::Perl, "use strict; require Foo::Bar; require 5.010; require v5", &["strict.pm", "Foo/Bar.pm"], false);
        check(Lang::Perl, "require 'x.pl'", &["x.pl"], false);
        check(Lang::Perl, "require $ARGV[0]", &[], true);
        check(Lang::Php, "include 'x.php'; require_once(__DIR__ . '/y.php');", &["x.php", "./y.php"], false);
        check(Lang::Php, "include $argv[1];", &[], true);
        check(Lang::Php, "require \"$d/x.php\";", &[], true);
        check(Lang::Lua, "local j = require 'cjson'; require('a.b')", &["cjson", "a.b"], false);
        check(Lang::Lua, "require(arg[1])", &[], true);
        check(Lang::Lua, "local r = pcall(require, arg[1])", &[], true);
        // A method of that name on an object is not the loader.
        check(Lang::Ruby, "x.require(ARGV[0])", &[], false);
    }
}
