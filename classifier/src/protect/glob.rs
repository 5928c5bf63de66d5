//! The glob matcher for the user's `protected_paths` (docs/decisions/0004-protect-glob-matcher.md).
//!
//! The grammar is `globset` 0.4's, with the options `protect` always used
//! (`literal_separator`, `case_insensitive`, `backslash_escape`): `*` and `?`
//! stay inside one path component, `**` crosses components (as a whole
//! component only: `**/x`, `x/**`, `a/**/b`, or `**` alone), `[..]` classes
//! with ranges, `!`/`^` negation and POSIX names (`[[:digit:]]`), `{a,b}`
//! alternatives (nested too), `\` escapes. Letters match ignoring ASCII case.
//! A pattern `globset` rejects is rejected here, with the reason.
//!
//! It replaces `globset` because that crate compiles each pattern to a regex,
//! and linking `regex` put its Unicode tables in the hook binary: 6,900 of its
//! 17,000 start-up relocations, paid on every call whether or not a pattern
//! was configured (0005-hook-startup.md). A pattern here compiles to a small
//! NFA that is simulated one path character at a time: no backtracking, so no
//! pattern makes a match take more than (path length × pattern length) steps.
//! Two deliberate differences, both stricter: `?` is one character, not one
//! byte, and `**` also crosses a component holding a newline.
//! A differential test against `globset` (a dev-dependency) keeps the rest equal.

use std::sync::OnceLock;

/// A parsed pattern. Parsing is all a config check needs; the automaton is built
/// the first time a path gets past the pattern's literal prefix.
#[derive(Debug)]
pub(crate) struct Glob {
    text: String,
    /// The characters every match starts with (ASCII case aside): most paths are
    /// turned away on these, without the automaton.
    literal: String,
    tokens: Vec<Token>,
    nfa: OnceLock<Nfa>,
}

impl Clone for Glob {
    fn clone(&self) -> Glob {
        Glob { text: self.text.clone(), literal: self.literal.clone(), tokens: self.tokens.clone(), nfa: OnceLock::new() }
    }
}

/// States are numbers; state 0 accepts. Moves and empty moves are flat lists
/// (a pattern has a few dozen states), classes live apart so an edge is `Copy`.
#[derive(Debug, Default)]
struct Nfa {
    start: usize,
    states: usize,
    moves: Vec<(usize, Edge, usize)>,
    eps: Vec<(usize, usize)>,
    classes: Vec<(bool, Vec<(char, char)>)>,
}

#[derive(Clone, Copy, Debug)]
enum Edge {
    /// This character, ignoring ASCII case.
    Char(char),
    /// Any character but `/`.
    NotSlash,
    /// Any character.
    Any,
    /// `classes[i]`: (negated, ranges); never `/` (the separator is literal).
    Class(usize),
}

impl Nfa {
    fn takes(&self, edge: Edge, c: char) -> bool {
        match edge {
            Edge::Char(x) => x.eq_ignore_ascii_case(&c),
            Edge::NotSlash => c != '/',
            Edge::Any => true,
            Edge::Class(i) => {
                let (negated, ranges) = &self.classes[i];
                let hit = |c: char| ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                c != '/' && (hit(c) || hit(c.to_ascii_lowercase()) || hit(c.to_ascii_uppercase())) != *negated
            }
        }
    }

    fn matches(&self, path: &str) -> bool {
        let mut now = vec![false; self.states];
        let mut next = vec![false; self.states];
        self.close(self.start, &mut now);
        for c in path.chars() {
            next.iter_mut().for_each(|b| *b = false);
            let mut any = false;
            for &(from, edge, to) in &self.moves {
                if now[from] && self.takes(edge, c) {
                    self.close(to, &mut next);
                    any = true;
                }
            }
            if !any {
                return false;
            }
            std::mem::swap(&mut now, &mut next);
        }
        now[0]
    }

    /// Marks `s` and every state reachable from it without reading.
    fn close(&self, s: usize, set: &mut [bool]) {
        if set[s] {
            return;
        }
        set[s] = true;
        for &(from, to) in &self.eps {
            if from == s {
                self.close(to, set);
            }
        }
    }

    fn build(tokens: &[Token]) -> Nfa {
        let mut n = Nfa { states: 1, ..Nfa::default() };
        n.start = if tokens == [Token::RecursivePrefix] {
            let s = n.add();
            n.moves.push((s, Edge::Any, s));
            n.eps.push((s, 0));
            s
        } else {
            n.seq(tokens, 0)
        };
        n
    }

    fn add(&mut self) -> usize {
        self.states += 1;
        self.states - 1
    }

    /// States for `tokens` in order, ending in `exit`; returns the first.
    fn seq(&mut self, tokens: &[Token], exit: usize) -> usize {
        tokens.iter().rev().fold(exit, |next, t| self.token(t, next))
    }

    fn token(&mut self, t: &Token, next: usize) -> usize {
        let s = self.add();
        match t {
            Token::Literal(c) => self.moves.push((s, Edge::Char(*c), next)),
            Token::Any => self.moves.push((s, Edge::NotSlash, next)),
            Token::Class { negated, ranges } => {
                self.classes.push((*negated, ranges.clone()));
                self.moves.push((s, Edge::Class(self.classes.len() - 1), next));
            }
            Token::ZeroOrMore => {
                self.moves.push((s, Edge::NotSlash, s));
                self.eps.push((s, next));
            }
            Token::RecursivePrefix => {
                // Nothing, `/`, or anything ending in `/`.
                let inner = self.add();
                self.eps.push((s, next));
                self.moves.extend([(s, Edge::Char('/'), next), (s, Edge::Any, inner), (inner, Edge::Any, inner), (inner, Edge::Char('/'), next)]);
            }
            Token::RecursiveSuffix => {
                // `/` and then anything.
                let inner = self.add();
                self.moves.extend([(s, Edge::Char('/'), inner), (inner, Edge::Any, inner)]);
                self.eps.push((inner, next));
            }
            Token::RecursiveZeroOrMore => {
                // `/`, or `/`, anything, `/`.
                let inner = self.add();
                self.moves.extend([(s, Edge::Char('/'), next), (s, Edge::Char('/'), inner), (inner, Edge::Any, inner), (inner, Edge::Char('/'), next)]);
            }
            Token::Alternates(branches) => {
                // globset drops empty alternatives (`{a,}` is `a` alone); none left matches nothing extra.
                let kept: Vec<&Vec<Token>> = branches.iter().filter(|b| !matches_only_empty(b)).collect();
                if kept.is_empty() {
                    self.eps.push((s, next));
                }
                for b in kept {
                    let first = self.seq(b, next);
                    self.eps.push((s, first));
                }
            }
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Literal(char),
    Any,
    ZeroOrMore,
    /// `**/` at the start: `(?:/?|.*/)`.
    RecursivePrefix,
    /// `/**` at the end: `/.*`.
    RecursiveSuffix,
    /// `/**/` inside: `(?:/|/.*/)`.
    RecursiveZeroOrMore,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Alternates(Vec<Vec<Token>>),
}

impl Glob {
    /// Parses `pattern`; `Err` says what is wrong with it.
    pub(crate) fn new(pattern: &str) -> Result<Glob, String> {
        let tokens = Parser::new(pattern).parse()?;
        let literal = tokens
            .iter()
            .map_while(|t| match t {
                Token::Literal(c) => Some(*c),
                _ => None,
            })
            .collect();
        Ok(Glob { text: pattern.to_owned(), literal, tokens, nfa: OnceLock::new() })
    }

    /// The pattern as written.
    pub(crate) fn glob(&self) -> &str {
        &self.text
    }

    /// Whether the whole of `path` matches.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        // A match starts with the literal, each character of it as the automaton compares it.
        // The automaton is of what follows the literal, and reads what follows it in `path`
        // (equal bytes but for ASCII case end on the same character boundary).
        let lit = self.literal.as_bytes();
        if !path.as_bytes().get(..lit.len()).is_some_and(|head| head.eq_ignore_ascii_case(lit)) {
            return false;
        }
        let rest = &self.tokens[self.literal.chars().count()..];
        self.nfa.get_or_init(|| Nfa::build(rest)).matches(&path[lit.len()..])
    }
}

/// True when `tokens` would be written as no regex at all (globset leaves those alternatives out).
fn matches_only_empty(tokens: &[Token]) -> bool {
    tokens.iter().all(|t| matches!(t, Token::Alternates(bs) if bs.iter().all(|b| matches_only_empty(b))))
}

/// globset's parser, for the options `protect` uses.
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    prev: Option<char>,
    cur: Option<char>,
    /// Open `{` groups: where each one's branches start in `branches`.
    alternates: Vec<usize>,
    branches: Vec<Vec<Token>>,
}

impl<'a> Parser<'a> {
    fn new(glob: &'a str) -> Parser<'a> {
        let top = Vec::with_capacity(glob.len());
        Parser { chars: glob.chars().peekable(), prev: None, cur: None, alternates: Vec::new(), branches: vec![top] }
    }

    fn parse(mut self) -> Result<Vec<Token>, String> {
        while let Some(c) = self.bump() {
            match c {
                '?' => self.push(Token::Any),
                '*' => self.star()?,
                '[' => self.class()?,
                '{' => {
                    if self.alternates.len() >= 100 {
                        return Err("too many nested alternate groups".into());
                    }
                    self.alternates.push(self.branches.len());
                    self.branches.push(Vec::new());
                }
                '}' => {
                    let start = self.alternates.pop().ok_or("unopened alternate group; missing '{' (escape '}' as '[}]')")?;
                    let alts = Token::Alternates(self.branches.drain(start..).collect());
                    self.push(alts);
                }
                ',' if !self.alternates.is_empty() => self.branches.push(Vec::new()),
                '\\' => {
                    let c = self.bump().ok_or("dangling '\\'")?;
                    self.push(Token::Literal(c));
                }
                c => self.push(Token::Literal(c)),
            }
        }
        if self.branches.len() > 1 {
            return Err("unclosed alternate group; missing '}' (escape '{' as '[{]')".into());
        }
        Ok(self.branches.pop().unwrap_or_default())
    }

    fn bump(&mut self) -> Option<char> {
        self.prev = self.cur;
        self.cur = self.chars.next();
        self.cur
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn last(&mut self) -> &mut Vec<Token> {
        // `branches` always holds the top-level sequence; groups only add to it.
        let n = self.branches.len();
        &mut self.branches[n - 1]
    }

    fn push(&mut self, t: Token) {
        self.last().push(t);
    }

    /// `*` or `**`, as globset reads them: `**` is recursive only as a whole component.
    fn star(&mut self) -> Result<(), String> {
        let prev = self.prev;
        if self.peek() != Some('*') {
            self.push(Token::ZeroOrMore);
            return Ok(());
        }
        self.bump();
        let twice = |p: &mut Parser<'_>| {
            p.push(Token::ZeroOrMore);
            p.push(Token::ZeroOrMore);
        };
        if self.last().is_empty() {
            if self.peek().is_some_and(|c| c != '/') {
                twice(self);
            } else {
                self.push(Token::RecursivePrefix);
                self.bump();
            }
            return Ok(());
        }
        if prev != Some('/') && (self.branches.len() <= 1 || (prev != Some(',') && prev != Some('{'))) {
            twice(self);
            return Ok(());
        }
        let suffix = match self.peek() {
            None => true,
            Some(',' | '}') if self.branches.len() >= 2 => true,
            Some('/') => {
                self.bump();
                false
            }
            _ => {
                twice(self);
                return Ok(());
            }
        };
        let t = match self.last().pop() {
            Some(t @ (Token::RecursivePrefix | Token::RecursiveSuffix)) => t,
            _ if suffix => Token::RecursiveSuffix,
            _ => Token::RecursiveZeroOrMore,
        };
        self.push(t);
        Ok(())
    }

    /// `[…]`, the `[` already read.
    fn class(&mut self) -> Result<(), String> {
        let negated = matches!(self.peek(), Some('!' | '^'));
        if negated {
            self.bump();
        }
        let mut ranges: Vec<(char, char)> = Vec::new();
        let (mut first, mut in_range) = (true, false);
        let extend = |r: &mut (char, char), c: char| {
            r.1 = c;
            if r.1 < r.0 {
                Err(format!("invalid range; '{}' > '{}'", r.0, r.1))
            } else {
                Ok(())
            }
        };
        loop {
            let c = self.bump().ok_or("unclosed character class; missing ']'")?;
            match c {
                ']' if !first => break,
                ']' => ranges.push((']', ']')),
                '-' if first => ranges.push(('-', '-')),
                '-' if in_range => {
                    let r = ranges.last_mut().ok_or("range without a start")?;
                    extend(r, '-')?;
                    in_range = false;
                }
                '-' => in_range = true,
                '[' if !in_range && self.peek() == Some(':') => match self.posix_class() {
                    Some(named) => ranges.extend_from_slice(&named),
                    None => ranges.push(('[', '[')),
                },
                c if in_range => {
                    let r = ranges.last_mut().ok_or("range without a start")?;
                    extend(r, c)?;
                    in_range = false;
                }
                c => ranges.push((c, c)),
            }
            first = false;
        }
        if in_range {
            ranges.push(('-', '-'));
        }
        self.push(Token::Class { negated, ranges });
        Ok(())
    }

    /// `[:name:]` inside a class, the `[` already read; `None` when it is not one (nothing
    /// consumed, unless it is well formed with an unknown name).
    fn posix_class(&mut self) -> Option<Vec<(char, char)>> {
        let (chars, prev, cur) = (self.chars.clone(), self.prev, self.cur);
        self.bump();
        let mut name = String::new();
        loop {
            match self.bump() {
                // An unknown name is consumed all the same, and the `[` is a literal (as globset reads it).
                Some(':') if self.peek() == Some(']') => {
                    self.bump();
                    return posix_ranges(&name);
                }
                Some(c) if c.is_ascii_lowercase() && name.len() < 8 => name.push(c),
                _ => break,
            }
        }
        (self.chars, self.prev, self.cur) = (chars, prev, cur);
        None
    }
}

/// The ASCII ranges of a POSIX class name.
fn posix_ranges(name: &str) -> Option<Vec<(char, char)>> {
    let r: &[(char, char)] = match name {
        "alnum" => &[('0', '9'), ('A', 'Z'), ('a', 'z')],
        "alpha" => &[('A', 'Z'), ('a', 'z')],
        "blank" => &[('\t', '\t'), (' ', ' ')],
        "cntrl" => &[('\x00', '\x1f'), ('\x7f', '\x7f')],
        "digit" => &[('0', '9')],
        "graph" => &[('!', '~')],
        "lower" => &[('a', 'z')],
        "print" => &[(' ', '~')],
        "punct" => &[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        "space" => &[('\t', '\r'), (' ', ' ')],
        "upper" => &[('A', 'Z')],
        "xdigit" => &[('0', '9'), ('A', 'F'), ('a', 'f')],
        _ => return None,
    };
    Some(r.to_vec())
}

#[cfg(test)]
mod tests;
