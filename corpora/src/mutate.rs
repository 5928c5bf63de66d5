//! `cargo xtask corpus curated`: rewrites every gated truth row (expect T3 or
//! BLOCKED) through the bypass forms of issue 5 — quoting and escaping, `$IFS`,
//! variables and substitutions in command position, wrappers, shells and `eval`,
//! interpreters, pipes to shells, encodings, remote execution over ssh, absolute
//! paths and line continuations, and the exec-vector carriers (runners such as
//! `tmux`/`script`/`hyperfine`, `--exec` options, `*_COMMAND` variables,
//! implicit wrappers) — into `corpus/curated/mutations.csv` with family
//! `bypass` and the plain row's expectation: head must never be looser than the
//! plain form. The one exception is a form that computes the program name
//! (`"$__c"`, `$(printf %s rm)`, `rm${IFS}-rf`): DESIGN.md makes a computed name T3
//! (ask) without promising to evaluate it, so those expect at least min(plain, T3).
//! A form is applied only where it keeps the command's meaning (e.g. wrappers only
//! before a plain program name). `--check` never writes.

use std::path::Path;

use anyhow::bail;

use super::{csvout, ensure_file};
use replay::corpus::{Kind, Spec};
use replay::protocol::Class;

const OUT: &str = "corpus/curated/mutations.csv";
/// Longer commands add little and bloat the file.
const MAX_LEN: usize = 300;
/// Forms whose program name is computed at run time (see the module doc).
const COMPUTED_NAME: &[&str] = &["var-indirection", "subst-name", "ifs"];

/// Shell words that are not programs: a wrapper in front of them changes meaning.
const NOT_PROGRAMS: &[&str] = &[
    "cd", "export", "set", "unset", "source", ".", "eval", "exec", "if", "then", "for", "while", "until", "case", "function", "!", "[[", "local", "declare",
    "alias", "true", "false", ":", "time", "select", "coproc", "builtin", "command",
];

struct Plain<'a> {
    cmd: &'a str,
    word: &'a str,
    rest: &'a str,
    /// The first word is a literal program name (wrappers and name tricks apply).
    simple: bool,
    /// No quotes, escapes, expansions or newlines anywhere.
    bare: bool,
    /// Text that survives being put inside single quotes (or `'…'` escaped).
    single_line: bool,
    fixture: bool,
}

fn plain<'a>(cmd: &'a str, cwd: &Option<String>) -> Plain<'a> {
    let (word, rest) = cmd.split_once(' ').unwrap_or((cmd, ""));
    let literal =
        !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"_./+-".contains(&b)) && !word.starts_with('-') && !NOT_PROGRAMS.contains(&word);
    let trailing_bg = cmd.trim_end().ends_with('&') && !cmd.trim_end().ends_with("&&");
    Plain {
        cmd,
        word,
        rest,
        simple: literal && !word.contains('='),
        bare: !cmd.bytes().any(|b| b"'\"\\$`\n\t*?[]{}#~".contains(&b)),
        single_line: !cmd.contains('\n') && !cmd.contains(" #") && !trailing_bg,
        fixture: cwd.is_some(),
    }
}

fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn b64(s: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in s.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn with_rest(word: String, rest: &str) -> String {
    if rest.is_empty() {
        word
    } else {
        format!("{word} {rest}")
    }
}

/// Every (form id, rewritten command) that applies to `p`.
fn forms(p: &Plain) -> Vec<(&'static str, String)> {
    let mut v: Vec<(&'static str, String)> = Vec::new();
    let (w, r, c) = (p.word, p.rest, p.cmd);
    if p.simple {
        let mut chars = w.chars();
        if let Some(first) = chars.next().filter(|_| w.len() >= 2 && !w.contains('/')) {
            let tail: String = chars.collect();
            v.push(("quote-empty", with_rest(format!("{first}''{tail}"), r)));
            v.push(("line-continuation", with_rest(format!("{first}\\\n{tail}"), r)));
        }
        v.push(("backslash", with_rest(format!("\\{w}"), r)));
        v.push(("double-quote", with_rest(format!("\"{w}\""), r)));
        let hex: String = w.bytes().map(|b| format!("\\x{b:02x}")).collect();
        v.push(("ansi-c", with_rest(format!("$'{hex}'"), r)));
        v.push(("var-indirection", with_rest("__c=".to_owned() + w + "; \"$__c\"", r)));
        v.push(("subst-name", with_rest(format!("$(printf %s {w})"), r)));
        if !w.contains('/') {
            v.push(("absolute-path", with_rest(format!("/usr/bin/{w}"), r)));
        }
        for (id, pre) in [
            ("sudo", "sudo"),
            ("env", "env"),
            ("env-assign", "env TIERGATE_X=1"),
            ("nice", "nice -n 10"),
            ("timeout", "timeout 30"),
            ("nohup", "nohup"),
            ("command", "command"),
            ("exec", "exec"),
            ("time", "time"),
            ("stdbuf", "stdbuf -oL"),
            ("doas", "doas"),
            ("assign-prefix", "TIERGATE_X=1"),
            // The exec-vectors issue: runners the wrapper table learned, an
            // assignment after sudo, and an unmodelled program handed the command.
            ("sudo-assign", "sudo TIERGATE_X=1"),
            ("nsenter", "nsenter -t 1 -m -u"),
            ("setarch", "setarch x86_64"),
            ("taskset", "taskset -c 0"),
            ("firejail", "firejail --quiet"),
            ("torsocks", "torsocks"),
        ] {
            v.push((id, format!("{pre} {c}")));
        }
        if !c.bytes().any(|b| b"|;&<>()\n".contains(&b)) {
            v.push(("xargs", format!("echo | xargs {c}")));
            // Redirections and pipes would belong to the unmodelled program, not the command.
            v.push(("implicit-wrapper", format!("xprog -- {c}")));
        }
    }
    // `A=1${IFS}rm…` is one assignment word: bash runs nothing, so the form would prove nothing.
    let leading_assignment = c.split_whitespace().next().is_some_and(|w| w.contains('=') && !w.starts_with('-'));
    if p.bare && p.single_line && c.contains(' ') && !leading_assignment {
        v.push(("ifs", c.split_whitespace().collect::<Vec<_>>().join("${IFS}")));
    }
    if p.single_line {
        v.push(("bash-c", format!("bash -c {}", sq(c))));
        v.push(("sh-c", format!("sh -c {}", sq(c))));
        v.push(("eval", format!("eval {}", sq(c))));
        // Spaces keep `( (x) )` a subshell: `((x))` is arithmetic in bash and runs nothing.
        v.push(("subshell", format!("( {c} )")));
        v.push(("group", format!("{{ {c}; }}")));
        v.push(("substitution", format!("echo \"$( {c} )\"")));
        v.push(("and-chain", format!("true && {c}")));
        v.push(("or-chain", format!("false || {c}")));
        v.push(("pipe-to-sh", format!("echo {} | sh", sq(c))));
        v.push(("base64-to-bash", format!("echo {} | base64 -d | bash", b64(c.as_bytes()))));
        // Commands carried by runners, options and variables (the exec-vectors issue).
        v.push(("script-c", format!("script -qc {} /dev/null", sq(c))));
        // The value packed onto its option in one word (call::args reads it the same).
        v.push(("script-c-packed", format!("script -qc{} /dev/null", sq(c))));
        v.push(("env-split-packed", format!("env -S{}", sq(c))));
        v.push(("su-c-packed", format!("su -c{} root", sq(c))));
        v.push(("tmux", format!("tmux new-session -d {}", sq(c))));
        v.push(("hyperfine", format!("hyperfine --runs 1 {}", sq(c))));
        v.push(("option-exec", format!("mytool --exec {}", sq(c))));
        v.push(("implicit-sh", format!("xprog /bin/sh -c {}", sq(c))));
        v.push(("env-command", format!("MYTOOL_COMMAND={} mytool", sq(c))));
        if !c.contains(')') {
            v.push(("fzf-bind", format!("fzf --bind {}", sq(&format!("enter:execute({c})")))));
        }
        if !c.bytes().any(|b| b"'\"\\$`".contains(&b)) {
            v.push(("python-os-system", format!("python3 -c \"import os; os.system('{c}')\"")));
            v.push(("node-exec", format!("node -e \"require('child_process').execSync('{c}')\"")));
        }
        // Remote execution; a fixture-relative or protected-path command means
        // something else on another host.
        if !p.fixture && !c.contains(".claude") {
            v.push(("ssh", format!("ssh host {}", sq(c))));
        }
    }
    v
}

/// Renders the mutation set from the committed truth tables.
pub fn render(root: &Path) -> anyhow::Result<(String, usize)> {
    let truth = match replay::corpus::load_worktree(root, Kind::Truth) {
        Ok(t) => t,
        Err(errs) => bail!("truth tables do not load:\n{}", errs.join("\n")),
    };
    let mut rows = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut sources = 0usize;
    for r in &truth.rows {
        let Spec::Truth { expect, .. } = &r.spec else { continue };
        if !matches!(expect, Class::T3 | Class::Blocked) || r.command.len() > MAX_LEN {
            continue;
        }
        let p = plain(&r.command, &r.cwd);
        let fs = forms(&p);
        if !fs.is_empty() {
            sources += 1;
        }
        for (form, cmd) in fs {
            let cwd = r.cwd.clone().unwrap_or_default();
            if !seen.insert((cmd.clone(), cwd.clone())) {
                continue;
            }
            let (want, why) = if COMPUTED_NAME.contains(&form) && *expect > Class::T3 {
                (Class::T3, format!("{form} of {}: a computed program name is at least T3 (the plain form is {})", r.id, expect.as_str()))
            } else {
                (*expect, format!("{form} of {} (must be at least {})", r.id, expect.as_str()))
            };
            rows.push(vec![format!("mut-{}-{form}", r.id), cmd, cwd, want.as_str().to_owned(), "bypass".to_owned(), why]);
        }
    }
    let text = csvout::render(&["id", "command", "cwd", "expect", "family", "note"], &rows)?;
    println!("mutations: {} rows from {sources} gated truth rows", rows.len());
    Ok((text, rows.len()))
}

pub fn generate(root: &Path, check: bool) -> anyhow::Result<i32> {
    let (text, _) = render(root)?;
    ensure_file(root, OUT, &text, check, "cargo xtask corpus curated")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms_of(cmd: &str) -> Vec<(&'static str, String)> {
        forms(&plain(cmd, &None))
    }

    fn get(cmd: &str, form: &str) -> Option<String> {
        forms_of(cmd).into_iter().find(|(f, _)| *f == form).map(|(_, c)| c)
    }

    #[test]
    fn name_forms_rewrite_only_the_program_word() {
        assert_eq!(get("rm -rf /", "quote-empty").as_deref(), Some("r''m -rf /"));
        assert_eq!(get("rm -rf /", "backslash").as_deref(), Some("\\rm -rf /"));
        assert_eq!(get("rm -rf /", "ansi-c").as_deref(), Some("$'\\x72\\x6d' -rf /"));
        assert_eq!(get("rm -rf /", "ifs").as_deref(), Some("rm${IFS}-rf${IFS}/"));
        assert_eq!(get("rm -rf /", "sudo").as_deref(), Some("sudo rm -rf /"));
        assert_eq!(get("rm -rf /", "var-indirection").as_deref(), Some("__c=rm; \"$__c\" -rf /"));
    }

    #[test]
    fn payload_forms_quote_safely() {
        assert_eq!(get("echo 'a b' > /etc/x", "bash-c").as_deref(), Some("bash -c 'echo '\\''a b'\\'' > /etc/x'"));
        assert_eq!(get("rm -rf /", "base64-to-bash").as_deref(), Some("echo cm0gLXJmIC8= | base64 -d | bash"));
        assert_eq!(get("rm -rf /", "python-os-system").as_deref(), Some("python3 -c \"import os; os.system('rm -rf /')\""));
        assert_eq!(get("echo '$x'", "python-os-system"), None, "quotes and $ would change the payload");
    }

    #[test]
    fn forms_that_would_change_meaning_are_not_applied() {
        assert!(get("cd /tmp && rm -rf x", "sudo").is_none(), "sudo cd is not cd");
        assert!(get("(rm -rf /)", "timeout").is_none());
        assert!(get("ls | rm -rf /", "xargs").is_none());
        assert!(get("rm -rf / &", "group").is_none(), "{{ cmd &; }} is a syntax error");
        assert!(get("cat <<EOF\nx\nEOF", "bash-c").is_none());
        assert!(forms(&plain("./scripts/nuke.sh", &Some("scripts".into()))).iter().all(|(f, _)| *f != "ssh"));
        assert!(get("cp x .claude/hooks/y", "ssh").is_none());
    }
}
