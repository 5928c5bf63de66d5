//! Code an interpreter loads because its command line says so, before the program:
//! `node -r ./x`, `node --import ./x.mjs`, `ruby -r./x`, `perl -MFoo`, `lua -l mod`,
//! and the directories `-I DIR` adds to Ruby's and Perl's load paths. Each named
//! module becomes an import of the code, followed as the code's own loads are
//! (`script::follow_local`, `lanes::scripts::load_candidates`): a local file is
//! read and judged, a name found nowhere local is a library. A name the shell
//! computes (`-r "$MOD"`) loads code no one has seen, so it asks.
//!
//! PHP spells its preloads as ini settings: `-d auto_prepend_file=x.php` (and
//! `auto_append_file`) includes a PHP file around the script, followed the same
//! way; `-d extension=…`, `-d zend_extension=…` and `-z FILE` load native code, and
//! `-c FILE` reads an ini file that may set any of them: [`NATIVE`] asks for those,
//! unless the ini file is read and sets none.
//!
//! The search-path variables set for the program (`PYTHONPATH`, `NODE_PATH`,
//! `PERL5LIB`, `RUBYLIB`) add directories as `-I` does (`include_dirs`); whether
//! setting one asks at all (outside the tree it does) is `shell.env-hijack`'s
//! business, as is `NODE_OPTIONS`/`RUBYOPT`/`PERL5OPT`, which always ask.

use crate::call::args::{Args, Token};
use crate::call::{value_arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::{Cx, FileText, Rule};
use crate::words;
use crate::words::Words;

use super::{code, script, Spec};

/// ## What it matches
/// An interpreter told to load native code or settings tiergate cannot read before
/// the program: PHP's `-d extension=`, `-d zend_extension=`, `-z FILE`, or `-c FILE`
/// with an ini file that sets a preload (or that cannot be read).
/// ## Why this tier
/// A native extension runs whatever it holds when it loads; an ini file can prepend
/// any PHP file. Neither is code tiergate reads.
pub static NATIVE: Rule = Rule::t3("interp.preload.unseen")
    .reason("loads native code or ini settings before the program, which tiergate cannot read; ask the user")
    .matches(words!["php -d extension=./x.so -r 'echo 1;'", "php -z ./x.so -r 'echo 1;'", "php -c nowhere.ini -r 'echo 1;'"])
    .not_matches(words!["php -d display_errors=1 -r 'echo 1;'", "php -d memory_limit=-1 -r 'echo 1;'"]);

/// The ini settings whose value PHP includes as a PHP file around the script.
const PHP_INCLUDES: [&str; 2] = ["auto_prepend_file", "auto_append_file"];
/// The ini settings whose value PHP loads as native code.
const PHP_NATIVE: [&str; 2] = ["extension", "zend_extension"];

/// The options of `lang` whose value names a module loaded before the program.
pub(super) fn preload_options(lang: Lang) -> Words {
    match lang {
        Lang::Js => words!["-r", "--require", "--import", "--loader", "--experimental-loader"],
        Lang::Ruby => words!["-r"],
        Lang::Perl => words!["-M", "-m"],
        Lang::Lua => words!["-l"],
        Lang::Php => words!["-d", "-z", "-c"],
        _ => words![],
    }
}

/// What PHP loads at start-up, before `-v` or `-l` return: native extensions and
/// `-c`'s ini file (see [`NATIVE`]). The other interpreters load nothing then.
pub(super) fn startup(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec) {
    if !matches!(spec.lang, Lang::Php) {
        return;
    }
    for t in Args::parse(&inv.args, spec.args) {
        if let Token::Opt { index, name, value: Some(v) } = t {
            let arg = value_arg(&inv.args, index, v);
            php_setting(cx, inv, name, &arg.text, arg.exact, None);
        }
    }
}

/// Follows the modules the command line preloads (see the module comment).
pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec) {
    let names = preload_options(spec.lang);
    let mut specs = Vec::new();
    for t in Args::parse(&inv.args, spec.args) {
        let Token::Opt { index, name, value: Some(v) } = t else { continue };
        if !names.contains(name) {
            continue;
        }
        let arg = value_arg(&inv.args, index, v);
        if matches!(spec.lang, Lang::Php) {
            php_setting(cx, inv, name, &arg.text, arg.exact, Some(&mut specs));
            continue;
        }
        if !arg.exact {
            cx.hit_because(
                &code::DYNAMIC,
                format!("`{name}` loads a module whose name (`{}`) is computed at run time, so what it does is unseen; ask the user", arg.text),
            );
            continue;
        }
        if let Some(s) = import_spec(spec.lang, &arg.text) {
            specs.push(s);
        }
    }
    if !specs.is_empty() {
        script::follow_local(inv, cx, spec.lang, "", &specs);
    }
}

/// One of php's `-d NAME=VALUE`, `-z FILE` or `-c FILE`. At start-up (`specs` is
/// `None`) native code, or an ini file that may load some, asks; when the script
/// runs, a file PHP includes around it becomes an import in `specs`.
fn php_setting(cx: &mut Cx<'_>, inv: &Invocation, option: &str, value: &str, exact: bool, specs: Option<&mut Vec<String>>) {
    let (name, file) = match option {
        "-d" => match value.split_once('=') {
            Some((name, file)) => (name.trim().to_ascii_lowercase(), file.trim().trim_matches(['"', '\''])),
            None => return, // `-d name` sets it to "1": no file
        },
        "-z" => ("zend_extension".to_owned(), value),
        "-c" if specs.is_none() => return php_ini(cx, inv, value, exact),
        _ => return,
    };
    match specs {
        None if PHP_NATIVE.contains(&name.as_str()) => {
            cx.hit_because(&NATIVE, format!("`php {option} {value}` loads native code at start-up, which tiergate cannot read; ask the user"));
        }
        Some(specs) if PHP_INCLUDES.contains(&name.as_str()) => {
            if !exact {
                cx.hit_because(
                    &code::DYNAMIC,
                    format!("`{name}` includes a PHP file whose name (`{file}`) is computed at run time, so what it does is unseen; ask the user"),
                );
            } else if !file.is_empty() && file != "none" {
                specs.push(file.to_owned());
            }
        }
        _ => {}
    }
}

/// php's `-c FILE`: the ini file is read, and asks when it cannot be, or when it
/// sets a file to include or native code to load.
fn php_ini(cx: &mut Cx<'_>, inv: &Invocation, path: &str, exact: bool) {
    let sets_preload = |text: &str| {
        text.lines().any(|l| {
            let name = l.split('=').next().unwrap_or("").trim().to_ascii_lowercase();
            l.contains('=') && (PHP_INCLUDES.contains(&name.as_str()) || PHP_NATIVE.contains(&name.as_str()))
        })
    };
    let clean = exact && matches!(cx.read(path, inv.cwd.as_deref()), FileText::Text(t) if !sets_preload(&t));
    if !clean {
        cx.hit_because(
            &NATIVE,
            format!("`php -c {path}` reads ini settings tiergate cannot check (they may prepend a PHP file or load native code); ask the user"),
        );
    }
}

/// The import a preload option's value names, in `load_candidates`' terms. Node
/// resolves a bare name in `node_modules` (a package, as `import json` is a library),
/// so only a path is local. Perl's `-MFoo::Bar=x,y` and `-M-Foo` name `Foo/Bar.pm`
/// and `Foo.pm`; Lua 5.4's `-l g=mod` loads `mod`.
fn import_spec(lang: Lang, value: &str) -> Option<String> {
    match lang {
        Lang::Js => (value.starts_with("./") || value.starts_with("../") || value.starts_with('/')).then(|| value.to_owned()),
        Lang::Perl => {
            let module = value.trim_start_matches('-').split(['=', ' ']).next().unwrap_or("");
            (!module.is_empty()).then(|| format!("{}.pm", module.replace("::", "/")))
        }
        Lang::Lua => Some(value.rsplit_once('=').map_or(value, |(_, m)| m).to_owned()),
        _ => Some(value.to_owned()),
    }
}

/// The directories the interpreter `inv` runs looks in for modules besides its own
/// (each ending in `/`, relative ones to the working directory): those Ruby's and
/// Perl's `-I` adds, and those its language's search-path variable names when set
/// for it (`PYTHONPATH=src python3 …`, `env PERL5LIB=lib perl …`, an earlier
/// `export NODE_PATH=$PWD/lib`: `Invocation::search_paths`). More places a module
/// may be found; an entry the shell computes is no directory tiergate can read.
pub(crate) fn include_dirs(inv: &Invocation) -> Vec<String> {
    let Some(lang) = crate::lanes::scripts::lang_of_program(&inv.program) else { return Vec::new() };
    let mut dirs = Vec::new();
    let mut add = |d: &str| {
        if !d.is_empty() {
            dirs.push(format!("{}/", d.trim_end_matches('/')));
        }
    };
    if let (Lang::Ruby | Lang::Perl, Some(spec)) = (lang, super::others::spec_of(&inv.program)) {
        for t in Args::parse(&inv.args, spec.args) {
            if let Token::Opt { name: "-I", value: Some(v), .. } = t {
                v.split(':').for_each(&mut add);
            }
        }
    }
    let var = match lang {
        Lang::Python => "PYTHONPATH",
        Lang::Js => "NODE_PATH",
        Lang::Perl => "PERL5LIB",
        Lang::Ruby => "RUBYLIB",
        _ => return dirs,
    };
    let cwd = inv.cwd.as_deref().unwrap_or(".");
    for word in inv.search_paths.iter().filter(|w| crate::rules::vocab::vars::search_path_set(w) == Some(var)) {
        let value = word.split_once('=').map_or("", |(_, v)| v);
        for entry in value.split(':').map(|e| e.trim_matches('"')) {
            match ["$(pwd)", "`pwd`", "${PWD}", "$PWD"].iter().find_map(|p| entry.strip_prefix(p)) {
                Some(rest) => add(&format!("{cwd}{rest}")),
                // An empty entry is the working directory; `$PYTHONPATH` is an earlier value, kept apart.
                None if entry.is_empty() => add("."),
                None if !entry.contains('$') => add(entry),
                None => {}
            }
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preloaded_name_becomes_the_import_its_loader_looks_up() {
        assert_eq!(import_spec(Lang::Js, "./x"), Some("./x".to_owned()));
        assert_eq!(import_spec(Lang::Js, "ts-node/register"), None, "a package, not a local file");
        assert_eq!(import_spec(Lang::Perl, "Foo::Bar=x,y"), Some("Foo/Bar.pm".to_owned()));
        assert_eq!(import_spec(Lang::Perl, "-strict"), Some("strict.pm".to_owned()));
        assert_eq!(import_spec(Lang::Lua, "g=tools.wipe"), Some("tools.wipe".to_owned()));
        assert_eq!(import_spec(Lang::Ruby, "./lib/x"), Some("./lib/x".to_owned()));
    }
}
