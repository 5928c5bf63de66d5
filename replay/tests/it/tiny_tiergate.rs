//! The subject used by the bench's tests: a protocol v1 `tiergate batch` with a
//! trivial, editable rule table (`rules.txt`, compiled in), no dependencies, so a
//! test repository builds in about a second. Written into each temp repository.
//! It speaks the `session` extension the way the real one does, in miniature: in a
//! session, `write NAME` makes `run NAME` read a file (T0 `run.written`); anywhere
//! else `run NAME` finds nothing (T3 `run.missing`).
//! `tiergate programs` dumps one probed table, `VERBS`: the words `W` of the rule
//! lines `tool W`, probed as `tool {}` at the first such line's tier.

const RULES: &str = include_str!("../rules.txt");
/// A build from before protocol extensions: `--extensions` prints nothing and the
/// `session` field is ignored (set by the tests that need such a base).
const NO_EXTENSIONS: bool = false;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("programs") {
        programs();
        return;
    }
    if args.first().map(String::as_str) != Some("batch") {
        eprintln!("usage: tiergate batch [--protocol]");
        std::process::exit(2);
    }
    if args.iter().any(|a| a == "--protocol") {
        println!("1");
        return;
    }
    if args.iter().any(|a| a == "--extensions") {
        if !NO_EXTENSIONS {
            println!("session");
        }
        return;
    }
    let mut written: std::collections::HashMap<String, Vec<String>> = std::collections::HashMap::new();
    // FLIP rules answer differently in every other batch process (a counter file
    // beside the binary): the determinism check must catch it.
    let flip = {
        let path = std::env::current_exe().map(|p| p.with_file_name("flip.count")).unwrap_or_default();
        let n: u64 = std::fs::read_to_string(&path).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0) + 1;
        let _ = std::fs::write(&path, n.to_string());
        if n % 2 == 1 { "T0" } else { "T3" }
    };
    let stdin = std::io::stdin();
    let mut line = String::new();
    use std::io::{BufRead, Write};
    let mut out = std::io::stdout().lock();
    let mut input = stdin.lock();
    loop {
        line.clear();
        if input.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        let id = raw_field(&line, "id").unwrap_or("null").to_owned();
        let command = str_field(&line, "command").unwrap_or_default();
        let session = if NO_EXTENSIONS { None } else { str_field(&line, "session") };
        let (class, rule) = match (command.split_once(' '), &session) {
            (Some(("write", name)), Some(s)) => {
                written.entry(s.clone()).or_default().push(name.to_owned());
                ("T0", "write")
            }
            (Some(("run", name)), s) => {
                let seen = s.as_ref().and_then(|s| written.get(s)).is_some_and(|w| w.iter().any(|n| n == name));
                if seen { ("T0", "run.written") } else { ("T3", "run.missing") }
            }
            _ => classify(&command),
        };
        let class = if class == "FLIP" { flip } else { class };
        if class == "HANG" {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
        // A slow moment of a correct classifier: answers T0 after a second.
        let class = if class == "SLOW" {
            std::thread::sleep(std::time::Duration::from_secs(1));
            "T0"
        } else {
            class
        };
        let blocked = class == "BLOCKED";
        let tier = if blocked { "T3" } else { class };
        let decision = if blocked { "deny" } else if tier == "T3" { "ask" } else { "allow" };
        let _ = writeln!(
            out,
            "{{\"v\":1,\"id\":{id},\"tier\":\"{tier}\",\"blocked\":{blocked},\"decision\":\"{decision}\",\"rule\":\"{rule}\",\"reason\":\"matched {rule}\"}}"
        );
        let _ = out.flush();
    }
}

/// The `VERBS` table of `tiergate programs`, as JSON lines.
fn programs() {
    let verbs: Vec<(&str, &str)> = RULES.lines().filter_map(|l| {
        let mut parts = l.split('\t');
        let (prefix, class) = (parts.next()?, parts.next()?);
        Some((prefix.strip_prefix("tool ")?, class))
    }).collect();
    let entries: Vec<String> = verbs.iter().map(|(w, _)| format!("\"{w}\"")).collect();
    let tier = verbs.first().map_or("T3", |v| v.1);
    println!("{{\"kind\":\"card\",\"family\":\"tool\",\"names\":[\"tool\"]}}");
    println!(
        "{{\"kind\":\"table\",\"name\":\"VERBS\",\"file\":\"classifier/src/main.rs\",\"line\":1,\"entries\":[{}],\"probes\":[{{\"template\":\"tool {{}}\",\"expect\":\"{tier}\",\"rule\":\"\",\"only\":[]}}],\"except\":[]}}",
        entries.join(",")
    );
}

/// First rule whose prefix starts the command wins; unknown programs are T0.
fn classify(command: &str) -> (&'static str, &'static str) {
    for l in RULES.lines() {
        let mut parts = l.split('\t');
        let (Some(prefix), Some(class), Some(rule)) = (parts.next(), parts.next(), parts.next()) else { continue };
        if command.starts_with(prefix) {
            return (class, rule);
        }
    }
    ("T0", "default")
}

/// The text after `"name"` and its `:`, JSON whitespace skipped (the bench spells
/// some requests with whitespace between tokens).
fn value_of<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("\"{name}\"");
    let rest = line[line.find(&key)? + key.len()..].trim_start_matches([' ', '\t', '\r', '\n']);
    Some(rest.strip_prefix(':')?.trim_start_matches([' ', '\t', '\r', '\n']))
}

fn raw_field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let rest = value_of(line, name)?;
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn str_field(line: &str, name: &str) -> Option<String> {
    let rest = value_of(line, name)?.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('?'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}
