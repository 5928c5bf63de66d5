//! The one table of options that carry a command, code or an output path.
//!
//! An entry names the option's spellings, the programs it applies to and what
//! its value is ([`Carry`]). Entries with no programs apply to every program no
//! family models: there only spellings that mean "run this" or "write here" on
//! any CLI are listed (`--exec`, `--rsh`, `-o`, `--output`). Beyond the listed
//! spellings, an unmodelled program's option whose name says it runs something
//! ([`names_a_command`]: `--gpu-launcher`, `--command`, `-wrapper`,
//! `--rsh-path`, `--pre-exec`, `--renderer-cmd-prefix`) carries a command when it
//! has a value: its value is classified as a command line, so a value that is
//! data (`mytool --command pod`) stays free, and one that is not
//! (`mytool --command 'rm -rf ~'`) is judged as what it is.
//! Program-keyed entries apply whoever owns the program.
//!
//! GNU `getopt_long` accepts any unambiguous prefix of a long option, so a word
//! that is a prefix of an entry's long spelling matches it (`--rsh-c`), and
//! [`expand_abbreviation`] rewrites prefixes of the dangerous long options every
//! family checks (`git reset --h` is `--hard`) before any family sees them.

use crate::words;
use crate::words::Words;

use crate::call::{Arg, Invocation};
use crate::rules::vocab::{verbs, writes};

use super::values::{fzf_actions, hg_command, names_a_command, ssh_command, HgRuns};
use crate::rules::{Carried, Carry, Cx, Rule};

/// ## What it matches
/// An option whose value the program runs as a shell command: `rsync -e CMD`, `ssh -o ProxyCommand=CMD`, `man -P CMD`, `fzf --bind 'k:execute(CMD)'`, `git -c core.pager=CMD`, `hg --config alias.x='!CMD'`, `mytool --exec CMD`, `chrome --gpu-launcher=CMD`, `tar --checkpoint-action=exec=CMD`.
/// ## Why this tier
/// Informational (T0): the carried command is classified as a command line and its verdict counts.
pub(super) static OPTION_COMMAND: Rule = Rule::t0("exec.option-command")
    .reason("an option carries a command that the program runs; that command decides")
    .matches(words![
        "man -P cat ls", "fzf --bind 'enter:execute(less {})'", "mytool --exec 'ls'", "mytool --ssh-command 'ls' list", "strace -o '|gzip' ls",
        "chromium --gpu-launcher='ls'", "plymouth ask-for-password --command=ls", "gcc -wrapper gdb,--args x.c", "mytool --renderer-cmd-prefix 'ls'",
        "hg --config alias.x='!ls' x",
    ])
    .not_matches(words![
        "man ls", "fzf", "mytool --name ls", "strace -o trace.txt ls", "mytool --edit-command", "mytool --command-id 42",
        "mytool validate --command 'git push --force'",
    ]);

/// ## What it matches
/// A command-carrying option whose value holds a variable or substitution (`mytool --exec "$CMD"`, `ssh -o ProxyCommand=$X h`).
/// ## Why this tier
/// The command that runs is only known at run time.
pub(super) static OPTION_UNSEEN: Rule = Rule::t3("exec.option-command-unseen")
    .reason("an option carries a command built at run time (variable or substitution), so it cannot be checked; write it out literally")
    .matches(words!["mytool --exec \"$CMD\"", "man -P \"$X\" ls", "mytool --rsh=\"$RSH\" list", "mytool --gpu-launcher \"$L\"", "mytool --rsh-path=$P"])
    .not_matches(words![
        "mytool --exec ls", "man -P cat ls", "mytool --command-id \"$ID\"", "mytool --no-exec \"$F\"", "mytool --executable \"$BIN\"",
        "mytool --executor \"$E\"", "mytool --command-line \"$ARGS\"", "mytool --disable-wrapper \"$W\"",
    ]);

/// ## What it matches
/// An option whose value is code in a language tiergate does not analyse, or a file of such code: `latexmk -e '…'`, `vim -S x.vim`, `gdb -x cmds`, `lldb -s cmds`.
/// ## Why this tier
/// Unread code can do anything.
pub(super) static OPTION_CODE: Rule = Rule::t3("exec.option-code")
    .reason("an option hands the program code or a command file that tiergate does not read; run the commands directly or ask the user")
    .matches(words!["latexmk -e '$x=1' doc.tex", "latexmk -r build.rc doc.tex", "tectonic -Z shell-escape doc.tex", "cowsay -f ./evil.cow hi"])
    .not_matches(words!["latexmk -pdf doc.tex", "tectonic doc.tex", "cowsay -f tux hi"]);

/// ## What it matches
/// A flag that lets the program run shell commands from its input: TeX's `--shell-escape`/`--enable-write18`.
/// ## Why this tier
/// The document (or a package it loads) decides what runs.
pub(super) static OPTION_FLAG: Rule = Rule::t3("exec.option-shell-escape")
    .reason("the flag lets the program run shell commands from its input (shell escape); build without it or ask the user")
    .matches(words!["pdflatex --shell-escape doc.tex", "xelatex -shell-escape doc.tex", "latexmk -pdf -shell-escape doc.tex"])
    .not_matches(words!["pdflatex doc.tex", "latexmk -pdf doc.tex"]);

/// A table entry: options that carry something, and the programs they apply to.
/// A program's own carried options belong on its card (`Card::carries`); this table
/// keeps the spellings every unmodelled program is read with, and the programs
/// that have no card yet.
pub(crate) struct CarryOpt {
    /// Programs the entry applies to; empty means every program no family models.
    pub programs: Words,
    pub opt: Carried,
}

const fn any(names: Words, carry: Carry) -> CarryOpt {
    CarryOpt { programs: words![], opt: Carried { names, carry } }
}
const fn of(programs: Words, names: Words, carry: Carry) -> CarryOpt {
    CarryOpt { programs, opt: Carried { names, carry } }
}

crate::table! {
    /// Programs whose `-o Key=Value` is ssh's (`mosh` has none: its ssh command line is `--ssh`).
    SSH_LIKE = ["ssh", "scp", "sftp", "sshfs", "autossh"];
    probe "{} -o ProxyCommand='rm -rf ~/x' h:b ." => T3;
}
crate::table! {
    /// Compilers some family owns (interp's opaque table: `ghc -e`, `tcc -run`), so the
    /// program-free `-o` does not reach them. Unowned ones (`gcc`, `clang`, `zig` …) get
    /// that program-free entry: listing them here could never decide a verdict.
    COMPILERS = ["tcc", "ghc"];
    probe "{} -o /zzqx/x x.c" => T3;
}
crate::table! {
    TERMINALS = [
        "xterm", "uxterm", "urxvt", "rxvt", "konsole", "gnome-terminal", "xfce4-terminal", "terminator", "tilix", "alacritty", "st", "lxterminal", "mate-terminal",
        "qterminal", "sakura", "kitty", "wezterm", "foot",
    ];
    probe "{} -e make" => T3, "packages.make.unresolved";
}

/// Every option that carries a command, code or an output path. A registry test
/// checks spellings start with a dash and no program-free entry repeats another.
pub(crate) static TABLE: &[CarryOpt] = &[
    // Any CLI: spellings that always mean "run this command".
    any(
        words![
            "--exec", "--exec-command", "--rsh", "--rsh-command", "--password-command", "--passwordeval", "--ssh-cmd", "--ssh-command", "--ssh-program",
            "--wrapper", "--to-command", "--use-compress-program", "--pre-exec", "--post-exec", "--on-exit", "--preprocessor", "--shell-command",
            "--run-command",
        ],
        Carry::Shell,
    ),
    any(words!["-exec", "-execdir", "-ok", "-okdir"], Carry::Argv),
    any(words!["--checkpoint-action"], Carry::ExecPrefixed),
    // Any CLI: spellings that always mean "write here".
    any(
        words![
            "-o", "--output", "--out", "--outfile", "--out-file", "--output-file", "--output-document", "--write", "--log-file", "--logfile", "--save",
            "--dump-file", "--outdir", "--out-dir", "--output-dir",
        ],
        Carry::Output,
    ),
    // Shell-runners and remote-shell options of known programs.
    of(SSH_LIKE, words!["-o"], Carry::SshOption),
    of(words!["mosh"], words!["--ssh"], Carry::Shell),
    of(words!["hg", "chg"], words!["--config"], Carry::HgConfig),
    of(words!["man"], words!["-P", "--pager", "-H", "--html"], Carry::Shell),
    of(words!["fzf", "sk"], words!["--bind"], Carry::FzfBind),
    of(words!["fzf", "sk"], words!["--preview", "--become"], Carry::Shell),
    of(words!["nodemon"], words!["-x", "--exec"], Carry::Shell),
    of(words!["watchexec"], words!["--shell", "-s"], Carry::Shell),
    of(words!["nix-shell"], words!["--run", "--command"], Carry::Shell),
    of(words!["distrobox-enter"], words!["--", "-e", "--exec"], Carry::Shell),
    of(words!["vagrant"], words!["-c", "--command"], Carry::Shell),
    of(words!["cowsay", "cowthink"], words!["-f"], Carry::CodePath),
    of(TERMINALS, words!["-e", "-x", "--command", "--execute"], Carry::Shell),
    of(
        words!["openvpn"],
        words![
            "--up", "--down", "--route-up", "--route-pre-down", "--ipchange", "--client-connect", "--client-disconnect", "--learn-address", "--tls-verify",
            "--auth-user-pass-verify",
        ],
        Carry::Shell,
    ),
    of(words!["wg-quick"], words!["--up", "--down"], Carry::Shell),
    of(words!["mutt", "neomutt"], words!["-e"], Carry::Code),
    of(
        words!["latexmk"],
        words!["-pdflatex", "-latex", "-lualatex", "-xelatex", "-dvipdf", "-ps2pdf", "-pdfxelatex", "-pdflualatex", "-bibtex", "-makeindex", "-pv", "-pvc"],
        Carry::Shell,
    ),
    of(words!["latexmk"], words!["-e", "-r"], Carry::Code),
    of(words!["tectonic"], words!["-Z"], Carry::Code),
    of(words!["zathura", "mupdf"], words!["--synctex-editor-command", "-x"], Carry::Shell),
    of(words!["rpm", "rpmbuild", "rpmspec"], words!["--eval", "-E", "--define", "-D"], Carry::Macro),
    // Output paths of known programs.
    of(words!["openssl"], words!["-out", "-keyout", "-signkey"], Carry::Output),
    of(words!["tcpdump", "tshark", "dumpcap"], words!["-w"], Carry::Output),
    of(words!["pandoc", "iconv", "asciidoctor", "wkhtmltopdf", "rst2html"], words!["-o", "--output"], Carry::Output),
    of(words!["tsc"], words!["--outFile", "--outDir", "--out", "--declarationDir", "--tsBuildInfoFile"], Carry::Output),
    of(COMPILERS, words!["-o"], Carry::Output),
    of(words!["rustc"], words!["-o", "--out-dir"], Carry::Output),
    of(words!["javac"], words!["-d", "-h", "-s"], Carry::Output),
    of(words!["kotlinc", "scalac"], words!["-d"], Carry::Output),
    of(words!["gpg", "gpg2"], words!["-o", "--output"], Carry::Output),
    of(words!["mktemp"], words!["-p", "--tmpdir"], Carry::Output),
    of(words!["pg_basebackup"], words!["-D", "--pgdata"], Carry::Output),
    of(words!["ssh-keygen"], words!["-f"], Carry::Output),
    // A server's data directory: the database it writes as it runs.
    of(words!["prometheus"], words!["--storage.tsdb.path", "--storage.agent.path"], Carry::Output),
    of(words!["script"], words!["-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"], Carry::Output),
    of(words!["strace", "ltrace", "time", "perf"], words!["-o", "--output"], Carry::Output),
];

/// ## What it matches
/// An abbreviated long option (`git reset --h`, `wget --post-f=x`, `rm --no-pres /`), read as the dangerous option it abbreviates.
/// ## Why this tier
/// Informational (T0): GNU getopt_long accepts any unambiguous prefix, so the full option's rules apply.
pub static ABBREVIATION: Rule = Rule::t0("exec.option-abbreviation")
    .reason("an abbreviated long option is read as the option it abbreviates")
    .matches(words!["ls --recur", "wc --recursi x"])
    .not_matches(words!["git reset --hard", "git log --oneline", "ls --recursive", "ls --all", "mytool --check"]);

crate::table! {
    /// Long options some family treats as dangerous, that an abbreviation expands to.
    /// An exact spelling (also of a safe option in `SAFE`) is never rewritten.
    DANGEROUS_LONG = [
        "--hard", "--force", "--force-with-lease", "--delete", "--mirror", "--prune", "--no-preserve-root", "--recursive", "--post-file", "--post-data",
        "--body-file", "--body-data", "--upload-file", "--method", "--exec", "--execute", "--rsh", "--rsh-command", "--to-command", "--use-compress-program",
        "--checkpoint-action", "--shell-escape", "--output", "--output-document", "--remove", "--purge", "--all-namespaces", "--grace-period", "--auto-approve",
        "--cascade", "--yes", "--assume-yes", "--upload", "--eval", "--expression", "--in-place", "--unsafe-perm", "--global", "--system",
    ];
    probe "mytool {-}" => T0, "exec.option-abbreviation";
    probe only ["--force", "--no-preserve-root"] "mytool {-}" => T3, "fallback.force-flag";
    probe only ["--exec", "--rsh", "--rsh-command", "--to-command", "--use-compress-program"] "mytool {-}" => T3, "exec.option-command-unseen";
}
/// Long options a prefix often means, in sorted order for the prefix search.
static DANGER_ORDER: [u16; DANGEROUS_LONG.len()] = crate::sorted::order(DANGEROUS_LONG);
crate::table! {
    /// Exact spellings that are also prefixes of a dangerous option (`--all` of
    /// `--all-namespaces`, `--check` of `--checkpoint-action`): they are that option,
    /// never an abbreviation. Only such prefixes need listing; any other exact spelling
    /// abbreviates nothing in `DANGEROUS_LONG`.
    SAFE = ["--all", "--check"];
    probe "mytool {}" => T0, "default.elimination";
}

/// The dangerous long option `word` abbreviates, keeping any `=value`.
pub(crate) fn expand_abbreviation(word: &str) -> Option<String> {
    let rest = word.strip_prefix("--")?;
    let (name, value) = match rest.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (rest, None),
    };
    if name.is_empty() {
        return None;
    }
    // Most long words abbreviate no dangerous option, which one search of the
    // sorted table tells: the options that start with `--name` sort together,
    // first among those not below it.
    let spelled = &word[..2 + name.len()];
    let next = DANGER_ORDER.partition_point(|&i| crate::sorted::below(DANGEROUS_LONG.bytes_at(usize::from(i)), spelled.as_bytes()));
    if !DANGER_ORDER.get(next).is_some_and(|&i| DANGEROUS_LONG.get(usize::from(i)).starts_with(spelled)) {
        return None;
    }
    fn long(d: &'static str) -> Option<&'static str> {
        d.strip_prefix("--")
    }
    // The shortest dangerous option it is a prefix of (`--for` → `--force`); most
    // words abbreviate nothing, so that is asked first.
    let full = DANGEROUS_LONG.iter().filter(|d| long(d).is_some_and(|l| l.starts_with(name))).min_by_key(|d| d.len())?;
    // An exact spelling of any option tiergate knows is that option (`openvpn --up`).
    let exact = |d: &'static str| long(d) == Some(name);
    if DANGEROUS_LONG.iter().any(exact) || SAFE.iter().any(exact) || TABLE.iter().any(|e| e.opt.names.iter().any(exact)) {
        return None;
    }
    Some(match value {
        Some(v) => format!("{full}={v}"),
        None => (*full).to_owned(),
    })
}

/// Rewrites abbreviated dangerous long options in place (before `--`).
/// Returns whether any was rewritten.
pub(crate) fn expand_abbreviations(args: &mut [Arg]) -> bool {
    let mut changed = false;
    let end = crate::call::dashdash(args, crate::call::args::ArgSpec::values(words![])).unwrap_or(args.len());
    for a in &mut args[..end] {
        if let Some(full) = expand_abbreviation(&a.text) {
            a.text = full;
            changed = true;
        }
    }
    changed
}

/// True when `option` is an output-path option of `program` (an unmodelled one), in
/// the table or on its card.
pub(crate) fn is_output_option(program: &str, option: &str) -> bool {
    let output = |c: &Carried| c.carry == Carry::Output && c.names.contains(option);
    TABLE.iter().any(|e| (e.programs.is_empty() || e.programs.contains(program)) && output(&e.opt)) || crate::rules::carries_of(program).iter().any(output)
}

/// One option occurrence found in argv.
struct Found<'a> {
    entry: &'static Carried,
    /// The spelling as written (`--exec`, `-ofile`).
    spelled: &'a str,
    value: Option<Arg>,
    /// Index of the word after the option and its value.
    next: usize,
}

/// Checks every table option in `inv`'s argv.
pub(crate) fn check(inv: &Invocation, owned: bool, cx: &mut Cx<'_>) {
    // `trim_end_matches(".exe")` without building a substring searcher per unit.
    let mut program = inv.program.as_str();
    while let Some(p) = program.strip_suffix(".exe") {
        program = p;
    }
    let applies = |e: &CarryOpt| if e.programs.is_empty() { !owned } else { e.programs.contains(program) };
    // Most units have no option the table knows: skip them before looking at argv.
    if crate::call::option_words(&inv.args).next().is_none() {
        return;
    }
    // The entries for this program, chosen once per unit rather than per word: the
    // table's, then its card's.
    let entries: Vec<&'static Carried> = TABLE.iter().filter(|e| applies(e)).map(|e| &e.opt).chain(crate::rules::carries_of(program)).collect();
    if entries.is_empty() && owned {
        return;
    }
    let args = &inv.args;
    let mut i = 0;
    while i < args.len() {
        if args[i].text == "--" {
            break;
        }
        let Some(found) = find(args, i, &entries).or_else(|| if owned { None } else { by_name(args, i) }) else {
            i += 1;
            continue;
        };
        judge(inv, &found, cx);
        i = found.next.max(i + 1);
    }
}

fn find<'a>(args: &'a [Arg], i: usize, entries: &[&'static Carried]) -> Option<Found<'a>> {
    let word = args[i].text.as_str();
    if !word.starts_with('-') || word.len() < 2 {
        return None;
    }
    let (name, inline) = crate::call::args::split_option(word);
    let exact = entries.iter().copied().find(|e| e.names.contains(name));
    // `--rsh-c` abbreviates `--rsh-command`: a unique long-option prefix matches.
    let prefixed = || {
        if name.len() < 4 {
            return None;
        }
        // Only with a value in sight: `bshell --ssh` is that CLI's own flag, not `--ssh-command`.
        let valued = inline.is_some() || args.get(i + 1).is_some_and(|n| !n.text.starts_with('-'));
        if !valued {
            return None;
        }
        let candidates = entries.iter().copied().flat_map(|e| e.names.iter().map(move |n| (n, e)));
        crate::call::args::long_prefix(name, candidates, |a, b| a.carry == b.carry).map(|(_, e)| e)
    };
    let entry = exact.or_else(prefixed);
    if let Some(entry) = entry {
        let value_at = |k: usize| args.get(k).cloned();
        return Some(match (entry.carry, inline) {
            (Carry::Flag, _) => Found { entry, spelled: word, value: None, next: i + 1 },
            (Carry::Argv, _) => {
                let end = args[i + 1..].iter().position(|a| matches!(a.text.as_str(), ";" | "+" | "\\;")).map_or(args.len(), |p| i + 1 + p);
                let words: Vec<&str> = args[i + 1..end].iter().map(|a| a.text.as_str()).collect();
                let exact_all = args[i + 1..end].iter().all(|a| a.exact);
                let secret = args[i + 1..end].iter().map(|a| a.secret).max().unwrap_or_default();
                let value = Arg { text: words.join(" "), exact: exact_all, quoted: false, span: args[i].span, secret };
                Found { entry, spelled: word, value: Some(value), next: end + 1 }
            }
            (_, Some(v)) => Found { entry, spelled: name, value: Some(Arg { text: v.to_owned(), ..args[i].clone() }), next: i + 1 },
            // `cpio -o --rsh-command=…`: an output option never swallows the next option.
            (Carry::Output, None) if args.get(i + 1).is_some_and(|n| n.text.starts_with('-') && n.text.len() > 1) => {
                Found { entry, spelled: word, value: None, next: i + 1 }
            }
            (_, None) => Found { entry, spelled: word, value: value_at(i + 1), next: i + 2 },
        });
    }
    // `-ofile`: a one-letter option with its value packed on.
    if word.starts_with("--") || word.len() <= 2 {
        return None;
    }
    let short = &word[..2];
    let entry = entries.iter().copied().find(|e| e.names.contains(short) && !matches!(e.carry, Carry::Flag | Carry::Argv))?;
    Some(Found { entry, spelled: short, value: Some(Arg { text: word[2..].to_owned(), ..args[i].clone() }), next: i + 1 })
}

/// What an option found by its name's shape carries ([`names_a_command`]).
static NAMED_COMMAND: Carried = Carried { names: words![], carry: Carry::Shell };

/// An unmodelled program's option that carries a command by its name's shape,
/// when a value is in sight (`--cmd-prefix=V`, or `--launcher V` with `V` not an
/// option): a flag of the same shape (`mytool --edit-command`) carries nothing,
/// and neither does one after a subcommand that reads or validates
/// (`mytool validate --command 'git push --force'`: the command is its data).
fn by_name(args: &[Arg], i: usize) -> Option<Found<'_>> {
    let (name, inline) = crate::call::args::split_option(&args[i].text);
    if !names_a_command(name) {
        return None;
    }
    let verb = args[..i].iter().find(|a| !a.text.starts_with('-')).map(|a| a.text.as_str());
    if verb.is_some_and(|v| verbs::VALIDATE_VERBS.contains(v) || verbs::READ_ONLY_VERBS.contains(v)) {
        return None;
    }
    let value = match inline {
        Some(v) => Arg { text: v.to_owned(), ..args[i].clone() },
        None => args.get(i + 1).filter(|n| !n.text.starts_with('-')).cloned()?,
    };
    // gcc's `-wrapper gdb,--args` is an argv joined by commas: each piece one word.
    let value = if name.ends_with("wrapper") && value.text.contains(',') {
        let words: Vec<String> = value.text.split(',').map(|w| format!("'{}'", w.replace('\'', "'\\''"))).collect();
        Arg { text: words.join(" "), ..value }
    } else {
        value
    };
    Some(Found { entry: &NAMED_COMMAND, spelled: name, value: Some(value), next: if inline.is_some() { i + 1 } else { i + 2 } })
}

fn judge(inv: &Invocation, f: &Found<'_>, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let program = &inv.program;
    match f.entry.carry {
        // Where a credential is used as one: the flow pass reads these (`flow::secrets`).
        Carry::Credential | Carry::Header => {}
        Carry::Flag => cx.hit_because(&OPTION_FLAG, format!("`{program} {}`: {}", f.spelled, OPTION_FLAG.reason)),
        Carry::Code => cx.hit_because(&OPTION_CODE, format!("`{program} {}`: {}", f.spelled, OPTION_CODE.reason)),
        Carry::Output => {
            // `ssh-keygen -l -f key`, `-y -f key`: these read the key file.
            let reads_key = program == "ssh-keygen"
                && inv.args.iter().any(|a| matches!(a.text.as_str(), "-l" | "-y" | "-F" | "-B" | "-L" | "-e" | "-i" | "-D" | "-lf" | "-yf"));
            // `strace -o '|cmd'` / `-o '!cmd'` pipes the trace into a shell command.
            let piped =
                f.value.as_ref().filter(|_| program == "strace").and_then(|v| v.text.strip_prefix(['|', '!']).map(|c| Arg { text: c.to_owned(), ..v.clone() }));
            if let Some(cmd) = piped {
                run(cx, program, f.spelled, &cmd, cwd);
            } else if let Some(v) = f.value.as_ref().filter(|_| !reads_key) {
                writes::check_write(cx, v, cwd);
            }
        }
        Carry::CodePath => {
            if f.value.as_ref().is_some_and(|v| !v.exact || v.text.contains('/')) {
                cx.hit_because(&OPTION_CODE, format!("`{program} {}` loads a code file from a path: {}", f.spelled, OPTION_CODE.reason));
            }
        }
        Carry::Macro => {
            if f.value.as_ref().is_some_and(|v| !v.exact || v.text.contains("%(") || v.text.contains("%{lua")) {
                cx.hit_because(&OPTION_CODE, format!("`{program} {}` expands a macro that runs a shell command or Lua; {}", f.spelled, OPTION_CODE.reason));
            }
        }
        // A name-found option's value is often a prefix the program completes with its
        // own command (`dpkg-buildpackage --root-command=fakeroot`, `--gpu-launcher=valgrind`):
        // a wrapper with nothing after it there runs no interactive shell. A privileged one
        // (`--launcher sudo`) still asks.
        Carry::Shell if std::ptr::eq(f.entry, &NAMED_COMMAND) => {
            if let Some(v) = &f.value {
                let before = cx.hits.len();
                run(cx, program, f.spelled, v, cwd);
                let mut k = 0;
                cx.hits.retain(|h| {
                    k += 1;
                    k <= before || !std::ptr::eq(h.rule, &crate::rules::WRAPPER_SHELL)
                });
            }
        }
        Carry::Shell | Carry::Argv => match &f.value {
            Some(v) => run(cx, program, f.spelled, v, cwd),
            None => cx.hit_because(&OPTION_UNSEEN, format!("`{program} {}` is given no command; {}", f.spelled, OPTION_UNSEEN.reason)),
        },
        Carry::ExecPrefixed => {
            if let Some(v) = &f.value {
                if let Some(cmd) = v.text.strip_prefix("exec=") {
                    run(cx, program, f.spelled, &Arg { text: cmd.to_owned(), ..v.clone() }, cwd);
                }
            }
        }
        Carry::SshOption => {
            if let Some(v) = &f.value {
                if let Some(cmd) = ssh_command(&v.text) {
                    run(cx, program, f.spelled, &Arg { text: cmd.to_owned(), ..v.clone() }, cwd);
                }
            }
        }
        Carry::HgConfig => match f.value.as_ref().map(|v| (v, hg_command(&v.text))) {
            Some((v, Some(HgRuns::Shell(cmd)))) => run(cx, program, f.spelled, &Arg { text: cmd.to_owned(), ..v.clone() }, cwd),
            Some((_, Some(HgRuns::Python))) => cx.hit_because(&OPTION_CODE, format!("`{program} {}` sets a Python hook: {}", f.spelled, OPTION_CODE.reason)),
            _ => {}
        },
        Carry::FzfBind => {
            if let Some(v) = &f.value {
                for cmd in fzf_actions(&v.text) {
                    run(cx, program, f.spelled, &Arg { text: cmd, ..v.clone() }, cwd);
                }
            }
        }
    }
}

/// Classifies a carried command line, or says it cannot be seen.
fn run(cx: &mut Cx<'_>, program: &str, option: &str, value: &Arg, cwd: Option<&str>) {
    if !value.exact {
        cx.hit_because(&OPTION_UNSEEN, format!("`{program} {option}` runs `{}`, built at run time; {}", value.text, OPTION_UNSEEN.reason));
        return;
    }
    cx.hit_because(&OPTION_COMMAND, format!("`{program} {option}` runs its value as a command: `{}`", value.text));
    cx.shell(&value.text, cwd);
}

crate::tables![SSH_LIKE, COMPILERS, TERMINALS, DANGEROUS_LONG, SAFE];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_spellings_are_options() {
        let cards = crate::rules::FAMILIES.iter().flat_map(|f| f.cards.iter()).flat_map(|c| c.carries.iter());
        for e in TABLE.iter().map(|e| &e.opt).chain(cards) {
            for n in e.names {
                assert!(n.starts_with('-'), "{n} lacks a dash");
            }
        }
        let mut seen = std::collections::HashSet::new();
        for e in TABLE.iter().filter(|e| e.programs.is_empty()) {
            for n in e.opt.names {
                assert!(seen.insert(n), "{n} is listed twice among program-free entries");
            }
        }
    }

    #[test]
    fn abbreviations_expand_to_the_dangerous_option() {
        assert_eq!(expand_abbreviation("--h").as_deref(), Some("--hard"));
        assert_eq!(expand_abbreviation("--post-f=/etc/passwd").as_deref(), Some("--post-file=/etc/passwd"));
        assert_eq!(expand_abbreviation("--for").as_deref(), Some("--force"));
        assert_eq!(expand_abbreviation("--force"), None);
        assert_eq!(expand_abbreviation("--help"), None);
        assert_eq!(expand_abbreviation("--oneline"), None);
        assert_eq!(expand_abbreviation("--"), None);
        // `--up` is openvpn's own option, not a prefix of `--upload`.
        assert_eq!(expand_abbreviation("--up"), None);
    }
}
