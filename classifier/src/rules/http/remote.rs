//! Data out through clients that are not HTTP: mail senders, `openssl s_client`
//! and `s_server`, SMB clients. Each sends what it reads (stdin, files, typed
//! commands) to another machine.

use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::rules::{Cx, Rule};
use crate::words;

use super::{CONNECT, LISTEN};

crate::table! {
    /// Paste and file-drop clients that upload their input (`gist-paste` is Debian's name
    /// for the `gist` gem's client, `haste` the haste-client gem's, `nopaste` App::Nopaste's).
    pub(super) UPLOADERS = [
        "pastebinit", "wgetpaste", "croc", "wormhole", "ffsend", "transfer", "termbin", "fpaste", "gist", "gist-paste", "haste", "nopaste", "onionshare-cli"
    ];
    probe "{} f" => T3, "http.upload";
}

pub(super) fn uploader(inv: &Invocation, cx: &mut Cx<'_>) {
    // Nothing but help and version words.
    let prints = Help::VERSION.with(Help::LONG).with(Help::DASH_H).with(Help::DASH_UPPER_V);
    if inv.args.iter().all(|a| prints.holds(&a.text)) && !inv.args.is_empty() {
        return;
    }
    // `gist -l|--list [USER]`, `gist -r|--read ID`: listing or printing gists uploads nothing.
    if matches!(inv.program.as_str(), "gist" | "gist-paste") && matches!(inv.arg(0), Some("-l" | "--list" | "-r" | "--read")) {
        return;
    }
    // `croc`/`wormhole` receive with `receive`/a code word and send with `send`; both cross machines.
    cx.hit_because(&super::UPLOAD, format!("`{}` sends its input or files to another machine; ask the user first", inv.program));
}

crate::table! {
    /// Mail senders and clients.
    pub(super) MAILERS = [
        "mail", "mailx", "s-nail", "nail", "bsd-mailx", "heirloom-mailx", "sendmail", "mutt", "neomutt", "msmtp", "ssmtp", "swaks", "sendemail", "mpack",
        "mailsend",
    ];
    probe "{} a@b.example < f" => T3, "http.mail";
}

/// ## What it matches
/// Sending mail: `mail -s x a@b.c < file`, `sendmail a@b.c`, `mutt -a f -- a@b.c`, `swaks --to …`, `msmtp …`.
/// ## Why this tier
/// Mail leaves the machine: whatever is piped or attached goes to someone else.
pub static MAIL: Rule = Rule::t3("http.mail")
    .reason("sends mail, which carries its input or attachments off the machine; ask the user first")
    .matches(words![
        "mail -s report a@b.c < out.txt", "sendmail a@b.c < msg", "mutt -s x -a f.txt -- a@b.c", "swaks --to a@b.c", "s-nail -s x a@b.c",
        "mailx -s x a@b.c < f", "nail -s x a@b.c < f", "bsd-mailx -s x a@b.c < f", "heirloom-mailx -s x a@b.c < f", "neomutt -s x -a f -- a@b.c",
        "msmtp -a default a@b.c < msg", "ssmtp a@b.c < msg", "sendemail -f me@b.c -t a@b.c -u x -a f", "mpack -s x f a@b.c",
        "mailsend -to a@b.c -from me@b.c -attach f",
    ])
    .not_matches(words!["mail --version", "sendmail --help"]);

/// ## What it matches
/// `smbclient //host/share` sessions and `-c` commands (`put`, `del`, `mkdir` …).
/// ## Why this tier
/// The session reads and writes files on another machine.
pub static SMB: Rule = Rule::t3("http.smb")
    .reason("opens an SMB session that can upload, delete or fetch remote files; ask the user first")
    .matches(words!["smbclient //h/s -c 'put secrets.txt'", "smbclient -U u //h/s"])
    .not_matches(words!["smbclient -L host -N", "smbclient --version"]);

/// mail's options that only read one's own mailbox.
const MAIL_READS: ArgSpec = ArgSpec::values(words![]).with_flags(words!["-f", "-H", "-e", "-N", "-R"]);

pub(super) fn mail(inv: &Invocation, cx: &mut Cx<'_>) {
    // `--version`, `--help` or `-V` as the whole argv.
    if asks_help(&inv.args, ArgSpec::values(words![]).help(Help::VERSION.with(Help::LONG).with(Help::DASH_UPPER_V).alone())) {
        return;
    }
    // Bare `mail`/`mailx`, `-f box`, `-H`, `-e`: reading one's own mailbox.
    let reading = matches!(inv.program.as_str(), "mail" | "mailx" | "s-nail" | "nail" | "bsd-mailx" | "heirloom-mailx")
        && Args::parse(&inv.args, MAIL_READS).all(|t| match t {
            Token::Opt { .. } => true,
            // The mailbox `-f` opens.
            Token::Operand(_) => inv.args.iter().any(|f| f.text == "-f"),
            _ => false,
        });
    if reading {
        return;
    }
    cx.hit_because(&MAIL, format!("`{}`: {}", inv.program, MAIL.reason));
}

pub(super) fn openssl(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.arg(0) {
        Some("s_client" | "s_time") => {
            cx.hit_because(&CONNECT, format!("`openssl {}` sends its input to a remote TLS service; {}", inv.arg(0).unwrap_or(""), CONNECT.reason))
        }
        Some("s_server") => cx.hit_because(&LISTEN, format!("`openssl s_server` opens a TLS listener; {}", LISTEN.reason)),
        // `openssl passwd`, `openssl req -new`: the verb scan as before.
        _ => cx.or_unowned(inv),
    }
}

pub(super) fn smbclient(inv: &Invocation, cx: &mut Cx<'_>) {
    // `-L host` lists shares; anything else is a session or commands on one.
    let prints = Help::DASH_UPPER_V.with(Help::VERSION).with(Help::LONG);
    if inv.args.iter().any(|a| matches!(a.text.as_str(), "-L" | "--list") || prints.holds(&a.text)) {
        return cx.or_unowned(inv);
    }
    cx.hit(&SMB);
}

crate::tables![UPLOADERS, MAILERS];
