//! Tidy checks that keep the classifier's layers apart (docs/decisions/0013-program-cards.md):
//! a program's input is read only by the input accessor (`rules/vocab/input.rs`).
//! Each check is a pure function over one file's text; `tidy::run` calls them and a
//! seeded test proves each fails on the shape it forbids.

/// The one module that reads an invocation's `stdin`.
const INPUT_ACCESSOR: &str = "classifier/src/rules/vocab/input.rs";

/// Ways a rule file reads an invocation's input itself instead of asking the accessor.
const STDIN_READINGS: &[&str] = &["inv.stdin", "Stdin::", "call::Stdin", "match &inv.stdin"];

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
