//! The metamorphic step (ORACLE.md §2): when the trace shows an allowed program
//! exec'ing one of its own argument words, that argument slot runs anything. The
//! (program, prefix, slot) pairs are kept in `corpus/oracle/exec-slots.csv`
//! (reviewed, committed); each becomes generated curated bypass rows with a gated
//! payload in the slot, `corpus/curated/oracle_wrappers.csv`, which every normal
//! replay then checks at no sandbox cost. The rows are never run.
//! `cargo xtask oracle --metamorphic [--check]` regenerates (or verifies) the
//! curated file from the slot list alone, without a sandbox.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::classify::{norm_prog, Exec};

pub const SLOTS: &str = "corpus/oracle/exec-slots.csv";
pub const WRAPPERS: &str = "corpus/curated/oracle_wrappers.csv";
const SLOT_HEADER: &str = "program,prefix,slot,form,example_id,evidence,review";
/// Gated payloads put in the slot, with the class the row must at least reach.
const PAYLOADS: &[(&str, &str)] = &[("rm -rf ~/oracle-victim", "T3"), ("touch /etc/oracle-victim", "T3")];
/// Prefixes kept per program (the first ones seen, by prefix order).
const PER_PROGRAM: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub program: String,
    /// The command's words before the slot, as written.
    pub prefix: String,
    pub slot: usize,
    /// `word`: the program runs the slot as a program (payload as words);
    /// `shell-text`: it hands the slot to `sh -c` (payload as one quoted word).
    pub form: String,
    pub example_id: String,
    pub evidence: String,
    /// Empty: a wrapper slot, rows are generated. `not a wrapper: WHY`: reviewed and
    /// rejected (the exec matched the word by coincidence); kept so runs do not re-add it.
    pub review: String,
}

impl Slot {
    pub fn rejected(&self) -> bool {
        self.review.starts_with("not a wrapper")
    }
}

/// Words of a simple command (`raw`, unquoted value), or None when the command
/// has shell structure (pipes, lists, redirects, substitutions) — then an exec
/// of a later word is the shell's doing, not the program's.
pub fn words(command: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let (mut raw, mut val) = (String::new(), String::new());
    let mut quote: Option<char> = None;
    for ch in command.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => {
                quote = None;
                raw.push(c);
            }
            (Some(_), c) => {
                raw.push(c);
                val.push(c);
            }
            (None, '\'' | '"') => {
                quote = Some(ch);
                raw.push(ch);
            }
            (None, c) if c.is_whitespace() => {
                if !raw.is_empty() {
                    out.push((std::mem::take(&mut raw), std::mem::take(&mut val)));
                }
            }
            (None, c) if "|&;<>()$`\\\n#".contains(c) => return None,
            (None, c) => {
                raw.push(c);
                val.push(c);
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if !raw.is_empty() {
        out.push((raw, val));
    }
    (!out.is_empty()).then_some(out)
}

/// The argument slots of `command` that its execs ran as programs.
pub fn slots_of(id: &str, command: &str, execs: &[Exec]) -> Vec<Slot> {
    let Some(w) = words(command) else { return Vec::new() };
    let program = norm_prog(&w[0].1);
    if w[0].1.contains('=') {
        return Vec::new();
    }
    // Words some exec'd shell ran as its `-c` text (`script -qc ls`: $SHELL -c ls).
    let shell_text = |v: &str| {
        execs.iter().any(|e| {
            let sh = matches!(norm_prog(&e.path).as_str(), "sh" | "bash" | "dash" | "zsh");
            sh && e.argv.windows(2).any(|p| p[0].starts_with('-') && p[0].ends_with('c') && p[1] == v)
        })
    };
    let mut out: Vec<Slot> = Vec::new();
    for e in execs {
        let names = [norm_prog(&e.path), e.argv.first().map(|a| norm_prog(a)).unwrap_or_default()];
        if names.contains(&program) {
            continue;
        }
        let hit = w.iter().enumerate().skip(1).find(|(_, (_, v))| !v.starts_with('-') && !v.is_empty() && names.contains(&norm_prog(v)));
        if let Some((k, _)) = hit {
            if out.iter().any(|s| s.slot == k) {
                continue;
            }
            let prefix = w[..k].iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>().join(" ");
            let evidence: String = format!("exec {} {:?}{}", e.path, e.argv, if e.ok { "" } else { " (failed)" }).chars().take(160).collect();
            let form = if shell_text(&w[k].1) { "shell-text" } else { "word" }.to_owned();
            out.push(Slot { program: program.clone(), prefix, slot: k, form, example_id: id.to_owned(), evidence, review: String::new() });
        }
    }
    out
}

pub fn load_slots(root: &Path) -> Result<Vec<Slot>, String> {
    let path = root.join(SLOTS);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{SLOTS}: {e}")),
    };
    let mut r = csv::Reader::from_reader(text.as_bytes());
    if r.headers().map(|h| h.iter().collect::<Vec<_>>().join(",")).ok().as_deref() != Some(SLOT_HEADER) {
        return Err(format!("{SLOTS}: header must be {SLOT_HEADER}"));
    }
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| format!("{SLOTS}: {e}"))?;
        let f = |k: usize| rec.get(k).unwrap_or("").to_owned();
        let slot = f(2).parse().map_err(|_| format!("{SLOTS}:{}: slot {:?} is not a number", i + 2, f(2)))?;
        let review = f(6);
        if !review.is_empty() && !review.starts_with("not a wrapper: ") {
            return Err(format!("{SLOTS}:{}: review must be empty or `not a wrapper: WHY`", i + 2));
        }
        let form = f(3);
        if form != "word" && form != "shell-text" {
            return Err(format!("{SLOTS}:{}: form {form:?} is not word or shell-text", i + 2));
        }
        out.push(Slot { program: f(0), prefix: f(1), slot, form, example_id: f(4), evidence: f(5), review: f(6) });
    }
    Ok(out)
}

/// Committed slots plus newly observed ones (a sample never forgets a slot).
pub fn merge(committed: &[Slot], observed: &[Slot]) -> Vec<Slot> {
    let mut by_program: BTreeMap<&str, Vec<&Slot>> = BTreeMap::new();
    for s in committed.iter().chain(observed) {
        let v = by_program.entry(s.program.as_str()).or_default();
        if !v.iter().any(|x| x.prefix == s.prefix) {
            v.push(s);
        }
    }
    let mut out: Vec<Slot> = Vec::new();
    for (_, mut v) in by_program {
        v.sort_by(|a, b| a.prefix.cmp(&b.prefix));
        out.extend(v.into_iter().take(PER_PROGRAM).cloned());
    }
    out
}

pub fn slots_csv(slots: &[Slot]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(SLOT_HEADER.split(','));
    for s in slots {
        let _ = w.write_record([s.program.as_str(), &s.prefix, &s.slot.to_string(), &s.form, &s.example_id, &s.evidence, &s.review]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The generated curated file for `slots`.
pub fn wrappers_csv(slots: &[Slot]) -> String {
    let mut rows: Vec<[String; 6]> = Vec::new();
    for s in slots.iter().filter(|s| !s.rejected()) {
        for (payload, expect) in PAYLOADS {
            let command = if s.form == "shell-text" { format!("{} '{payload}'", s.prefix) } else { format!("{} {payload}", s.prefix) };
            let id = format!("oracle_wrappers-{}", &replay::build::hex(&Sha256::digest(command.as_bytes()))[..10]);
            let note = format!("generated by cargo xtask oracle: `{}` exec'd its argument {} in {}", s.program, s.slot, s.example_id);
            rows.push([id, command, String::new(), expect.to_string(), "bypass".into(), note]);
        }
    }
    rows.sort();
    rows.dedup_by(|a, b| a[0] == b[0]);
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["id", "command", "cwd", "expect", "family", "note"]);
    for r in &rows {
        let _ = w.write_record(r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// `--metamorphic [--check]`: regenerate or verify the curated file from the slot list.
pub fn task(root: &Path, check: bool) -> i32 {
    let slots = match load_slots(root) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("oracle: {e}");
            return replay::exit::USAGE;
        }
    };
    // No slots, no file: the corpus loader rejects an empty file (it would hide a gap).
    let want = if slots.iter().all(Slot::rejected) { String::new() } else { wrappers_csv(&slots) };
    let path = root.join(WRAPPERS);
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have == want {
        println!("oracle: {WRAPPERS} is up to date ({} slots, {} rows)", slots.len(), want.lines().count().saturating_sub(1));
        return 0;
    }
    if check {
        eprintln!("oracle: {WRAPPERS} is stale against {SLOTS}; run `cargo xtask oracle --metamorphic`");
        return 1;
    }
    let written = if want.is_empty() { std::fs::remove_file(&path) } else { std::fs::write(&path, want) };
    match written {
        Ok(()) => {
            println!("oracle: wrote {WRAPPERS} from {} slots", slots.len());
            0
        }
        Err(e) => {
            eprintln!("oracle: {WRAPPERS}: {e}");
            replay::exit::INFRA
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(path: &str, argv: &[&str]) -> Exec {
        Exec { path: path.into(), argv: argv.iter().map(|s| s.to_string()).collect(), ok: true }
    }

    #[test]
    fn an_exec_of_an_argument_word_is_a_slot() {
        let execs = [exec("/usr/bin/setarch", &["setarch", "x86_64", "ls", "-la"]), exec("/usr/bin/ls", &["ls", "-la"])];
        let s = slots_of("tldr-1", "setarch x86_64 ls -la", &execs);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].program.as_str(), s[0].prefix.as_str(), s[0].slot), ("setarch", "setarch x86_64", 2));
        // Shell structure: the shell ran grep, not ls.
        assert!(slots_of("x", "ls | grep a", &[exec("/usr/bin/grep", &["grep", "a"])]).is_empty());
        // An option value that names a program is not the slot (the exec must match a word).
        assert!(slots_of("x", "man ls", &[exec("/usr/bin/less", &["less"])]).is_empty());
        // A failed attempt is evidence too: the placeholder `command` is not installed.
        let tried = Exec { ok: false, ..exec("/usr/local/bin/command", &["command"]) };
        let s = slots_of("tldr-2", "setarch i686 command", &[tried]);
        assert_eq!((s.len(), s[0].slot), (1, 2));
        assert!(s[0].evidence.ends_with("(failed)"), "{}", s[0].evidence);
        // A slot a shell ran as `-c` text takes the payload as one quoted word.
        let s = slots_of("x", "script -qc ls", &[exec("/bin/bash", &["bash", "-c", "ls"]), exec("/usr/bin/ls", &["ls"])]);
        assert_eq!((s.len(), s[0].form.as_str()), (1, "shell-text"));
        assert!(wrappers_csv(&s).contains("script -qc 'rm -rf ~/oracle-victim'"), "{}", wrappers_csv(&s));
    }

    #[test]
    fn generated_rows_are_stable_and_merge_keeps_committed_slots() {
        let a = Slot {
            program: "setarch".into(),
            prefix: "setarch x86_64".into(),
            slot: 2,
            form: "word".into(),
            example_id: "t1".into(),
            evidence: "e".into(),
            review: String::new(),
        };
        let b = Slot {
            program: "nice".into(),
            prefix: "nice -n 5".into(),
            slot: 3,
            form: "word".into(),
            example_id: "t2".into(),
            evidence: "e".into(),
            review: String::new(),
        };
        let merged = merge(std::slice::from_ref(&a), &[b.clone(), a.clone()]);
        assert_eq!(merged, vec![b.clone(), a.clone()]);
        let csv = wrappers_csv(&merged);
        assert_eq!(csv, wrappers_csv(&merged));
        assert!(csv.contains("setarch x86_64 rm -rf ~/oracle-victim,,T3,bypass"), "{csv}");
        assert_eq!(csv.lines().count(), 5);
        // A reviewed rejection stays in the list (a run cannot re-add it) and generates nothing.
        let no = Slot { review: "not a wrapper: coincidence".into(), ..b.clone() };
        assert_eq!(merge(std::slice::from_ref(&no), std::slice::from_ref(&b)), vec![no.clone()]);
        assert_eq!(wrappers_csv(&[no, a]).lines().count(), 3);
        assert_eq!(words("a 'b c' \"d\"").unwrap().iter().map(|w| w.1.as_str()).collect::<Vec<_>>(), ["a", "b c", "d"]);
        assert!(words("a $(b)").is_none());
    }
}
