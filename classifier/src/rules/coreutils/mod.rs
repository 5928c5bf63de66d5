//! The `coreutils` family: file and text tools that delete (`rm`, `shred`),
//! write (`cp mv ln install mkdir touch truncate tee sort -o`), format disks
//! (`dd mkfs fdisk …`), change permissions (`chmod chown …`), run other
//! programs (`find -exec`, `rg --pre`, `tar --to-command`), edit in place
//! (`sed -i`, `strip`, `dos2unix`, `patchelf` …) or copy trees (`tar unzip rsync …`).
//!
//! Writes go through `writes::check_write` (free inside the working tree).
//! Read-only tools (`ls cat head grep wc …`) are not owned here: they are safe
//! by elimination. Interpreters (`awk`, `perl`), `curl` and services are other families.

use crate::words;
use crate::words::Words;

mod archive;
mod disk;
mod find;
mod inplace;
mod patch;
mod perms;
mod rm;
mod sed;
mod text;
mod write;

use crate::call::args::Help;
use crate::call::{Arg, Invocation};
use crate::lanes::resolve;
use crate::rules::vocab::writes;
use crate::rules::{Card, Carried, Carry, Cx, Family, Rule, Traits};

/// True for a `/dev/…` path naming a disk (not `/dev/null`, `/dev/stdout` …), for
/// other lanes that see writes to devices (redirects: `cat x > /dev/sda`).
pub use disk::is_device as is_block_device;

pub static FAMILY: Family = Family::new("coreutils", CARDS, RULES).answers_help(&HELP);

/// `--help` and `--version` with no operand: GNU tools print and exit (`rm --help`);
/// `rm -rf / --help` is judged as `rm -rf /`. The cards' readings find them as
/// options of their own, never as a value (`tar -f --help`).
const HELP_WORDS: Help = Help::LONG.with(Help::VERSION).without_operands();

static CARDS: &[Card] = &[
    Card::of(words!["rm", "rmdir", "unlink", "shred", "srm", "wipe"], rm::check).help(HELP_WORDS),
    Card::of(words!["mv", "cp", "ln", "install", "mkdir", "touch", "truncate", "tee", "sponge", "rename"], write::check).help(HELP_WORDS),
    Card::of(words!["chmod", "chown", "chgrp", "chattr", "setfacl", "chflags", "setfattr"], perms::check).help(HELP_WORDS),
    Card::of(words!["setcap"], perms::setcap).help(HELP_WORDS),
    Card::of(disk::VOLUME_TOOLS, disk::volume).help(HELP_WORDS),
    Card::of(words!["find"], find::check).help(HELP_WORDS),
    Card::of(words!["fd", "fdfind"], find::fd).help(HELP_WORDS),
    Card::of(words!["sed", "gsed"], sed::check).args(sed::SED_ARGS).help(HELP_WORDS),
    Card::of(words!["sort", "uniq", "shuf", "split", "base64", "rg", "tree", "xxd"], text::check).help(HELP_WORDS),
    Card::of(words!["patch"], patch::check).help(HELP_WORDS),
    Card::of(inplace::PROGRAMS, inplace::check).help(HELP_WORDS),
    Card::of(words!["yq"], inplace::yq).help(HELP_WORDS),
    Card::of(words!["zip", "unzip", "gzip", "gunzip", "xz", "unxz", "bzip2", "bunzip2", "zstd", "unzstd", "7z", "7za", "7zz"], archive::check).help(HELP_WORDS),
    Card::of(words!["tar", "gtar", "bsdtar"], archive::check).args(archive::TAR_ARGS).help(HELP_WORDS),
    // rsync copies to other machines too: what it reads can leave.
    // Its transport command (`-e "ssh -i $KEY"`) is judged as the command it is.
    Card::of(words!["rsync"], archive::check)
        .traits(Traits::NETWORK_SINK)
        .args(archive::RSYNC_ARGS)
        .carries(&[Carried { names: words!["-e", "--rsh", "--password-file"], carry: Carry::Credential }])
        .help(HELP_WORDS),
    Card::of(
        words![
            "dd", "mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos", "mkfs.btrfs", "mkfs.ntfs", "mkfs.exfat",
            "mkfs.f2fs", "mke2fs", "mkswap", "mkntfs", "fdisk", "sfdisk", "gdisk", "sgdisk", "cfdisk", "parted", "wipefs", "blkdiscard",
        ],
        disk::check,
    )
    .help(HELP_WORDS),
];

static RULES: &[&Rule] = &[
    &WRITE,
    &HELP,
    &rm::RM,
    &rm::CATASTROPHIC,
    &rm::NO_PRESERVE_ROOT,
    &rm::UNRESOLVED,
    &rm::SHRED,
    &write::MOVE,
    &write::SECRET,
    &disk::DEVICE_WRITE,
    &disk::FORMAT,
    &disk::READ,
    &disk::VOLUME_DESTROY,
    &perms::CAPS,
    &perms::MODE,
    &perms::OPEN_MODE,
    &perms::OWNER,
    &perms::CATASTROPHIC,
    &find::DELETE,
    &find::DELETE_ROOT,
    &find::EXEC,
    &sed::EXEC,
    &text::RUNS_PROGRAM,
    &archive::RUNS_PROGRAM,
    &archive::REMOVES_SOURCE,
    &archive::REMOTE_ARCHIVE,
    &archive::RSYNC_DELETE,
    &archive::RSYNC_REMOTE,
    &archive::RSYNC_DRY_RUN,
    &patch::UNSEEN,
    &patch::DRY_RUN,
];

/// ## What it matches
/// A file tool whose writes all land inside the working tree (or scratch space):
/// `cp a b`, `mkdir -p src/new`, `touch src/new.rs`, `tee out.log`, `sed -i … file`, `tar -xzf x.tgz`;
/// `mv` onto a name that does not exist yet, and `chmod +x` of files in the tree.
/// ## Why this tier
/// Authoring is not mutation: the agent's edits to its own tree are reviewable in the diff.
pub static WRITE: Rule = Rule::t0("coreutils.write")
    .reason("writes only inside the working tree (authoring, not a change to live state)")
    .matches(words![
        "cp src.txt dst.txt",
        "mkdir -p src/new/module",
        "touch src/new.rs",
        "tee output.log",
        "sed -i 's/foo/bar/g' src/main.rs",
        "ln -s ../shared/config.toml config.toml",
        "tar -xzf vendor.tar.gz",
        "sort -o sorted.txt names.txt",
        "patch -p1 <<'EOF'\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\nEOF",
        "mv build/out.py_new src/out.py",
        "chmod +x scripts/run.sh",
    ])
    .not_matches(words!["cp bin/tool /usr/local/bin/", "mkdir /etc/myapp", "tee /etc/hosts", "rm x"]);

/// ## What it matches
/// `--help` or `--version` with no operands (`rm --help`, `mkfs --help`).
/// ## Why this tier
/// GNU tools print and exit; nothing else happens.
pub static HELP: Rule = Rule::t0("coreutils.help")
    .reason("prints the tool's help or version; nothing runs")
    .matches(words!["rm --help", "mkfs --help", "dd --version"])
    .not_matches(words!["rm -rf / --help", "rm x"]);

/// Operand words of `inv` (a view of [`crate::call::args::Args::operands`]): neither options
/// nor values of the given value-taking options (`-o out`, `--output out`).
pub(crate) fn operand_args(inv: &Invocation, value_flags: Words) -> Vec<&Arg> {
    crate::call::args::Args::parse(&inv.args, crate::call::args::ArgSpec::values(value_flags)).operands().map(|o| o.arg).collect()
}

/// `writes::check_write`, after resolving a leading `$HOME`/`$PWD` (`${…}` too)
/// when nothing else in the word is unresolved: `mkdir -p "$PWD/build"` writes
/// inside the tree.
pub(crate) fn write_to(cx: &mut Cx<'_>, a: &Arg, cwd: Option<&str>) {
    if !a.exact {
        if let Some(text) = expand_known(&a.text, cwd) {
            writes::check_write(cx, &Arg { text, exact: true, ..a.clone() }, cwd);
            return;
        }
    }
    writes::check_write(cx, a, cwd);
}

/// `$HOME/x` → `~/x`, `$PWD/x` → `<cwd>/x`; `None` if anything else stays unresolved.
fn expand_known(text: &str, cwd: Option<&str>) -> Option<String> {
    for (var, by) in [("${HOME}", Some("~")), ("$HOME", Some("~")), ("${PWD}", cwd), ("$PWD", cwd)] {
        if let Some(rest) = text.strip_prefix(var) {
            let by = by?;
            if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') || rest.contains(['$', '`', '*', '?', '[', '{']) {
                return None;
            }
            return Some(format!("{by}{rest}"));
        }
    }
    None
}

/// Records the authoring hit when nothing stricter fired on this unit, so
/// `explain` says why a writing tool was free.
pub(crate) fn wrote(cx: &mut Cx<'_>) {
    if !cx.reached(crate::verdict::Tier::T1) {
        cx.hit(&WRITE);
    }
}

/// A path argument resolved against cwd and home, expanding a leading `$HOME`/
/// `${HOME}` and dropping a trailing `/` or `/*` glob; `None` when any other
/// expansion remains. `glob` reports a dropped `*`.
pub(crate) struct Target {
    pub abs: String,
    pub glob: bool,
}

const UNKNOWN_CWD: &str = "/__cwd__/a/b/c/d";
/// Stands in for the home directory when the request did not say.
pub(crate) const UNKNOWN_HOME: &str = "/__home__";

pub(crate) fn target(a: &Arg, cwd: Option<&str>, home: Option<&str>) -> Option<Target> {
    let mut text = a.text.clone();
    if !a.exact {
        // `$HOME`, `${HOME}`, `${HOME:?}`, `${HOME:-x}`: all the home directory.
        let rest = if let Some(r) = text.strip_prefix("$HOME") {
            (!r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')).then(|| r.to_owned())
        } else if let Some(r) = text.strip_prefix("${HOME") {
            match r.chars().next() {
                Some('}') => Some(r[1..].to_owned()),
                Some(':') => r.find('}').map(|e| r[e + 1..].to_owned()),
                _ => None,
            }
        } else {
            None
        };
        if let Some(r) = rest {
            text = format!("~{r}");
        }
    }
    // `~name` is that user's home directory.
    if let Some(user) = text.strip_prefix('~').filter(|u| !u.is_empty() && !u.starts_with('/')) {
        let (name, rest) = user.split_once('/').map_or((user, ""), |(n, r)| (n, r));
        if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.') {
            let base = if name == "root" { "/root".to_owned() } else { format!("/home/{name}") };
            text = if rest.is_empty() { base } else { format!("{base}/{rest}") };
        }
    }
    let mut glob = false;
    loop {
        while text.len() > 1 && text.ends_with('/') {
            text.pop();
        }
        if text == "*" || text == ".*" {
            text = ".".to_owned();
            glob = true;
        } else if let Some(s) = text.strip_suffix("/*").or_else(|| text.strip_suffix("/.*")) {
            text = if s.is_empty() { "/".to_owned() } else { s.to_owned() };
            glob = true;
        } else {
            break;
        }
    }
    if text.is_empty() || text.contains(['$', '`', '*', '?', '[']) {
        return None;
    }
    // An unknown cwd is taken as a deep stand-in, so relative paths stay relative
    // to something (only a long `../..` climb can then reach `/`).
    let abs = resolve(&text, Some(cwd.unwrap_or(UNKNOWN_CWD)), Some(home.unwrap_or(UNKNOWN_HOME)))?;
    Some(Target { abs, glob })
}

/// Like `Invocation::value_of`, but keeps the word's exactness (a `-o $OUT`
/// value is unresolved, so a write there is T3).
pub(crate) fn value_arg(inv: &Invocation, spellings: Words) -> Option<Arg> {
    crate::call::option_arg(&inv.args, spellings)
}

crate::tables![; archive, disk, inplace, patch, perms, rm, write];
