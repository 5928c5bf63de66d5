//! Property tests (proptest) over commands generated from a small grammar of real
//! CLIs, flags, paths, redirections and shell structure, plus arbitrary text.
//!
//! Invariants (see `docs/evidence.md`): no panic and bounded work on any input;
//! wrapping never lowers the class; a leading `VAR=value` never changes it;
//! quoting a word the way bash unquotes it never changes it; appending
//! `--dry-run` never raises it; a program name in another letter case is never
//! less strict than its lower-case form; two commands whose units differ in any
//! argument never share a grant key; the verdict is deterministic.
//!
//! Case count: 256 per property unless `PROPTEST_CASES` says otherwise; the seed
//! is fixed (override with `PROPTEST_RNG_SEED`) so a CI failure reproduces
//! locally. Failures are not persisted to files: the shrunk case is printed and
//! belongs in a truth row. It does not check individual verdicts (truth tables do).

use std::time::{Duration, Instant};

use classifier::{classify, semantic_signature, Request, Verdict};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::check::{class, CWD, HOME};

/// Fixed seed: CI runs the same cases every time.
const SEED: u64 = 0x7469_6572_6761_7465; // "tiergate"
/// Loose per-command bound for debug builds on a loaded machine.
const BOUND: Duration = Duration::from_secs(2);

fn config() -> Config {
    let mut c = Config::default(); // reads PROPTEST_* from the environment
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = 256;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        c.rng_seed = RngSeed::Fixed(SEED);
    }
    c.failure_persistence = None;
    c
}

fn verdict(cmd: &str) -> Verdict {
    classify(&Request::new(cmd).with_cwd(CWD).with_home(HOME))
}

/// T0 < T1 < T2 < T3 < BLOCKED.
fn rank(v: &Verdict) -> u8 {
    if v.blocked {
        4
    } else {
        v.tier as u8
    }
}

fn show(cmd: &str, v: &Verdict) -> String {
    format!("`{cmd}` → {} ({})", class(v), v.rule)
}

// ---------------------------------------------------------------- the grammar

/// One program with the words that plausibly follow it.
struct Cli {
    program: &'static str,
    subs: &'static [&'static str],
    flags: &'static [&'static str],
    operands: &'static [&'static str],
}

const PATHS: &[&str] = &[
    "src/main.rs", "./build", "README.md", "/etc/passwd", "/tmp/x", "/", "/usr/lib", ".git/config", ".claude/settings.json", ".claude/hooks/pre.sh",
    "../other/file", "~/.bashrc", "/dev/sda", "target",
];

const CLIS: &[Cli] = &[
    Cli {
        program: "git",
        subs: &["status", "log", "diff", "show", "push", "commit", "reset", "checkout", "branch", "fetch", "pull", "clean", "stash", "rebase", "tag"],
        flags: &["-f", "--force", "-m", "--hard", "-n", "--oneline", "-d", "-D", "--all", "-fdx", "--force-with-lease"],
        operands: &["origin", "main", "HEAD~1", "wip", "v1.0"],
    },
    Cli {
        program: "kubectl",
        subs: &["get", "describe", "delete", "apply", "logs", "exec", "diff", "rollout", "scale", "edit"],
        flags: &["-n", "-f", "--all", "--dry-run=client", "-o", "-A", "--force", "--replicas=0"],
        operands: &["pods", "pod/web", "deployment/web", "ns", "kube-system", "namespace", "k8s.yaml", "yaml"],
    },
    Cli {
        program: "terraform",
        subs: &["plan", "apply", "destroy", "init", "validate", "fmt", "show", "state", "import"],
        flags: &["-auto-approve", "-target=aws_instance.x", "-check", "-out=plan.tfplan", "-lock=false"],
        operands: &["rm", "list", "plan.tfplan"],
    },
    Cli { program: "rm", subs: &[], flags: &["-r", "-f", "-rf", "-i", "--", "--no-preserve-root"], operands: PATHS },
    Cli { program: "cp", subs: &[], flags: &["-r", "-f", "-a"], operands: PATHS },
    Cli { program: "mv", subs: &[], flags: &["-f", "-n"], operands: PATHS },
    Cli { program: "ls", subs: &[], flags: &["-la", "-R", "-h"], operands: PATHS },
    Cli { program: "cat", subs: &[], flags: &["-n"], operands: PATHS },
    Cli { program: "grep", subs: &[], flags: &["-r", "-n", "-i", "-l"], operands: &["TODO", "main", ".", "src"] },
    Cli {
        program: "curl",
        subs: &[],
        flags: &["-s", "-X", "POST", "-d", "-o", "-fsSL", "-T"],
        operands: &["https://example.com/x", "out.txt", "data", "/etc/passwd"],
    },
    Cli {
        program: "docker",
        subs: &["ps", "run", "rm", "build", "images", "exec", "push", "pull", "system", "compose", "volume"],
        flags: &["-it", "--rm", "-f", "-a", "--privileged", "-v"],
        operands: &["prune", "ubuntu", "web", "up", "down", "/:/host"],
    },
    Cli {
        program: "npm",
        subs: &["install", "test", "run", "publish", "ci", "ls", "audit", "version"],
        flags: &["--save-dev", "-g", "--dry-run", "--force"],
        operands: &["build", "lodash", "lint", "patch"],
    },
    Cli { program: "python3", subs: &[], flags: &["-m", "-c", "-V"], operands: &["pytest", "pip", "install", "script.py", "http.server", "requests"] },
    Cli { program: "sed", subs: &[], flags: &["-i", "-n", "-e"], operands: &["s/a/b/", "1p", "src/main.rs", "/etc/hosts"] },
    Cli { program: "find", subs: &[], flags: &["-name", "-type", "-delete", "-maxdepth", "-print"], operands: &[".", "f", "1", "x.tmp", "/"] },
    Cli { program: "chmod", subs: &[], flags: &["-R", "+x", "777"], operands: PATHS },
    Cli {
        program: "systemctl",
        subs: &["status", "restart", "stop", "start", "list-units", "disable"],
        flags: &["--now", "--user"],
        operands: &["nginx", "sshd"],
    },
    Cli {
        program: "cargo",
        subs: &["build", "test", "check", "clippy", "publish", "install", "fmt", "run"],
        flags: &["--release", "--", "--check", "--dry-run", "-p"],
        operands: &["classifier", "ripgrep"],
    },
    Cli {
        program: "pip",
        subs: &["install", "list", "show", "uninstall", "freeze"],
        flags: &["-r", "-y", "--user", "-U"],
        operands: &["requests", "requirements.txt"],
    },
    Cli { program: "dd", subs: &[], flags: &[], operands: &["if=/dev/zero", "of=/dev/sda", "of=out.img", "bs=1M", "count=1"] },
    Cli { program: "echo", subs: &[], flags: &["-n", "-e"], operands: &["hello", "wip", "done"] },
    Cli { program: "make", subs: &[], flags: &["-j4", "-n", "-C"], operands: &["test", "install", "clean", "deploy"] },
    Cli {
        program: "aws",
        subs: &["s3", "ec2", "iam", "sts"],
        flags: &["--recursive", "--dry-run", "--region"],
        operands: &["ls", "rm", "cp", "describe-instances", "terminate-instances", "get-caller-identity", "s3://bucket/key", "us-east-1"],
    },
    Cli {
        program: "gh",
        subs: &["pr", "repo", "issue", "run"],
        flags: &["--yes", "-R", "--web"],
        operands: &["list", "view", "delete", "merge", "create", "owner/repo"],
    },
];

const REDIRECTS: &[&str] = &["> out.txt", "> /etc/passwd", ">> ~/.bashrc", "2>/dev/null", "> .claude/settings.json", "< README.md", ">> build/log.txt"];

/// A simple command: words (plain, safe to quote in any style) and an optional redirection.
#[derive(Clone, Debug)]
struct Simple {
    words: Vec<String>,
    redirect: Option<String>,
}

impl Simple {
    fn render(&self) -> String {
        let mut s = self.words.join(" ");
        if let Some(r) = &self.redirect {
            s.push(' ');
            s.push_str(r);
        }
        s
    }
}

fn simple() -> impl Strategy<Value = Simple> {
    (0..CLIS.len())
        .prop_flat_map(|i| {
            let cli = &CLIS[i];
            let sub = if cli.subs.is_empty() { Just(None).boxed() } else { proptest::option::weighted(0.9, proptest::sample::select(cli.subs)).boxed() };
            let mut pool: Vec<&'static str> = cli.flags.to_vec();
            pool.extend_from_slice(cli.operands);
            let rest = proptest::collection::vec(proptest::sample::select(pool), 0..5);
            let redirect = proptest::option::weighted(0.2, proptest::sample::select(REDIRECTS));
            (Just(cli.program), sub, rest, redirect)
        })
        .prop_map(|(program, sub, rest, redirect)| {
            let mut words = vec![program.to_owned()];
            words.extend(sub.map(str::to_owned));
            words.extend(rest.into_iter().map(str::to_owned));
            Simple { words, redirect: redirect.map(str::to_owned) }
        })
}

/// A list of 1–3 simple commands joined by `&&`, `||`, `;` or `|`.
fn script() -> impl Strategy<Value = String> {
    (simple(), proptest::collection::vec((proptest::sample::select(&[" && ", " || ", "; ", " | "][..]), simple()), 0..3)).prop_map(|(first, rest)| {
        let mut s = first.render();
        for (op, c) in rest {
            s.push_str(op);
            s.push_str(&c.render());
        }
        s
    })
}

/// Single-quotes `s` for bash.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Wrappers that keep the command running as written.
const PREFIXES: &[&str] = &["sudo ", "env ", "time ", "nice ", "timeout 5 ", "nohup "];

/// Structural wrappers that apply to any list.
fn wrap_structure(how: usize, cmd: &str) -> String {
    match how {
        0 => format!("bash -c {}", sq(cmd)),
        1 => format!("sh -c {}", sq(cmd)),
        2 => format!("( {cmd} )"),
        3 => format!("echo $( {cmd} )"),
        4 => format!("true | {cmd}"),
        5 => format!("true && {cmd}"),
        _ => format!("{{ {cmd}; }}"),
    }
}
const STRUCTURES: usize = 7;

/// The ways bash lets a word be written that unquote to the same word.
fn quote(style: usize, w: &str) -> String {
    match style {
        0 => format!("'{w}'"),
        1 => format!("\"{w}\""),
        2 => format!("\\{w}"),
        3 => {
            // Empty quotes inside the word: `r''m`.
            let cut = w.char_indices().nth(1).map_or(w.len(), |(i, _)| i);
            format!("{}''{}", &w[..cut], &w[cut..])
        }
        _ => format!("$'{w}'"),
    }
}
const QUOTE_STYLES: usize = 5;

/// Words whose quoted form bash reads differently, so they are never quoted:
/// a leading `~` is tilde-expanded only when unquoted.
fn quotable(w: &str) -> bool {
    !w.starts_with('~')
}

/// Shell-ish token soup: every metacharacter the parser has to survive.
fn soup() -> impl Strategy<Value = String> {
    const TOKENS: &[&str] = &[
        "(", ")", "$(", "`", "'", "\"", "|", "||", "&&", "&", ";", ";;", "<<EOF\n", "<<-'X'\n", "EOF\n", "{", "}", " ", "x", "rm", "-rf", "/", "\\", "\n", "$",
        "${", "#", "[[", "]]", "((", "))", "!", "<(", ">(", ">", ">>", "<", "=", "*", "?", "~", "if ", "then ", "fi", "for ", "do ", "done", "case ", "esac",
        "function ", "$'", "\\x", "bash -c ", "eval ", "sudo ", "\u{0}", "é", "\u{FFFD}", "\t",
    ];
    proptest::collection::vec(proptest::sample::select(TOKENS), 0..64).prop_map(|t| t.concat())
}

/// Classifies on a worker thread and checks the bound; returns the verdict.
fn bounded(cmd: &str) -> Result<Verdict, TestCaseError> {
    let t = Instant::now();
    let v = verdict(cmd);
    let took = t.elapsed();
    prop_assert!(took < BOUND, "`{}` took {took:?}", cmd.escape_debug());
    Ok(v)
}

// ------------------------------------------------------------- the properties

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_string_is_answered_in_bounded_time(s in any::<String>()) {
        bounded(&s)?;
    }

    #[test]
    fn any_bytes_read_lossily_are_answered_in_bounded_time(b in proptest::collection::vec(any::<u8>(), 0..512)) {
        bounded(&String::from_utf8_lossy(&b))?;
    }

    #[test]
    fn shell_token_soup_is_answered_in_bounded_time(s in soup()) {
        bounded(&s)?;
    }

    #[test]
    fn generated_scripts_are_answered_in_bounded_time(s in script()) {
        bounded(&s)?;
    }

    #[test]
    fn verdict_is_deterministic(s in prop_oneof![script(), soup()]) {
        let (a, b) = (verdict(&s), verdict(&s));
        prop_assert_eq!(&a, &b, "`{}`", s.escape_debug());
        let req = Request::new(&s).with_cwd(CWD).with_home(HOME);
        prop_assert_eq!(semantic_signature(&req), semantic_signature(&req));
    }

    #[test]
    fn prefix_wrappers_never_lower_the_class(c in simple(), w in proptest::sample::select(PREFIXES)) {
        let base = c.render();
        let wrapped = format!("{w}{base}");
        let (b, v) = (verdict(&base), verdict(&wrapped));
        prop_assert!(rank(&v) >= rank(&b), "{} but {}", show(&base, &b), show(&wrapped, &v));
    }

    #[test]
    fn structural_wrappers_never_lower_the_class(s in script(), how in 0..STRUCTURES) {
        let wrapped = wrap_structure(how, &s);
        let (b, v) = (verdict(&s), verdict(&wrapped));
        prop_assert!(rank(&v) >= rank(&b), "{} but {}", show(&s, &b), show(&wrapped, &v));
    }

    #[test]
    fn nested_wrappers_never_lower_the_class(c in simple(), ws in proptest::collection::vec(0..STRUCTURES + PREFIXES.len(), 1..4)) {
        let base = c.render();
        let mut wrapped = base.clone();
        for w in ws {
            wrapped = match w.checked_sub(STRUCTURES) {
                // `sudo ( … )` / `sudo { …; }` is a syntax error in bash, not a
                // wrapping: give the prefix a command to run instead.
                Some(p) if wrapped.starts_with(['(', '{']) => format!("{}bash -c {}", PREFIXES[p], sq(&wrapped)),
                Some(p) => format!("{}{wrapped}", PREFIXES[p]),
                None => wrap_structure(w, &wrapped),
            };
        }
        let (b, v) = (verdict(&base), verdict(&wrapped));
        prop_assert!(rank(&v) >= rank(&b), "{} but {}", show(&base, &b), show(&wrapped, &v));
    }

    #[test]
    fn a_leading_assignment_never_changes_the_class(
        c in simple(),
        a in proptest::sample::select(&["FOO=bar", "LANG=C", "TZ=UTC", "NO_COLOR=1", "DEBUG=1", "CI=true"][..]),
    ) {
        let base = c.render();
        let assigned = format!("{a} {base}");
        let (b, v) = (verdict(&base), verdict(&assigned));
        prop_assert_eq!(class(&v), class(&b), "{} but {}", show(&base, &b), show(&assigned, &v));
    }

    #[test]
    fn quoting_a_word_never_changes_the_class(c in simple(), pick in any::<prop::sample::Index>(), style in 0..QUOTE_STYLES) {
        let base = c.render();
        let mut q = c.clone();
        let i = pick.index(q.words.len());
        prop_assume!(quotable(&q.words[i]));
        q.words[i] = quote(style, &q.words[i]);
        let quoted = q.render();
        let (b, v) = (verdict(&base), verdict(&quoted));
        prop_assert_eq!(class(&v), class(&b), "{} but {}", show(&base, &b), show(&quoted, &v));
    }

    /// On a case-insensitive file system (macOS, Windows) `Rm`, `SuDo` and `GIT`
    /// run `rm`, `sudo` and `git`: a name in any case is at least as strict as
    /// its lower-case form, wrappers included.
    #[test]
    fn a_program_name_in_another_case_is_never_less_strict(
        c in simple(),
        w in proptest::option::of(proptest::sample::select(PREFIXES)),
        masks in (any::<u64>(), any::<u64>()),
    ) {
        let recase = |word: &str, mask: u64| -> String {
            word.chars().enumerate().map(|(i, ch)| if mask >> (i % 64) & 1 == 1 { ch.to_ascii_uppercase() } else { ch }).collect()
        };
        let lower = format!("{}{}", w.unwrap_or(""), c.render());
        let mut cased = c.clone();
        cased.words[0] = recase(&cased.words[0], masks.0);
        let cased = format!("{}{}", w.map(|w| recase(w, masks.1)).unwrap_or_default(), cased.render());
        let (b, v) = (verdict(&lower), verdict(&cased));
        prop_assert!(rank(&v) >= rank(&b), "{} but {}", show(&lower, &b), show(&cased, &v));
    }

    /// A nonce grant binds the exact command (issue 27 item 7): changing, adding
    /// or reordering any word of a unit, its redirect target or its working
    /// directory gives another key.
    #[test]
    fn two_commands_whose_units_differ_in_any_argument_never_share_a_key(
        c in simple(),
        pick in any::<prop::sample::Index>(),
        other in proptest::sample::select(&["-n", "prod", "staging", "--context", "-f", "x", "/", "--force", "main", "a b", "$X", "\"$X\"", "*"][..]),
        how in 0..4usize,
    ) {
        let sig = |cmd: &str, cwd: &str| semantic_signature(&Request::new(cmd).with_cwd(cwd).with_home(HOME));
        let base = c.render();
        let i = pick.index(c.words.len());
        let mut d = c.clone();
        match how {
            // Another word in place of one (`-n prod` → `-n staging`).
            0 => {
                prop_assume!(d.words[i] != other && !(other.starts_with('"') && d.words[i] == "$X"));
                d.words[i] = other.to_owned();
            }
            // One word more.
            1 => d.words.insert(i.max(1), other.to_owned()),
            // Two different words swapped (`--context a -n b` → `-n b --context a`).
            2 => {
                let j = (i + 1) % d.words.len();
                prop_assume!(i.min(j) > 0 && d.words[i] != d.words[j]);
                d.words.swap(i, j);
            }
            // Another redirect target.
            _ => d.redirect = Some(if d.redirect.as_deref() == Some("> out.txt") { "> out2.txt" } else { "> out.txt" }.to_owned()),
        }
        let changed = d.render();
        let (a, b) = (sig(&base, CWD), sig(&changed, CWD));
        prop_assert!(!a.is_empty() && a != b, "`{}` and `{}` share the key {}", base, changed, a);
        prop_assert_ne!(sig(&base, CWD), sig(&base, "/elsewhere"), "the working directory is part of the key");
    }

    #[test]
    fn appending_dry_run_never_raises_the_class(c in simple()) {
        let base = c.words.join(" ");
        let dry = format!("{base} --dry-run");
        let (b, v) = (verdict(&base), verdict(&dry));
        prop_assert!(rank(&v) <= rank(&b), "{} but {}", show(&base, &b), show(&dry, &v));
    }
}
