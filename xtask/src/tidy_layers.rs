//! Tidy checks that keep the classifier's layers apart (docs/decisions/0013-program-cards.md):
//! a program's input is read only by the input accessor (`rules/vocab/input.rs`),
//! no rule family imports another family or a pass (families share through the
//! common vocabulary, `rules/vocab`, and ask the engine through `Cx`), and help is
//! decided only by the argument layer (`call::args::asks_help` over a card's `Help`).
//! Each check is a pure function over one file's text; `tidy::run` calls them and a
//! seeded test proves each fails on the shape it forbids.

/// The one module that reads an invocation's `stdin`.
const INPUT_ACCESSOR: &str = "classifier/src/rules/vocab/input.rs";

/// Ways a rule file reads an invocation's input itself instead of asking the accessor.
const STDIN_READINGS: &[&str] = &["inv.stdin", "Stdin::", "call::Stdin", "match &inv.stdin"];

/// The folders under `classifier/src/rules` that are passes the engine runs, not
/// families: they may import one another and the vocabulary, never a family.
pub const PASSES: &[&str] = &["exec", "flow", "paths", "fallback"];
/// The common vocabulary: every folder may import it; it imports no family.
pub const VOCABULARY: &str = "vocab";

/// The folder under `classifier/src/rules/` a file is in, if any.
fn rules_folder(rel: &str) -> Option<&str> {
    let rest = rel.strip_prefix("classifier/src/rules/")?;
    rest.split_once('/').map(|(folder, _)| folder)
}

/// The `rules` folders a line of code names: `crate::rules::git::…`,
/// `crate::rules::{git, paths::x}`, `super::super::git`.
fn named_folders<'a>(code: &'a str, folders: &'a [String]) -> impl Iterator<Item = &'a str> + 'a {
    let mut names: Vec<&str> = Vec::new();
    for (i, _) in code.match_indices("crate::rules::") {
        let rest = &code[i + "crate::rules::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            names.extend(group.split(',').map(|p| p.trim().split("::").next().unwrap_or("")));
        } else {
            names.push(rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or(""));
        }
    }
    for (i, _) in code.match_indices("super::super::") {
        let rest = &code[i + "super::super::".len()..];
        names.push(rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or(""));
    }
    names.into_iter().filter(move |n| folders.iter().any(|f| f == n))
}

/// A file of one `rules` folder naming another: a family naming any folder but
/// the vocabulary, or a pass or the vocabulary naming a family. `folders` are the
/// folders under `classifier/src/rules`.
pub fn check_family_imports(rel: &str, text: &str, folders: &[String]) -> Vec<String> {
    let Some(from) = rules_folder(rel) else { return Vec::new() };
    let family = |f: &str| f != VOCABULARY && !PASSES.contains(&f);
    let mut out = Vec::new();
    for (n, line) in code_lines(text) {
        let code = line.split("//").next().unwrap_or("");
        for to in named_folders(code, folders) {
            if to == from || to == VOCABULARY || !(family(from) || family(to)) {
                continue;
            }
            let (kind_from, kind_to) = (if family(from) { "family" } else { "pass" }, if family(to) { "family" } else { "pass" });
            out.push(format!(
                "{rel}:{n}: the {kind_from} `{from}` imports the {kind_to} `{to}` (`{}`); share through rules::vocab, ask the engine through Cx, or put the fact on the program's card",
                line.trim()
            ));
        }
    }
    out
}

/// Lines of `text` before its test module (`#[cfg(test)]` followed by `mod`), with their numbers.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .enumerate()
        .position(|(i, l)| l.trim() == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|n| n.trim_start().starts_with("mod ")))
        .unwrap_or(lines.len());
    lines.into_iter().take(end).enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim_start().starts_with("//"))
}

/// A rule file (or the engine) that reads a program's input by hand: under
/// `classifier/src/rules/` only the accessor mentions `Stdin`; the engine builds
/// `Stdin` values but never matches on one.
pub fn check_stdin_readings(rel: &str, text: &str) -> Vec<String> {
    let rules = rel.starts_with("classifier/src/rules/") && rel != INPUT_ACCESSOR;
    let engine = rel.starts_with("classifier/src/units/");
    if !rules && !engine {
        return Vec::new();
    }
    code_lines(text)
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            if rules {
                STDIN_READINGS.iter().any(|p| code.contains(p))
            } else {
                code.contains("match &inv.stdin") || code.contains("match inv.stdin") || code.contains("(&inv.stdin")
            }
        })
        .map(|(n, l)| {
            format!("{rel}:{n}: reads a program's input by hand (`{}`); ask rules::vocab::input (`input::of`, `input::shown`, `Cx::input`)", l.trim())
        })
        .collect()
}

/// Help words no option of any program means otherwise: a rule file naming one
/// compares a word against help words by hand.
const HELP_WORDS: &[&str] = &["\"--help\"", "\"-help\"", "\"--usage\"", "\"-?\"", "\"--version\"", "\"-version\"", "\"--manual\""];
/// The hand-made help readings that came before the argument layer's `Token::Help`.
const HELP_IDIOMS: &[&str] = &["stands_alone(", "stands_alone_in(", "wants_help(", "is_help(", "is_help_word("];

/// The marker a line carries when a help word's literal on it is not help: an
/// option that takes a value under that spelling (`helm --version 1.2.3`, `git
/// bundle create --version=3`). The reason after it is required.
const NOT_HELP: &str = "not help:";

/// True when a line's comment says, with a reason, that its help word is not help.
fn not_help(comment: &str) -> bool {
    comment.split_once(NOT_HELP).is_some_and(|(_, why)| why.trim().len() >= 10)
}

/// A file under `classifier/src/rules/` that compares a word against help words
/// itself (a help word's literal, or one of the old help idioms) instead of
/// declaring the words on the program's card (`Card::help`) or asking
/// `call::args::asks_help` with a reading that honours them.
pub fn check_help_readings(rel: &str, text: &str) -> Vec<String> {
    if !rel.starts_with("classifier/src/rules/") {
        return Vec::new();
    }
    code_lines(text)
        .filter(|(_, l)| {
            let (code, comment) = l.split_once("//").unwrap_or((l, ""));
            HELP_WORDS.iter().chain(HELP_IDIOMS).any(|p| code.contains(p)) && !not_help(comment)
        })
        .map(|(n, l)| {
            format!(
                "{rel}:{n}: decides help by hand (`{}`); declare the help words on the card (`Card::help`, `call::args::Help`) and let the engine answer, or ask `call::args::asks_help`",
                l.trim()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_family_imports_are_caught() {
        let folders: Vec<String> = ["git", "cloud", "paths", "exec", "vocab"].iter().map(|s| s.to_string()).collect();
        let family_to_family = "use crate::rules::cloud::verbs::{kind_of, Kind};\nuse crate::rules::{git, Cx};\n";
        assert_eq!(check_family_imports("classifier/src/rules/git/read.rs", family_to_family, &folders).len(), 1);
        assert_eq!(check_family_imports("classifier/src/rules/git/read.rs", "    crate::rules::paths::check_write(cx, a, cwd);\n", &folders).len(), 1);
        assert_eq!(check_family_imports("classifier/src/rules/exec/mod.rs", "use crate::rules::{cloud, paths::x};\n", &folders).len(), 1);
        assert_eq!(check_family_imports("classifier/src/rules/vocab/lane.rs", "use super::super::git::GitCall;\n", &folders).len(), 1);
        let allowed =
            "use crate::rules::vocab::writes;\nuse crate::rules::{traits_of, Cx, Rule};\nuse crate::rules::git::x; // a comment: crate::rules::cloud\n";
        assert!(
            check_family_imports("classifier/src/rules/git/read.rs", allowed, &folders).is_empty(),
            "the vocabulary, the registry's items, a family's own folder, comments"
        );
        assert!(check_family_imports("classifier/src/rules/exec/mod.rs", "use crate::rules::paths::place;\n", &folders).is_empty(), "pass to pass");
        assert!(check_family_imports("classifier/src/units/mod.rs", "use crate::rules::git::x;\n", &folders).is_empty(), "the engine is not a folder of rules");
    }

    #[test]
    fn seeded_stdin_readings_are_caught() {
        let by_hand = "fn f(inv: &Invocation) {\n    match &inv.stdin {\n        Stdin::None => {}\n        _ => {}\n    }\n}\n";
        assert_eq!(check_stdin_readings("classifier/src/rules/x/y.rs", by_hand).len(), 2);
        assert_eq!(check_stdin_readings("classifier/src/units/mod.rs", by_hand).len(), 1);
        assert!(check_stdin_readings(INPUT_ACCESSOR, by_hand).is_empty());
        let asked = "match input::of(inv) {\n    Source::None => {}\n    _ => {}\n}\n// inv.stdin in a comment\n";
        assert!(check_stdin_readings("classifier/src/rules/x/y.rs", asked).is_empty());
        let built = "let stdin = Stdin::None;\n";
        assert!(check_stdin_readings("classifier/src/units/redirects.rs", built).is_empty());
    }

    #[test]
    fn seeded_help_readings_are_caught() {
        let by_hand = "fn f(inv: &Invocation) -> bool {\n    inv.words().any(|w| matches!(w, \"--help\" | \"-h\"))\n        || crate::call::stands_alone(&inv.args, |w| w == \"-V\")\n}\n";
        assert_eq!(check_help_readings("classifier/src/rules/x/y.rs", by_hand).len(), 2);
        assert_eq!(check_help_readings("classifier/src/rules/x/y.rs", "const V: Words = words![\"--version\", \"-v\"];\n").len(), 1, "a list of help words");
        let declared =
            "static CARDS: &[Card] = &[Card::of(words![\"x\"], check).help(Help::LONG)];\n/// `--help` in a doc comment\n.matches(words![\"x --help\"])\n";
        assert!(check_help_readings("classifier/src/rules/x/y.rs", declared).is_empty(), "cards, docs and rule examples");
        assert!(check_help_readings("classifier/src/call/args/help.rs", by_hand).is_empty(), "the argument layer is where help is read");
        let value = "    ArgSpec::values(words![\"--version\"]) // not help: bundle create's --version=N is the bundle format\n";
        assert!(check_help_readings("classifier/src/rules/x/y.rs", value).is_empty(), "a value option, marked with its reason");
        let bare = "    ArgSpec::values(words![\"--version\"]) // not help:\n";
        assert_eq!(check_help_readings("classifier/src/rules/x/y.rs", bare).len(), 1, "the marker without a reason");
        let tests = "fn f() {}\n#[cfg(test)]\nmod tests {\n    const A: &str = \"--help\";\n}\n";
        assert!(check_help_readings("classifier/src/rules/x/y.rs", tests).is_empty(), "test modules");
    }
}
