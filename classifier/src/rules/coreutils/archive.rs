//! Archivers, compressors and `rsync`: which files they write (the archive when
//! creating, the destination when extracting or copying — through
//! `writes::check_write`), whether they delete sources or destination files, and
//! the options that run another program (`tar --to-command`, `-I`, `rsync -e`).
//!
//! It does not see inside archives: an entry with `../` or an absolute name
//! (zip-slip) is a known gap, except `tar -P`, which is gated.

use super::write::copy_dest;
use super::{operand_args, value_arg, wrote};
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{basename, Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `tar --to-command|--use-compress-program|-I|--checkpoint-action=exec=|--rsh-command|
/// --info-script|-F|--new-volume-script`, `zip -TT|--unzip-command`, `rsync -e CMD`
/// (other than ssh) and `rsync --rsync-path`.
/// ## Why this tier
/// The named program runs with the user's rights (or on the remote host).
pub(super) static RUNS_PROGRAM: Rule = Rule::t3("coreutils.archive.runs-program")
    .reason("this archiver option runs another program; run that program yourself, or drop the option")
    .matches(words![
        "tar -xf a.tar --to-command='sh -c x'", "tar -I zstd -cf a.tar.zst dir", "tar --checkpoint=1 --checkpoint-action=exec=id -cf a.tar d",
        "rsync -e 'nc -x' a host:b", "zip -TT 'sh -c id' a.zip f", "zip a.zip f -T -TT='sh -c id'", "zip a.zip f -T -TT'sh -c id'",
        "zip a.zip f -qTT 'sh -c id'", "rsync -a --rsync-path='sudo rsync' ./site/ prod:/var/www/",
    ])
    .not_matches(words![
        "tar -czf out.tar.gz dir/", "zip -T a.zip f", "zip -tt 2024-01-01 a.zip f", "rsync -e ssh -a src/ out/", "rsync -a -e 'ssh -p 2222' src/ out/"
    ]);

/// ## What it matches
/// `tar --remove-files`, `zip -m`, `rsync --remove-source-files`.
/// ## Why this tier
/// Deletes the source files after archiving or copying; deleting is T3.
pub(super) static REMOVES_SOURCE: Rule = Rule::t3("coreutils.archive.remove-source")
    .reason("deletes the source files after archiving or copying; keep the sources and delete separately if needed")
    .matches(words!["tar --remove-files -czf logs.tgz logs/", "zip -m old.zip old.txt", "rsync -a --remove-source-files src/ out/"])
    .not_matches(words!["tar -czf logs.tgz logs/"]);

/// ## What it matches
/// `rsync --delete` (and `--delete-after`, `--del`, …).
/// ## Why this tier
/// Deletes destination files missing from the source; a wrong direction wipes the target.
pub(super) static RSYNC_DELETE: Rule = Rule::t3("coreutils.rsync.delete")
    .reason("rsync --delete removes destination files that are not in the source; run it with -n first and ask the user")
    .matches(words!["rsync -a --delete src/ out/", "rsync -av --delete-after a/ b/"])
    .not_matches(words!["rsync -a src/ out/", "rsync -an --delete src/ out/"])
    .suggest("rsync -an --delete src/ out/");

/// ## What it matches
/// `rsync` to a remote destination (`host:path`, `user@host:path`, `rsync://…`).
/// ## Why this tier
/// Writes files on another machine.
pub(super) static RSYNC_REMOTE: Rule = Rule::t3("coreutils.rsync.remote")
    .reason("rsync uploads to a remote host; ask the user before writing there")
    .matches(words!["rsync -avz dist/ deploy@web:/var/www/", "rsync -a build rsync://mirror/x"])
    .not_matches(words!["rsync -a host:/var/log/ logs/"]);

/// ## What it matches
/// `rsync -n` / `--dry-run`.
/// ## Why this tier
/// A simulation: lists what would be copied or deleted.
pub(super) static RSYNC_DRY_RUN: Rule = Rule::t2("coreutils.rsync.dry-run")
    .reason("dry run: lists what rsync would copy or delete, changes nothing")
    .matches(words!["rsync -an --delete src/ out/", "rsync --dry-run -a src/ deploy@web:/x"])
    .not_matches(words!["rsync -a src/ out/"]);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.program.as_str() {
        "tar" | "gtar" | "bsdtar" => tar(inv, cx),
        "zip" => zip(inv, cx),
        "unzip" => unzip(inv, cx),
        "7z" | "7za" | "7zz" => seven(inv, cx),
        "rsync" => rsync(inv, cx),
        _ => compress(inv, cx),
    }
}

/// tar's options that take a value (GNU tar; bsdtar reads the same letters). Short
/// letters pack (`-xzf a.tgz`, `-Cdir`); `--checkpoint-action` takes its value as
/// any required long value does (`=ACTION` or the next word). The flags are the modes read here.
pub(super) const TAR_ARGS: ArgSpec = ArgSpec::values(words![
    "-f", "-C", "-T", "-X", "-b", "-K", "-N", "-g", "-V", "-L", "-H", "-I", "-F", "--file", "--directory", "--to-command", "--use-compress-program",
    "--rsh-command", "--info-script", "--new-volume-script", "--rmt-command", "--checkpoint-action",
])
.with_flags(words![
    "-c", "-r", "-u", "-A", "-x", "-t", "-P", "--create", "--append", "--update", "--catenate", "--concatenate", "--delete", "--extract", "--get", "--list",
    "--absolute-names", "--remove-files",
])
.packed();

/// The letters of `TAR_ARGS` that take a value.
const TAR_VALUE_LETTERS: &str = "fCTXbKNgVLHIF";

fn tar(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let mut modes = String::new();
    let mut file: Option<Arg> = None;
    let mut dir: Option<Arg> = None;
    let mut runs = false;
    let mut absolute = false;
    let args = &inv.args;
    let mut start = 0;
    // An old-style bundle as the first word (`tar czf out.tgz dir`): not getopt, its
    // value letters take the following words in order.
    if let Some(Token::Operand(o)) = Args::parse(args, TAR_ARGS).next() {
        let t = o.arg.text.as_str();
        if o.index == 0 && !t.is_empty() && t.chars().all(|c| c.is_ascii_alphabetic()) {
            start = 1;
            for c in t.chars() {
                if !TAR_VALUE_LETTERS.contains(c) {
                    modes.push(c);
                    absolute |= c == 'P';
                    continue;
                }
                let Some(v) = args.get(start) else { continue };
                start += 1;
                match c {
                    'f' => file = Some(v.clone()),
                    'C' => dir = Some(v.clone()),
                    'I' | 'F' => runs = true,
                    _ => {}
                }
            }
        }
    }
    for t in Args::parse(args, TAR_ARGS).starting_at(start) {
        let (name, value) = match t {
            Token::Opt { index, name, value } => (name, value.map(|v| crate::call::value_arg(args, index, v))),
            Token::DashDash(_) => break,
            _ => continue,
        };
        match name {
            "-f" | "--file" => file = value,
            "-C" | "--directory" => dir = value,
            "-I" | "-F" | "--to-command" | "--use-compress-program" | "--rsh-command" | "--info-script" | "--new-volume-script" | "--rmt-command" => {
                runs = true
            }
            "--checkpoint-action" => runs |= value.is_some_and(|v| v.text.starts_with("exec")),
            "-c" | "--create" => modes.push('c'),
            "-r" | "--append" => modes.push('r'),
            "-u" | "--update" => modes.push('u'),
            "-A" | "--catenate" | "--concatenate" => modes.push('A'),
            "--delete" => modes.push('D'),
            "-x" | "--extract" | "--get" => modes.push('x'),
            "-t" | "--list" => modes.push('t'),
            "-P" | "--absolute-names" => absolute = true,
            "--remove-files" => cx.hit(&REMOVES_SOURCE),
            _ => {}
        }
    }
    if runs {
        cx.hit(&RUNS_PROGRAM);
    }
    // `tar -cf host:/x .`: an archive name with a host part goes over rsh/ssh.
    let force_local = inv.args.iter().any(|a| a.text == "--force-local");
    if let Some(f) = file.as_ref().filter(|f| !force_local && remote_archive(&f.text)) {
        cx.hit_because(
            &REMOTE_ARCHIVE,
            format!("`tar -f {}` reads or writes the archive on another host over a remote shell; {}", f.text, REMOTE_ARCHIVE.reason),
        );
    }
    let extract = modes.contains('x');
    let writes_archive = modes.contains(['c', 'r', 'u', 'A', 'D']);
    if extract {
        let dest = dir.unwrap_or_else(|| Arg::lit("."));
        writes::check_extract_dir(cx, &dest, cwd);
        if absolute {
            writes::lands_anywhere(cx, "tar -P extracts absolute paths from the archive, which can land anywhere; extract without -P".to_owned());
        }
    } else if writes_archive {
        if let Some(f) = file.filter(|f| f.text != "-") {
            super::write_to(cx, &f, cwd);
        }
    }
    if extract || writes_archive {
        wrote(cx);
    }
}

/// `host:path` or `user@host:path`, as GNU tar reads an archive name (a `/` before the colon makes it local).
fn remote_archive(name: &str) -> bool {
    name.split_once(':').is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// ## What it matches
/// `tar -f host:path` / `--file=user@host:path`: GNU tar runs a remote shell to read or write the archive there.
/// ## Why this tier
/// The archive (and whatever it packs) crosses to another machine.
pub(super) static REMOTE_ARCHIVE: Rule = Rule::t3("coreutils.archive.remote")
    .reason("the archive lives on another host, reached through a remote shell; copy it with scp/rsync explicitly or ask the user")
    .matches(words!["tar -cf host:/x .", "tar --file=user@h:/b.tar -c src", "tar -xf backup:/srv/a.tar"])
    .not_matches(words!["tar -cf out.tar .", "tar -cf ./a:b.tar . --force-local", "tar -xf /mnt/c:d.tar"]);

fn zip(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    // `-TT CMD`, and the spellings zip's parser also takes: the value attached
    // (`-TTCMD`, `-TT=CMD`) and the option bundled after other letters (`-qTT CMD`).
    let runs = |t: &str| (t.starts_with('-') && !t.starts_with("--") && t.contains("TT")) || t.starts_with("--unzip-command");
    if inv.args.iter().any(|a| runs(&a.text)) {
        cx.hit(&RUNS_PROGRAM);
    }
    if inv.has_any(words!["-m", "--move"]) {
        cx.hit(&REMOVES_SOURCE);
    }
    let ops = operand_args(inv, words!["-b", "-n", "-t", "-tt", "-O", "--output-file", "-P", "--password", "-Z", "-s", "-TT", "--unzip-command", "-sp"]);
    if let Some(archive) = ops.first() {
        super::write_to(cx, archive, cwd);
    }
    if let Some(out) = value_arg(inv, words!["-O", "--output-file"]) {
        super::write_to(cx, &out, cwd);
    }
    wrote(cx);
}

fn unzip(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    if inv.has_any(words!["-l", "-t", "-v", "-Z", "-p", "-c", "-z"]) {
        return;
    }
    let dest = value_arg(inv, words!["-d"]).unwrap_or_else(|| Arg::lit("."));
    writes::check_extract_dir(cx, &dest, cwd);
    wrote(cx);
}

fn seven(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let ops = operand_args(inv, words![]);
    let cmd = ops.first().map(|a| a.text.as_str()).unwrap_or("");
    match cmd {
        "x" | "e" => {
            // 7z's switches take their value attached only (`-oDIR`).
            let dest = Args::parse(&inv.args, ArgSpec::values(words![]).with_optional(words!["-o"])).find_map(|t| match t {
                Token::Opt { index, name: "-o", value } => Some(crate::call::value_arg(&inv.args, index, value.unwrap_or(""))),
                _ => None,
            });
            writes::check_extract_dir(cx, &dest.unwrap_or_else(|| Arg::lit(".")), cwd);
        }
        "a" | "u" | "d" | "rn" => {
            if let Some(archive) = ops.get(1) {
                super::write_to(cx, archive, cwd);
            }
        }
        _ => return,
    }
    wrote(cx);
}

/// gzip, xz, bzip2, zstd and their un- forms: each file operand is replaced next to itself.
fn compress(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    if let Some(out) = value_arg(inv, words!["-o", "--output"]).filter(|_| inv.program.contains("zstd")) {
        super::write_to(cx, &out, cwd);
        wrote(cx);
        return;
    }
    if inv.has_any(words!["-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"]) {
        return;
    }
    let ops = operand_args(inv, words!["-S", "--suffix", "-T", "--threads", "-M", "--memlimit", "-F", "--format", "-C", "--check", "-D", "--dict"]);
    for f in &ops {
        if f.text != "-" {
            super::write_to(cx, f, cwd);
        }
    }
    if !ops.is_empty() {
        wrote(cx);
    }
}

crate::table! {
    RSYNC_VALUES = [
        "-e", "--rsh", "--rsync-path", "--exclude", "--include", "-f", "--filter", "--files-from", "--exclude-from", "--include-from", "--log-file",
        "--password-file", "--partial-dir", "-T", "--temp-dir", "--backup-dir", "--suffix", "--compare-dest", "--copy-dest", "--link-dest", "--chmod", "--chown",
        "--usermap", "--groupmap", "--timeout", "--contimeout", "--port", "--address", "--bwlimit", "--max-size", "--min-size", "--max-delete", "-B",
        "--block-size", "--out-format", "--log-file-format", "--info", "--debug", "--iconv", "--protocol", "--outbuf", "--checksum-choice", "--compress-choice",
        "--compress-level", "--skip-compress", "--sockopts", "-M", "--remote-option", "--stop-after", "--stop-at", "--modify-window",
    ];
    probe "rsync a b {} /etc/x" => T0, "coreutils.write";
    probe only ["-e", "--rsh"] "rsync {} ssh /zzqx/x" => T0, "default.elimination";
    except ["--rsync-path"]: "its value is a program rsync runs (coreutils.archive.runs-program), which asks before the destination is read";
}

/// How rsync reads its argv (its card's reading: letters pack, `-avz`).
pub(super) const RSYNC_ARGS: ArgSpec = ArgSpec::values(RSYNC_VALUES).packed();

fn is_remote(path: &str) -> bool {
    if path.starts_with("rsync://") {
        return true;
    }
    if path.starts_with('/') || path.starts_with("./") || path.starts_with("../") || path.starts_with('~') {
        return false;
    }
    match (path.find(':'), path.find('/')) {
        (Some(c), Some(s)) => c < s,
        (Some(_), None) => true,
        _ => false,
    }
}

fn rsync(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    if let Some(rsh) = value_arg(inv, words!["-e", "--rsh"]) {
        let program = rsh.text.split_whitespace().next().map(basename).unwrap_or("");
        if !rsh.exact || !matches!(program, "ssh" | "ssh.exe" | "autossh") {
            cx.hit_because(&RUNS_PROGRAM, format!("rsync -e `{}` runs that program as the transport; use ssh", rsh.text));
        }
    }
    if inv.has_long("--rsync-path") {
        cx.hit_because(&RUNS_PROGRAM, "rsync --rsync-path runs that command on the remote host; drop it".to_owned());
    }
    if inv.has_any(words!["-n", "--dry-run"]) {
        cx.hit(&RSYNC_DRY_RUN);
        return;
    }
    if inv.flags().any(|f| f.starts_with("--delete") || f == "--del") {
        cx.hit(&RSYNC_DELETE);
    }
    if inv.has_long("--remove-source-files") {
        cx.hit(&REMOVES_SOURCE);
    }
    let ops = operand_args(inv, RSYNC_VALUES);
    let Some((dest, sources)) = ops.split_last() else {
        return;
    };
    if sources.is_empty() {
        return; // `rsync host:` lists a remote module.
    }
    if let Some(s) = sources.iter().find(|s| super::write::is_secret(&s.text)) {
        cx.hit_because(&super::write::SECRET, format!("copies `{}`, a private key or credentials file; ask the user", s.text));
    }
    if is_remote(&dest.text) {
        cx.hit(&RSYNC_REMOTE);
        return;
    }
    copy_dest(cx, dest, sources, cwd, inv.has_any(words!["-r", "-a", "--recursive", "--archive"]));
    wrote(cx);
}

crate::tables![RSYNC_VALUES];
