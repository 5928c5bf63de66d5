//! Adapter over `brush-parser` (see `docs/decisions/0001-shell-parser.md`): shell
//! text in, the owned `model` out. Parser types never leave this module.
//!
//! It does not classify. A parse failure is an `Err` the caller turns into T3
//! `parse.unsupported`; input past the syntax-nesting budget is refused before the
//! parser (which recurses) ever sees it.

pub mod dequote;
pub mod model;

use brush_parser::ast;
use brush_parser::{Parser, ParserOptions, SourceSpan};

use crate::limits::MAX_SYNTAX_NESTING;
use crate::verdict::Span;
use model::{List, Pipeline, Redirect, Simple, Stage, Word};

/// Why a source could not be modelled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFailure {
    /// The parser rejected it (unterminated quote, stray `)` …).
    Syntax(String),
    /// Nesting beyond the budget; refused without parsing.
    TooDeep,
}

fn options() -> ParserOptions {
    ParserOptions::default()
}

/// Parses shell source into the owned model.
pub fn parse(src: &str) -> Result<List, ParseFailure> {
    if nesting(src) > MAX_SYNTAX_NESTING {
        return Err(ParseFailure::TooDeep);
    }
    let opts = options();
    let mut parser = Parser::new(std::io::BufReader::new(src.as_bytes()), &opts);
    let program = parser.parse_program().map_err(|e| ParseFailure::Syntax(e.to_string()))?;
    let mut list = List::default();
    for cc in &program.complete_commands {
        compound_list(cc, &opts, &mut list);
    }
    Ok(list)
}

/// Upper bound on bracket nesting, counted without regard to quoting (so it can
/// only over-estimate, which only ever refuses more).
fn nesting(src: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in src.bytes() {
        match b {
            b'(' | b'{' | b'[' | b'`' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn span(loc: Option<&SourceSpan>) -> Span {
    loc.map(|l| Span { start: l.start.index, end: l.end.index }).unwrap_or_default()
}

fn word(w: &ast::Word, opts: &ParserOptions) -> Word {
    dequote::word(&w.value, span(w.loc.as_ref()), opts)
}

fn compound_list(cl: &ast::CompoundList, opts: &ParserOptions, out: &mut List) {
    for ast::CompoundListItem(and_or, _sep) in &cl.0 {
        pipeline(&and_or.first, opts, out);
        for next in &and_or.additional {
            match next {
                ast::AndOr::And(p) | ast::AndOr::Or(p) => pipeline(p, opts, out),
            }
        }
    }
}

fn pipeline(p: &ast::Pipeline, opts: &ParserOptions, out: &mut List) {
    let stages = p.seq.iter().map(|c| command(c, opts)).collect();
    out.pipelines.push(Pipeline { stages });
}

fn sublist(cl: &ast::CompoundList, opts: &ParserOptions) -> List {
    let mut l = List::default();
    compound_list(cl, opts, &mut l);
    l
}

fn command(c: &ast::Command, opts: &ParserOptions) -> Stage {
    match c {
        ast::Command::Simple(s) => Stage::Simple(simple(s, opts)),
        ast::Command::Compound(cc, redirects) => {
            let redirects = redirects.as_ref().map(|r| r.0.iter().map(|r| redirect(r, opts)).collect()).unwrap_or_default();
            compound(cc, redirects, opts)
        }
        ast::Command::Function(f) => {
            let ast::FunctionBody(body, redirects) = &f.body;
            let redirects = redirects.as_ref().map(|r| r.0.iter().map(|r| redirect(r, opts)).collect()).unwrap_or_default();
            compound(body, redirects, opts)
        }
        ast::Command::ExtendedTest(t, _) => {
            // `[[ … ]]` only tests; but its words may hold substitutions that run.
            let mut words = Vec::new();
            ext_test_words(&t.expr, opts, &mut words);
            Stage::Group { body: List::default(), words, redirects: Vec::new(), subshell: false, span: span(Some(&t.loc)) }
        }
    }
}

fn ext_test_words(e: &ast::ExtendedTestExpr, opts: &ParserOptions, out: &mut Vec<Word>) {
    match e {
        ast::ExtendedTestExpr::And(a, b) | ast::ExtendedTestExpr::Or(a, b) => {
            ext_test_words(a, opts, out);
            ext_test_words(b, opts, out);
        }
        ast::ExtendedTestExpr::Not(a) | ast::ExtendedTestExpr::Parenthesized(a) => ext_test_words(a, opts, out),
        ast::ExtendedTestExpr::UnaryTest(_, w) => out.push(word(w, opts)),
        ast::ExtendedTestExpr::BinaryTest(_, a, b) => {
            out.push(word(a, opts));
            out.push(word(b, opts));
        }
    }
}

fn arith_stage(text: &str, loc: &SourceSpan) -> Option<Stage> {
    (text.contains("$(") || text.contains('`')).then(|| Stage::Unsupported { what: "command substitution inside arithmetic", span: span(Some(loc)) })
}

fn compound(cc: &ast::CompoundCommand, redirects: Vec<Redirect>, opts: &ParserOptions) -> Stage {
    let group = |body: List, words: Vec<Word>, subshell: bool, loc: &SourceSpan, redirects: Vec<Redirect>| Stage::Group {
        body,
        words,
        redirects,
        subshell,
        span: span(Some(loc)),
    };
    match cc {
        ast::CompoundCommand::Arithmetic(a) => {
            arith_stage(&a.expr.value, &a.loc).unwrap_or_else(|| group(List::default(), Vec::new(), false, &a.loc, redirects))
        }
        ast::CompoundCommand::ArithmeticForClause(f) => {
            let parts = [&f.initializer, &f.condition, &f.updater];
            for e in parts.into_iter().flatten() {
                if let Some(s) = arith_stage(&e.value, &f.loc) {
                    return s;
                }
            }
            group(sublist(&f.body.list, opts), Vec::new(), false, &f.loc, redirects)
        }
        ast::CompoundCommand::BraceGroup(b) => group(sublist(&b.list, opts), Vec::new(), false, &b.loc, redirects),
        ast::CompoundCommand::Subshell(s) => group(sublist(&s.list, opts), Vec::new(), true, &s.loc, redirects),
        ast::CompoundCommand::ForClause(f) => {
            let words = f.values.iter().flatten().map(|w| word(w, opts)).collect();
            group(sublist(&f.body.list, opts), words, false, &f.loc, redirects)
        }
        ast::CompoundCommand::CaseClause(c) => {
            let mut body = List::default();
            for item in &c.cases {
                if let Some(cmd) = &item.cmd {
                    compound_list(cmd, opts, &mut body);
                }
            }
            group(body, vec![word(&c.value, opts)], false, &c.loc, redirects)
        }
        ast::CompoundCommand::IfClause(i) => {
            let mut body = sublist(&i.condition, opts);
            compound_list(&i.then, opts, &mut body);
            for e in i.elses.iter().flatten() {
                if let Some(c) = &e.condition {
                    compound_list(c, opts, &mut body);
                }
                compound_list(&e.body, opts, &mut body);
            }
            group(body, Vec::new(), false, &i.loc, redirects)
        }
        ast::CompoundCommand::WhileClause(w) | ast::CompoundCommand::UntilClause(w) => {
            let ast::WhileOrUntilClauseCommand(cond, body, loc) = w;
            let mut all = sublist(cond, opts);
            compound_list(&body.list, opts, &mut all);
            group(all, Vec::new(), false, loc, redirects)
        }
        ast::CompoundCommand::Coprocess(c) => {
            // A coprocess runs its body in the background: model it as a subshell.
            let stage = command(&c.body, opts);
            let body = List { pipelines: vec![Pipeline { stages: vec![stage] }] };
            Stage::Group { body, words: Vec::new(), redirects, subshell: true, span: Span::default() }
        }
    }
}

fn simple(s: &ast::SimpleCommand, opts: &ParserOptions) -> Simple {
    let mut out = Simple { assigns: Vec::new(), words: Vec::new(), redirects: Vec::new(), procsubs: Vec::new(), span: Span::default() };
    let mut item = |i: &ast::CommandPrefixOrSuffixItem, out: &mut Simple, prefix: bool| match i {
        ast::CommandPrefixOrSuffixItem::IoRedirect(r) => out.redirects.push(redirect(r, opts)),
        ast::CommandPrefixOrSuffixItem::Word(w) => out.words.push(word(w, opts)),
        ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
            // After the program word an assignment-shaped word is just an argument.
            if prefix {
                out.assigns.push(word(w, opts));
            } else {
                out.words.push(word(w, opts));
            }
        }
        ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => {
            out.procsubs.push(sublist(&sub.list, opts));
            out.words.push(Word {
                text: "/dev/fd/63".to_owned(),
                exact: false,
                quoted: false,
                subs: Vec::new(),
                opaque: false,
                span: span(Some(&sub.loc)),
            });
        }
    };
    if let Some(p) = &s.prefix {
        for i in &p.0 {
            item(i, &mut out, true);
        }
    }
    if let Some(w) = &s.word_or_name {
        out.words.push(word(w, opts));
    }
    if let Some(sfx) = &s.suffix {
        for i in &sfx.0 {
            item(i, &mut out, false);
        }
    }
    let first = out.assigns.first().map(|w| w.span).or(out.words.first().map(|w| w.span));
    let last = out.words.last().map(|w| w.span).or(out.assigns.last().map(|w| w.span));
    if let (Some(a), Some(b)) = (first, last) {
        out.span = Span { start: a.start, end: b.end.max(a.end) };
    }
    out
}

fn redirect(r: &ast::IoRedirect, opts: &ParserOptions) -> Redirect {
    match r {
        ast::IoRedirect::File(fd, kind, target) => {
            let target_word = match target {
                ast::IoFileRedirectTarget::Filename(w) => word(w, opts),
                ast::IoFileRedirectTarget::Fd(_) | ast::IoFileRedirectTarget::Duplicate(_) => return Redirect::Dup,
                ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => return Redirect::Process { body: sublist(&sub.list, opts) },
            };
            match kind {
                ast::IoFileRedirectKind::Read => Redirect::Read { fd: *fd, target: target_word },
                ast::IoFileRedirectKind::Write | ast::IoFileRedirectKind::Clobber | ast::IoFileRedirectKind::ReadAndWrite => {
                    Redirect::Write { fd: *fd, target: target_word, append: false }
                }
                ast::IoFileRedirectKind::Append => Redirect::Write { fd: *fd, target: target_word, append: true },
                ast::IoFileRedirectKind::DuplicateInput | ast::IoFileRedirectKind::DuplicateOutput => {
                    // `>&file` (non-numeric) writes to a file; `>&2` only duplicates.
                    if target_word.text.chars().all(|c| c.is_ascii_digit() || c == '-') {
                        Redirect::Dup
                    } else {
                        Redirect::Write { fd: *fd, target: target_word, append: false }
                    }
                }
            }
        }
        ast::IoRedirect::HereDocument(_, doc) => {
            let body = doc.doc.value.clone();
            let (subs, opaque) = if doc.requires_expansion { dequote::heredoc_subs(&body, opts) } else { (Vec::new(), false) };
            if opaque {
                return Redirect::Heredoc { body, expands: true, subs: vec!["${__tiergate_opaque__}".to_owned()] };
            }
            Redirect::Heredoc { body, expands: doc.requires_expansion, subs }
        }
        ast::IoRedirect::HereString(_, w) => Redirect::HereString { word: word(w, opts) },
        ast::IoRedirect::OutputAndError(w, append) => Redirect::Write { fd: None, target: word(w, opts), append: *append },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_pipelines_are_flattened_in_order() {
        let l = parse("a && b | c; d").unwrap_or_default();
        let shapes: Vec<usize> = l.pipelines.iter().map(|p| p.stages.len()).collect();
        assert_eq!(shapes, [1, 2, 1]);
    }

    #[test]
    fn unterminated_quote_is_a_failure() {
        assert!(matches!(parse("echo 'abc"), Err(ParseFailure::Syntax(_))));
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let src = "$(".repeat(10_000);
        assert_eq!(parse(&src).err(), Some(ParseFailure::TooDeep));
    }
}
