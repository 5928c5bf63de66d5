//! Computed words where an option goes: for programs whose options decide what
//! they do, a word built at run time (`$X`, `"$(…)"`) that could expand to an
//! option is not assumed to be an inert operand (`find . $(echo -delete)`,
//! `tar $(echo -x) -f a.tar -C /`, `rsync -a $(echo --delete) src/ dst/`).
//!
//! The argument layer decides where an option goes (`call::args::computed_option`,
//! under each program's declared reading); this file only names the programs
//! and their readings. Programs whose every option only reads (`ls`, `cat`,
//! `grep`), and programs whose computed operands are the normal use and whose
//! effects their families gate whatever the operands (`curl "$API_URL/health"`,
//! `kubectl get pod "$POD"`), are not listed and keep computed operands free.

use crate::call::args::{computed_option, ArgSpec, Args, Token};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::verdict::Tier;
use crate::words;
use crate::words::Words;

/// ## What it matches
/// A word computed at run time standing where an option goes, for a program whose options decide what it does: `find . $(echo -delete)`, `tar $X -f a.tar -C /`, `rsync -a "$OPTS" src/ dst/`, `git diff "$REV"`, `dd $X if=a of=b`, `sed -$FLAGS s/a/b/ f`.
/// ## Why this tier
/// The word may be any option (`-delete`, `--to-command=…`, `--output=/etc/x`, `of=/dev/sda`), and for these programs the options are the effect.
/// Write the option out literally, or end the options with `--` before computed operands.
/// ## Known gaps
/// Filename globs are not counted (`tar cf a.tar *` with a file named `--checkpoint-action=…`): the file must be created first, by a command tiergate sees.
/// Programs not in the table keep computed operands free.
pub(super) static COMPUTED_OPTION: Rule = Rule::t3("exec.computed-option")
    .reason("a word computed at run time stands where an option goes, and this program's options decide what it does; write the option out literally, or put `--` before computed operands")
    .matches(words![
        "find . $(echo -delete)", "tar $(echo -x) -f a.tar -C /", "rsync -a $(echo --delete) src/ build/", "git diff \"$REV\"", "dd $X if=a.img of=b.img",
        "sort $X data.txt", "cargo test $T", "find \"$DIR\" -name '*.pyc'", "tar xf a.tar $X",
    ])
    .not_matches(words![
        "ls $(echo -la)", "cat \"$FILE\"", "grep -r \"$PAT\" .", "tar -xf \"$ARCHIVE\" -C build/", "git commit -m \"$MSG\"", "git log -n \"$N\" --oneline",
        "find . -name \"$PAT\" -print", "find . -name '*.rs' -exec grep -l \"$PAT\" {} +", "rm -- \"$F\"", "sort -o out.txt -k \"$K\" data.txt",
    ]);

/// One reading: programs and the options of theirs that take a value (`None`: the
/// reading their card declares, `Card::args`).
struct Reading {
    programs: Words,
    spec: Option<ArgSpec>,
}

crate::table! {
    /// Options common to package managers that take a value (`npm --prefix DIR`,
    /// `pip -r FILE`, `cargo -p NAME`, `apt-get -o KEY=VALUE`); any other is a flag.
    PACKAGE_VALUES = [
        "--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--filter", "--registry", "--tag", "-r", "--requirement", "-c", "--constraint", "-t", "--target",
        "-i", "--index-url", "--extra-index-url", "--find-links", "--root", "-e", "--editable", "-p", "--package", "--python", "--config", "--manifest-path",
        "--features", "-F", "--bin", "--example", "--test", "--bench", "--profile", "--target-dir", "-j", "--jobs", "-o", "--target-release", "--color",
        "--message-format",
    ];
}

crate::table! {
    /// git's value options, global and of its subcommands, that are commonly given a
    /// computed value (`-m "$MSG"`, `-n "$N"`, `--format "$F"`); any other is a flag.
    GIT_VALUES = [
        "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "-m", "--message", "-F", "--file", "-n", "--max-count", "--author", "--committer",
        "--date", "--format", "--pretty", "-b", "-B", "--since", "--until", "--after", "--before", "--grep", "-S", "-G", "--branch", "--depth", "--shallow-since",
        "--onto", "--upstream", "--set-upstream-to", "-u", "--reference", "--template", "--origin", "--abbrev", "--skip", "-U", "--unified", "--diff-filter",
        "--encoding", "--trailer", "--reuse-message", "--fixup", "--squash", "--strategy", "-X", "--strategy-option", "--points-at", "--contains", "--merged",
        "--no-merged", "--sort", "--jobs", "-j",
    ];
}

crate::table! {
    /// find's expression primaries and options that take a value, whole words (`-name PAT`).
    FIND_VALUES = [
        "-D", "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype", "-size", "-perm",
        "-user", "-group", "-uid", "-gid", "-newer", "-anewer", "-cnewer", "-newermt", "-newerct", "-newerat", "-newerBt", "-mtime", "-mmin", "-atime", "-amin",
        "-ctime", "-cmin", "-used", "-maxdepth", "-mindepth", "-links", "-inum", "-samefile", "-fstype", "-printf", "-fprint", "-fprint0", "-fls", "-context",
        "-regextype",
    ];
}

/// The programs whose options decide what they do, each with its reading.
static READINGS: &[Reading] = &[
    Reading { programs: words!["find"], spec: Some(ArgSpec::values(FIND_VALUES).single_dash_long()) },
    Reading { programs: words!["tar", "bsdtar", "gtar"], spec: None },
    Reading { programs: words!["rsync"], spec: None },
    Reading { programs: words!["sed", "gsed"], spec: None },
    Reading { programs: words!["dd"], spec: Some(ArgSpec::values(words![])) },
    Reading { programs: words!["git"], spec: Some(ArgSpec::values(GIT_VALUES).with_optional(words!["--output", "-O"])) },
    Reading {
        programs: words!["cp", "mv", "rm", "ln", "install", "shred", "truncate"],
        spec: Some(
            ArgSpec::values(words!["-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group", "-s", "--size", "-n"])
                .packed(),
        ),
    },
    Reading {
        programs: words!["sort"],
        spec: Some(
            ArgSpec::values(words!["-o", "--output", "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory"]).packed(),
        ),
    },
    Reading {
        programs: words!["npm", "pnpm", "yarn", "pip", "pip3", "uv", "cargo", "gem", "composer", "poetry", "apt", "apt-get", "brew"],
        spec: Some(ArgSpec::values(PACKAGE_VALUES)),
    },
];

/// Runs for every unit: asks when a computed word stands where an option goes.
pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    // Most units hold no computed word; and a unit its family already gates needs no second reason.
    if inv.args.iter().all(|a| a.exact) || cx.reached(Tier::T3) {
        return;
    }
    let Some(reading) = READINGS.iter().find(|r| r.programs.contains(inv.program.as_str())) else {
        return;
    };
    let Some(spec) = reading.spec.or_else(|| crate::rules::args_of(&inv.program)) else {
        return;
    };
    if let Some(i) = computed_word(&inv.program, &inv.args, spec) {
        let detail = format!(
            "`{}` may read `{}` as an option, and its options decide what it does; write the option out literally, or put `--` before computed operands",
            inv.program, inv.args[i].text
        );
        cx.hit_because(&COMPUTED_OPTION, detail);
    }
}

/// Where a computed option word is, reading `args` as `program` does.
fn computed_word(program: &str, args: &[Arg], spec: ArgSpec) -> Option<usize> {
    match program {
        // `-exec CMD … ;` is a command of its own, whose words its program reads.
        "find" => {
            let mut from = 0;
            loop {
                let end = args[from..].iter().position(|a| matches!(a.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")).map_or(args.len(), |p| from + p);
                if let Some(i) = computed_option(&args[from..end], spec) {
                    return Some(from + i);
                }
                let resume = args[end..].iter().position(|a| matches!(a.text.as_str(), ";" | "+" | "\\;"))?;
                from = end + resume + 1;
            }
        }
        // `tar xzf a.tgz`: an old-style first word is a cluster of options (read as
        // the archive family reads it: a first operand of letters only).
        "tar" | "bsdtar" | "gtar" if old_style(args, spec) => {
            let mut dashed = args.to_vec();
            dashed[0].text.insert(0, '-');
            computed_option(&dashed, spec)
        }
        _ => computed_option(args, spec),
    }
}

/// True when tar's first word is an old-style bundle (`xzf`), not an operand.
fn old_style(args: &[Arg], spec: ArgSpec) -> bool {
    match Args::parse(args, spec).next() {
        Some(Token::Operand(o)) => o.index == 0 && o.arg.exact && !o.arg.text.is_empty() && o.arg.text.chars().all(|c| c.is_ascii_alphabetic()),
        _ => false,
    }
}

crate::tables![PACKAGE_VALUES, GIT_VALUES, FIND_VALUES];
