//! Code an interpreter loads because its command line says so, before the program:
//! `node -r ./x`, `node --import ./x.mjs`, `ruby -r./x`, `perl -MFoo`, `lua -l mod`,
//! and the directories `-I DIR` adds to Ruby's and Perl's load paths. Each named
//! module becomes an import of the code, followed as the code's own loads are
//! (`script::follow_local`, `lanes::scripts::load_candidates`): a local file is
//! read and judged, a name found nowhere local is a library. A name the shell
//! computes (`-r "$MOD"`) loads code no one has seen, so it asks.
//!
//! It does not read environment variables that add load paths (`RUBYLIB`,
//! `PERL5LIB`, `NODE_OPTIONS`): those are the environment rules' business.

use crate::call::args::{Args, Token};
use crate::call::{value_arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::Cx;
use crate::words;
use crate::words::Words;

use super::{code, script, Spec};

/// The options of `lang` whose value names a module loaded before the program.
fn preload_options(lang: Lang) -> Words {
    match lang {
        Lang::Js => words!["-r", "--require", "--import", "--loader", "--experimental-loader"],
        Lang::Ruby => words!["-r"],
        Lang::Perl => words!["-M", "-m"],
        Lang::Lua => words!["-l"],
        _ => words![],
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

/// The directories `-I` adds to the load path of the interpreter `inv` runs (Ruby
/// and Perl), each ending in `/`: more places a module may be found.
pub(crate) fn include_dirs(inv: &Invocation) -> Vec<String> {
    let Some(spec) = super::others::spec_of(&inv.program) else { return Vec::new() };
    if !matches!(spec.lang, Lang::Ruby | Lang::Perl) {
        return Vec::new();
    }
    let mut dirs = Vec::new();
    for t in Args::parse(&inv.args, spec.args) {
        if let Token::Opt { name: "-I", value: Some(v), .. } = t {
            for d in v.split(':').filter(|d| !d.is_empty()) {
                dirs.push(format!("{}/", d.trim_end_matches('/')));
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
