//! Tests of the protect glob matcher: examples of each piece of syntax, the
//! errors, a hostile pattern, and property tests against `globset` itself.

use super::*;
use proptest::prelude::*;

fn m(pattern: &str, path: &str) -> bool {
    Glob::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}")).is_match(path)
}

#[test]
fn stars_stay_in_a_component_and_double_stars_cross() {
    assert!(m("/w/*.pem", "/w/a.pem") && !m("/w/*.pem", "/w/d/a.pem"));
    assert!(m("/w/**/k", "/w/k") && m("/w/**/k", "/w/a/b/k") && !m("/w/**/k", "/w/ak"));
    assert!(m("**/.env", "/w/x/.env") && m("**/.env", ".env") && !m("**/.env", "/w/x.env"));
    assert!(m("/w/secrets/**", "/w/secrets/a/b") && !m("/w/secrets/**", "/w/secrets"));
    assert!(m("**", "/anything/at/all") && m("**", ""));
    // `**` glued to other text is two stars: it stays in the component.
    assert!(m("/w/a**", "/w/abc") && !m("/w/a**", "/w/a/b"));
    assert!(m("/w/?", "/w/é") && !m("/w/?", "/w//"), "`?` is one character, never the separator");
}

#[test]
fn classes_alternatives_escapes_and_case() {
    assert!(m("/w/[ab]x", "/w/Bx") && !m("/w/[ab]x", "/w/cx"));
    assert!(m("/w/[!a]x", "/w/cx") && !m("/w/[!a]x", "/w/Ax") && !m("/w/[!a]x", "/w//x"));
    assert!(m("/w/[a-c]", "/w/B") && m("/w/[]]", "/w/]") && m("/w/[-a]", "/w/-"));
    assert!(m("/w/[[:digit:]]", "/w/7") && !m("/w/[[:digit:]]", "/w/x"));
    assert!(m("/w/*.{pem,key}", "/w/a.KEY") && !m("/w/*.{pem,key}", "/w/a.crt"));
    assert!(m("/w/{a,{b,c}}", "/w/c"), "nested groups");
    assert!(m("/w/a{,.bak}", "/w/a.bak") && !m("/w/a{,.bak}", "/w/a"), "an empty alternative is dropped, as globset does");
    assert!(m(r"/w/\*", "/w/*") && !m(r"/w/\*", "/w/x"));
    assert!(m("/W/Secrets", "/w/secrets"));
}

#[test]
fn bad_syntax_is_an_error_that_says_why() {
    for (p, why) in [
        ("[", "unclosed character class"),
        ("[]", "unclosed character class"),
        ("[!]", "unclosed character class"),
        ("[z-a]", "invalid range"),
        ("{a,b", "unclosed alternate group"),
        ("{a,{b,c}", "unclosed alternate group"),
        ("a,b}", "unopened alternate group"),
        ("{a,b}}", "unopened alternate group"),
        ("a\\", "dangling"),
    ] {
        let e = Glob::new(p).expect_err(p);
        assert!(e.contains(why), "{p}: {e}");
    }
    assert!(Glob::new(&"{".repeat(101)).is_err());
}

#[test]
fn a_hostile_pattern_matches_in_linear_steps() {
    // Backtracking would try every way of splitting the a's among the stars.
    let pattern = format!("/{}b", "*a".repeat(30));
    let path = format!("/{}", "a".repeat(4000));
    assert!(!m(&pattern, &path));
}

/// Pieces of patterns: every token kind, the characters that change how the ones
/// around them read (`/`, `,`, `{`), and ones that are plain.
const PATTERN_PIECES: &[&str] = &[
    "a", "b", "A", "/", "*", "**", "?", "[ab]", "[!a]", "[^/]", "[a-c]", "[]a]", "[-]", "[[:digit:]]", "[[:nope:]]", "{", "}", ",", "\\*", ".", "-", "1", "[",
    "]",
];
const PATH_PIECES: &[&str] = &["a", "b", "B", "/", ".", "1", "-", "*", ",", "]", "ab", "a/b"];

fn reference(pattern: &str) -> Result<globset::GlobMatcher, globset::Error> {
    globset::GlobBuilder::new(pattern).literal_separator(true).case_insensitive(true).backslash_escape(true).build().map(|g| g.compile_matcher())
}

/// A pattern built from whole tokens, so it mostly parses, and paths drawn from
/// it, so they mostly match (or nearly do): where the two matchers could differ.
#[derive(Clone, Debug)]
enum Atom {
    Lit(&'static str),
    Star,
    DoubleStar,
    Any,
    Class(&'static str),
    Group(Vec<Vec<Atom>>),
}

fn atoms() -> impl Strategy<Value = Vec<Atom>> {
    let leaf = prop_oneof![
        proptest::sample::select(&["a", "b", "A", "/", "/", ".", "1", "-", "\\*", ","][..]).prop_map(Atom::Lit),
        Just(Atom::Star),
        Just(Atom::DoubleStar),
        Just(Atom::Any),
        proptest::sample::select(&["[ab]", "[!a]", "[^/]", "[a-c]", "[]a]", "[-]", "[[:digit:]]", "[/]", "[.-1]"][..]).prop_map(Atom::Class),
    ];
    let atom = leaf.prop_recursive(2, 12, 3, |inner| proptest::collection::vec(proptest::collection::vec(inner, 0..3), 1..4).prop_map(Atom::Group));
    proptest::collection::vec(atom, 1..7)
}

fn render(atoms: &[Atom]) -> String {
    atoms
        .iter()
        .map(|a| match a {
            Atom::Lit(s) | Atom::Class(s) => (*s).to_owned(),
            Atom::Star => "*".into(),
            Atom::DoubleStar => "**".into(),
            Atom::Any => "?".into(),
            Atom::Group(bs) => format!("{{{}}}", bs.iter().map(|b| render(b)).collect::<Vec<_>>().join(",")),
        })
        .collect()
}

/// A path the pattern would match if every token read as it looks, choices taken from `pick`.
fn draw(atoms: &[Atom], pick: &mut impl Iterator<Item = u8>) -> String {
    fn one(from: &[&str], pick: &mut impl Iterator<Item = u8>) -> String {
        from[usize::from(pick.next().unwrap_or(0)) % from.len()].to_owned()
    }
    let mut out = String::new();
    for a in atoms {
        out += &match a {
            Atom::Lit(s) => s.trim_start_matches('\\').to_owned(),
            Atom::Star => one(&["", "a", "ab", "b.1", "A"], pick),
            Atom::DoubleStar => one(&["", "a", "a/b", "/", "x/"], pick),
            Atom::Any => one(&["a", "B", "1", "/"], pick),
            Atom::Class(_) => one(&["a", "b", "B", "1", "-", "]", "/", "."], pick),
            Atom::Group(bs) => {
                let b = &bs[usize::from(pick.next().unwrap_or(0)) % bs.len()];
                draw(b, pick)
            }
        };
    }
    out
}

fn agree(pattern: &str, paths: &[String]) -> Result<(), TestCaseError> {
    match (Glob::new(pattern), reference(pattern)) {
        (Ok(ours), Ok(theirs)) => {
            for p in paths {
                prop_assert_eq!(ours.is_match(p), theirs.is_match(p), "pattern {:?} path {:?}", pattern, p);
            }
        }
        (Err(_), Err(_)) => {}
        (ours, theirs) => prop_assert!(false, "pattern {:?}: ours {:?}, globset {:?}", pattern, ours.err(), theirs.err()),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// On ASCII patterns and paths (without newlines), this matcher accepts the
    /// patterns globset accepts and matches the paths globset matches: patterns
    /// of whole tokens with paths drawn from them (and cut short by one character).
    #[test]
    fn agrees_with_globset(atoms in atoms(), picks in proptest::collection::vec(any::<Vec<u8>>(), 6)) {
        let pattern = render(&atoms);
        let mut paths: Vec<String> = picks.iter().map(|p| draw(&atoms, &mut p.iter().copied())).collect();
        let cut: Vec<String> = paths.iter().filter_map(|p| p.get(..p.len().checked_sub(1)?).map(str::to_owned)).collect();
        paths.extend(cut);
        agree(&pattern, &paths)?;
    }

    /// Any string of pieces, most of them not well formed: both reject the same ones.
    #[test]
    fn rejects_what_globset_rejects(
        pattern in proptest::collection::vec(proptest::sample::select(PATTERN_PIECES), 1..9).prop_map(|v| v.concat()),
        paths in proptest::collection::vec(proptest::collection::vec(proptest::sample::select(PATH_PIECES), 0..7).prop_map(|v| v.concat()), 4),
    ) {
        agree(&pattern, &paths)?;
    }
}
