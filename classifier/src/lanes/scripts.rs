//! The script lane's shared vocabulary: which language a file or code string is
//! (a shebang or an interpreter: a file run directly without a shebang is shell), and the effects the code analysers report
//! (`Effect`, `Finding`). The analysers are `python.rs` and `lexer.rs`.
//!
//! This module reads no files and assigns no tiers: `rules/interp` reads scripts
//! through `Cx::read` and turns findings into hits.

use crate::call::basename;

/// A language the lane can analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Python,
    Js,
    Ruby,
    Perl,
    Php,
    Lua,
    R,
    Shell,
    Awk,
    PowerShell,
    Tcl,
    Groovy,
    AppleScript,
}

/// What a piece of code does that matters for its tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Shell text handed to a shell (`os.system("…")`, backticks, `execSync("…")`).
    Shell(String),
    /// An argv executed directly (`subprocess.run(["rm", "-rf", "x"])`).
    Argv(Vec<String>),
    /// A process is started but what it runs is computed at run time.
    ExecUnseen,
    /// A file write; `None` when the path is computed at run time.
    Write(Option<String>),
    /// A deletion; `recursive` for tree removals (`shutil.rmtree`, `rm_rf`).
    Delete { target: Option<String>, recursive: bool },
    /// A rename or move (the destination's old content is lost).
    Move,
    /// Permission, owner or attribute changes.
    Chmod,
    /// A network write, connection or listener, or a cloud SDK mutation.
    Network,
    /// Signals or kills another process.
    Process,
    /// Installs or removes packages.
    Install,
    /// Any other state change the analyser recognises (a PowerShell `Set-*` cmdlet, an app told to quit).
    Mutate,
    /// SQL text sent to a database (`cursor.execute("…")`).
    Sql(String),
    /// Code the analyser cannot see into (`exec(var)`, `getattr(os, name)`, `pickle.loads`).
    Dynamic,
}

/// One effect and the call that produced it (`shutil.rmtree`), for reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub effect: Effect,
    pub sink: String,
}

/// The result of analysing one piece of code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub findings: Vec<Finding>,
    /// Set when the code could not be tokenized (unterminated string …).
    pub error: Option<String>,
    /// Modules the code imports (`pkg.sub`, or `.sub` for a relative import), for following local ones.
    pub imports: Vec<String>,
}

impl Analysis {
    pub(crate) fn push(&mut self, effect: Effect, sink: &str) {
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(Finding { effect, sink: sink.to_owned() });
        }
    }

    /// Records a module or file the code loads (`Analysis::imports`), once.
    pub(crate) fn import(&mut self, spec: &str) {
        if self.imports.len() < MAX_IMPORTS && !self.imports.iter().any(|m| m == spec) {
            self.imports.push(spec.to_owned());
        }
    }

    /// Takes in the analysis of code this code evaluates (`eval("…")`, `exec("…")`):
    /// its effects, and the files it loads, which run as if this code loaded them.
    pub(crate) fn absorb(&mut self, inner: Analysis) {
        self.findings.extend(inner.findings);
        for m in &inner.imports {
            self.import(m);
        }
    }
}

/// Imports kept per analysis (each is a file lookup when followed).
pub const MAX_IMPORTS: usize = 64;

/// The files a local load of `spec` (an entry of `Analysis::imports`) may read, from
/// the loading file's directory `dir` (`""` for inline code). Each group is one load:
/// its first file that exists is the one loaded; every group is read. Python looks in
/// the script's directory (`helpers` → `helpers.py`, `helpers/__init__.py`), Node
/// beside the importing file; Python's absolute imports and Node's bare names also
/// in each of `include` (the `PYTHONPATH`/`NODE_PATH` directories). Ruby's `require "./x"`, PHP's `include`, Lua's
/// `require` and Perl with `-I.` look in the working directory, `require_relative`
/// and `__DIR__` beside the file: for these both places are read, a superset of the
/// one the loader picks, and each of `include` (the directories `-I` and the search
/// path variables add) too. A
/// name found in none is a library (installed, or in the standard library), as an
/// `import json` is.
pub fn load_candidates(lang: Lang, dir: &str, spec: &str, include: &[String]) -> Vec<Vec<String>> {
    let in_both = |files: &dyn Fn(&str) -> Vec<String>| {
        let absolute = spec.starts_with('/') || spec.starts_with('~');
        let mut groups = vec![files(if absolute { "" } else { dir })];
        if !absolute {
            let more = std::iter::once("").filter(|_| !dir.is_empty()).chain(include.iter().map(String::as_str));
            groups.extend(more.map(files));
        }
        groups
    };
    match lang {
        Lang::Python => {
            let rel = spec.trim_start_matches('.').replace('.', "/");
            if rel.is_empty() {
                return Vec::new();
            }
            let files = |base: &str| vec![format!("{base}{rel}.py"), format!("{base}{rel}/__init__.py")];
            // An absolute import is looked up on `sys.path` too (`PYTHONPATH`); a relative one is not.
            let path = include.iter().filter(|_| !spec.starts_with('.'));
            std::iter::once(dir).chain(path.map(String::as_str)).map(files).collect()
        }
        Lang::Js => {
            let files = |base: &str| ["", ".js", ".mjs", ".cjs", ".ts", "/index.js"].iter().map(|ext| format!("{base}{spec}{ext}")).collect();
            if spec.starts_with("./") || spec.starts_with("../") || spec.starts_with('/') {
                return vec![files(if spec.starts_with('/') { "" } else { dir })];
            }
            // A bare name is a package of `node_modules` (a library), or a module of a
            // `NODE_PATH` directory.
            include.iter().map(|base| files(base)).collect()
        }
        // `require "x"` adds `.rb` unless the name has it.
        Lang::Ruby => in_both(&|base| {
            if spec.ends_with(".rb") {
                vec![format!("{base}{spec}")]
            } else {
                vec![format!("{base}{spec}.rb"), format!("{base}{spec}")]
            }
        }),
        Lang::Perl | Lang::Php => in_both(&|base| vec![format!("{base}{spec}")]),
        // A module name: `a.b` is `a/b.lua` or `a/b/init.lua` (package.path's `./?.lua;./?/init.lua`).
        Lang::Lua => {
            let rel = spec.replace('.', "/");
            in_both(&|base| vec![format!("{base}{rel}.lua"), format!("{base}{rel}/init.lua")])
        }
        _ => Vec::new(),
    }
}

/// Findings kept per analysis; more adds nothing to the verdict and costs time.
pub const MAX_FINDINGS: usize = 256;

/// Nesting of `exec("…")`/`eval("…")` literals the analysers follow.
pub const MAX_CODE_DEPTH: u8 = 4;

/// The language an interpreter basename runs (`python3.12` → Python).
pub fn lang_of_program(program: &str) -> Option<Lang> {
    // A case-insensitive file system runs `#!/usr/bin/Python3` as `python3` (`crate::names`).
    let program = crate::names::canonical(program);
    let program = program.as_ref();
    let p = program.strip_suffix(".exe").unwrap_or(program);
    if p.starts_with("python") || p.starts_with("pypy") || matches!(p, "ipython" | "ipython3" | "bpython" | "ptpython") {
        return Some(Lang::Python);
    }
    let p = p.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match p {
        "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node" => Lang::Js,
        "ruby" | "jruby" | "irb" => Lang::Ruby,
        "perl" => Lang::Perl,
        "php" => Lang::Php,
        "lua" | "luajit" => Lang::Lua,
        "Rscript" | "R" => Lang::R,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh" => Lang::Shell,
        "awk" | "gawk" | "mawk" | "nawk" => Lang::Awk,
        "pwsh" | "powershell" => Lang::PowerShell,
        "tclsh" | "wish" => Lang::Tcl,
        "groovy" => Lang::Groovy,
        "osascript" => Lang::AppleScript,
        _ => return None,
    })
}

/// The interpreter named by a `#!` line (`#!/usr/bin/env -S python3 -u` → `python3`).
pub fn shebang_program(text: &str) -> Option<&str> {
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let first = basename(words.next()?);
    if !first.eq_ignore_ascii_case("env") {
        return Some(first);
    }
    words.find(|w| !w.starts_with('-') && !w.contains('=')).map(basename)
}

/// The language a file runs in when it is executed directly (`./x.py`): its
/// shebang's interpreter. Without one, `execve` fails with ENOEXEC and the shell
/// (and `execvp`) runs the file as a shell script, whatever its name ends in: a
/// `./deploy.py` holding `rm -rf ~` deletes. `Err(program)` names a shebang
/// interpreter the lane does not know.
pub fn lang_of_exec(text: &str) -> Result<Lang, &str> {
    match shebang_program(text) {
        Some(program) => lang_of_program(program).ok_or(program),
        None => Ok(Lang::Shell),
    }
}

/// The code text with comments removed, for "does the script mention this flag"
/// (a simulation flag frees a script only when its own code handles it).
pub fn mentions_flag(lang: Lang, text: &str, flag: &str) -> bool {
    let comment = match lang {
        Lang::Js | Lang::Php | Lang::Groovy => "//",
        Lang::Lua => "--",
        _ => "#",
    };
    text.lines().enumerate().any(|(n, line)| {
        // A shebang line is not code, and `#` starts no comment in JS.
        let code = if n == 0 && line.starts_with("#!") { "" } else { line.split(comment).next().unwrap_or("") };
        code.contains(flag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_shebang_picks_the_language_of_a_file_run_directly() {
        assert_eq!(lang_of_exec("#!/usr/bin/env python3\nprint(1)"), Ok(Lang::Python));
        assert_eq!(lang_of_exec("#!/bin/bash\nls"), Ok(Lang::Shell));
        assert_eq!(lang_of_exec("console.log(1)"), Ok(Lang::Shell), "no shebang: the shell runs it, whatever the name");
        assert_eq!(lang_of_exec("#!/usr/bin/env -S julia --quiet\n"), Err("julia"));
        assert_eq!(lang_of_program("python3.12"), Some(Lang::Python));
    }

    #[test]
    fn flags_in_comments_do_not_count() {
        assert!(mentions_flag(Lang::Python, "if '--dry-run' in sys.argv:\n", "--dry-run"));
        assert!(!mentions_flag(Lang::Python, "# TODO: --dry-run\n", "--dry-run"));
    }
}
