//! Adapter over `brush-parser` (see `docs/decisions/0001-shell-parser.md`): shell
//! text in, the owned `model` out. Parser types never leave this module.
//!
//! It does not classify. A parse failure is an `Err` the caller turns into T3
//! `parse.unsupported`; input that could nest past what a stack holds is refused
//! or parsed on a thread with a stack sized for it (see `parse`).

mod braces;
pub mod dequote;
pub mod model;
mod plain;
mod precheck;

/// Decodes backslash escapes the way `$'…'` (and `printf`'s format) does.
pub use dequote::ansi_c;

use brush_parser::ast;
use brush_parser::{Parser, ParserOptions, SourceSpan};

use std::cell::Cell;

use crate::limits::{MAX_DOUBLE_PARENS, MAX_PARSE_OPENERS, MAX_SYNTAX_NESTING, MAX_UNCLOSED_PARENS};
use crate::verdict::Span;
use model::{List, Pipeline, Redirect, Simple, Stage, Word};
use precheck::{expanding_heredoc_tag, openers, unclosed_parens};

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

/// What the walk needs besides the AST: parser options, the source text (to
/// check what the parser's tokens do not say, such as `((` adjacency) and the
/// walk's own depth, so the owned model never nests past the budget.
struct Cx<'a> {
    opts: ParserOptions,
    src: &'a str,
    depth: Cell<usize>,
    too_deep: Cell<bool>,
}

impl std::ops::Deref for Cx<'_> {
    type Target = ParserOptions;
    fn deref(&self) -> &ParserOptions {
        &self.opts
    }
}

/// Openers up to which the parser runs on the caller's stack: 64 levels of
/// brush-parser recursion fit in 512 KiB even in a debug build (measured in
/// `docs/evidence.md`: ~6 KiB per level in debug, 4–10 KiB in release).
const FAST_PATH_OPENERS: usize = 64;
/// Stack reserved per opener on the slow path, with 3–8x headroom over the
/// measured cost; only pages actually touched become resident.
const STACK_PER_OPENER: usize = 32 * 1024;

/// Parses shell source into the owned model.
///
/// brush-parser recurses once per nesting level and a stack overflow aborts the
/// process (for the hook: exit without a decision, i.e. fail open), so the depth
/// it can reach is bounded before it runs: `openers` counts every token that can
/// open a level and never subtracts (a quoted `)` cannot hide one). Small counts
/// parse here; larger ones parse on a scoped thread whose stack is sized for the
/// count; past `MAX_PARSE_OPENERS` the source is refused unparsed.
pub fn parse(src: &str) -> Result<List, ParseFailure> {
    if let Some(list) = plain::parse(src) {
        return Ok(list);
    }
    if expanding_heredoc_tag(src) {
        return Err(ParseFailure::Syntax("a heredoc delimiter that starts with an expansion (`<<$(`) is not modelled".into()));
    }
    let openers = openers(src);
    // brush-parser backtracks exponentially on unclosed `((` runs (12 take half a
    // second, 16 over 20 s), so more than a handful anywhere is refused unparsed.
    if openers > MAX_PARSE_OPENERS || src.matches("((").count() > MAX_DOUBLE_PARENS {
        return Err(ParseFailure::TooDeep);
    }
    // The same backtracking hits a long run of unclosed `(` (32 take over 20 s). Such
    // input can only fail to parse, so it is refused as a syntax error up front.
    if unclosed_parens(src) > MAX_UNCLOSED_PARENS {
        return Err(ParseFailure::Syntax("more `(` than `)` outside quotes".into()));
    }
    if openers <= FAST_PATH_OPENERS {
        return parse_here(src);
    }
    let stack = openers * STACK_PER_OPENER + 1024 * 1024;
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new().name("tiergate-parse".into()).stack_size(stack).spawn_scoped(s, || parse_here(src));
        match worker {
            Ok(h) => h.join().unwrap_or(Err(ParseFailure::TooDeep)),
            // No thread, no big stack: refuse rather than risk the caller's.
            Err(_) => Err(ParseFailure::TooDeep),
        }
    })
}

/// Parses and walks on the current stack; the brush AST is dropped here too
/// (its drop recurses as deep as it nests).
fn parse_here(src: &str) -> Result<List, ParseFailure> {
    // brush-parser 0.4 panics on some inputs (`2222222222222<&2`: an fd number
    // that overflows is `unwrap`ped in its io_number rule; found by the
    // `classify` fuzz target). The library never panics, so a parser panic is a
    // parse failure: the caller answers ask.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse_unguarded(src)))
        .unwrap_or_else(|_| Err(ParseFailure::Syntax("the shell parser failed on this text".into())))
}

fn parse_unguarded(src: &str) -> Result<List, ParseFailure> {
    let opts = Cx { opts: options(), src, depth: Cell::new(0), too_deep: Cell::new(false) };
    let mut parser = Parser::new(std::io::BufReader::new(src.as_bytes()), &opts.opts);
    let program = parser.parse_program().map_err(|e| ParseFailure::Syntax(e.to_string()))?;
    let mut list = List::default();
    for cc in &program.complete_commands {
        compound_list(cc, &opts, &mut list);
    }
    if opts.too_deep.get() {
        return Err(ParseFailure::TooDeep);
    }
    Ok(list)
}

fn span(loc: Option<&SourceSpan>) -> Span {
    loc.map(|l| Span { start: l.start.index, end: l.end.index }).unwrap_or_default()
}

fn word(w: &ast::Word, opts: &Cx<'_>) -> Word {
    dequote::word(&w.value, span(w.loc.as_ref()), opts)
}

fn compound_list(cl: &ast::CompoundList, opts: &Cx<'_>, out: &mut List) {
    for ast::CompoundListItem(and_or, _sep) in &cl.0 {
        pipeline(&and_or.first, opts, out);
        for next in &and_or.additional {
            match next {
                ast::AndOr::And(p) | ast::AndOr::Or(p) => pipeline(p, opts, out),
            }
        }
    }
}

fn pipeline(p: &ast::Pipeline, opts: &Cx<'_>, out: &mut List) {
    let stages = p.seq.iter().map(|c| command(c, opts)).collect();
    out.pipelines.push(Pipeline { stages });
}

fn sublist(cl: &ast::CompoundList, opts: &Cx<'_>) -> List {
    let mut l = List::default();
    compound_list(cl, opts, &mut l);
    l
}

fn command(c: &ast::Command, opts: &Cx<'_>) -> Stage {
    // Every nested body passes through here; past the budget the model stops
    // growing (and `parse` refuses), so the engine's own recursion stays bounded.
    let depth = opts.depth.get() + 1;
    if depth > MAX_SYNTAX_NESTING {
        opts.too_deep.set(true);
        return Stage::Unsupported { what: "nesting too deep", span: Span::default() };
    }
    opts.depth.set(depth);
    let stage = command_at_depth(c, opts);
    opts.depth.set(depth - 1);
    stage
}

fn command_at_depth(c: &ast::Command, opts: &Cx<'_>) -> Stage {
    match c {
        ast::Command::Simple(s) => Stage::Simple(simple(s, opts)),
        ast::Command::Compound(cc, redirects) => {
            let redirects = redirects.as_ref().map(|r| r.0.iter().map(|r| redirect(r, opts)).collect()).unwrap_or_default();
            compound(cc, redirects, opts)
        }
        ast::Command::Function(f) => {
            let ast::FunctionBody(body, redirects) = &f.body;
            let redirects = redirects.as_ref().map(|r| r.0.iter().map(|r| redirect(r, opts)).collect()).unwrap_or_default();
            let mut stage = compound(body, redirects, opts);
            if let Stage::Group { function, .. } = &mut stage {
                *function = Some(f.fname.value.clone());
            }
            stage
        }
        ast::Command::ExtendedTest(t, _) => {
            // `[[ … ]]` only tests; but its words may hold substitutions that run.
            let mut words = Vec::new();
            ext_test_words(&t.expr, opts, &mut words);
            group(List::default(), words, false, &t.loc, Vec::new())
        }
    }
}

fn ext_test_words(e: &ast::ExtendedTestExpr, opts: &Cx<'_>, out: &mut Vec<Word>) {
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

/// Whether the arithmetic command at `loc` is written `((`…`))` with both pairs
/// adjacent, as bash requires. Parser positions count characters, not bytes.
fn adjacent_parens(src: &str, loc: &SourceSpan) -> bool {
    let at = |i: usize| src.chars().skip(i).take(2).eq("((".chars());
    let closes = |i: usize| src.chars().skip(i).take(2).eq("))".chars());
    at(loc.start.index) && loc.end.index >= 2 && closes(loc.end.index - 2)
}

fn arith_stage(text: &str, loc: &SourceSpan) -> Option<Stage> {
    (text.contains("$(") || text.contains('`')).then(|| Stage::Unsupported { what: "command substitution inside arithmetic", span: span(Some(loc)) })
}

/// A compound command's stage: its body, the words it expands, its redirections.
fn group(body: List, words: Vec<Word>, subshell: bool, loc: &SourceSpan, redirects: Vec<Redirect>) -> Stage {
    Stage::Group { body, words, redirects, subshell, span: span(Some(loc)), function: None, forks_forever: false, binds: None }
}

fn compound(cc: &ast::CompoundCommand, redirects: Vec<Redirect>, opts: &Cx<'_>) -> Stage {
    match cc {
        ast::CompoundCommand::Arithmetic(a) if !adjacent_parens(opts.src, &a.loc) => {
            // brush-parser 0.4 reads `( ( cmd ) )` as an arithmetic command; bash
            // only does for an adjacent `((`…`))` and otherwise runs nested
            // subshells. Calling it arithmetic would hide `cmd` ("nothing runs"),
            // so the text inside the outer pair is parsed again as a subshell body.
            let (start, end) = (a.loc.start.index, a.loc.end.index);
            let inner: String = opts.src.chars().skip(start + 1).take(end.saturating_sub(start + 2)).collect();
            match parse(&inner) {
                Ok(body) => group(body, Vec::new(), true, &a.loc, redirects),
                Err(_) => Stage::Unsupported { what: "nested subshells `( (` that the parser reads as arithmetic", span: span(Some(&a.loc)) },
            }
        }
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
            let mut g = group(sublist(&f.body.list, opts), Vec::new(), false, &f.loc, redirects);
            if let Stage::Group { forks_forever, .. } = &mut g {
                *forks_forever = f.condition.is_none() && backgrounds(&f.body.list);
            }
            g
        }
        ast::CompoundCommand::BraceGroup(b) => group(sublist(&b.list, opts), Vec::new(), false, &b.loc, redirects),
        ast::CompoundCommand::Subshell(s) => group(sublist(&s.list, opts), Vec::new(), true, &s.loc, redirects),
        ast::CompoundCommand::ForClause(f) => {
            let words = f.values.iter().flatten().map(|w| word(w, opts)).collect();
            let mut g = group(sublist(&f.body.list, opts), words, false, &f.loc, redirects);
            if let Stage::Group { binds, .. } = &mut g {
                *binds = Some(f.variable_name.clone());
            }
            g
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
            let mut g = group(all, Vec::new(), false, loc, redirects);
            if let Stage::Group { forks_forever, .. } = &mut g {
                *forks_forever = loop_forks_forever(cc, cond, &body.list);
            }
            g
        }
        ast::CompoundCommand::Coprocess(c) => {
            // A coprocess runs its body in the background: model it as a subshell.
            let stage = command(&c.body, opts);
            let body = List { pipelines: vec![Pipeline { stages: vec![stage] }] };
            Stage::Group { body, words: Vec::new(), redirects, subshell: true, span: Span::default(), function: None, forks_forever: false, binds: None }
        }
    }
}

/// `while :; do x & done`: an unbounded condition and a background job in the body.
#[inline(never)]
fn loop_forks_forever(cc: &ast::CompoundCommand, cond: &ast::CompoundList, body: &ast::CompoundList) -> bool {
    let until = matches!(cc, ast::CompoundCommand::UntilClause(_));
    constant_condition(cond, if until { &["false"] } else { &[":", "true"] }) && backgrounds(body)
}

/// True when the loop condition is one of `words` alone (`while :`, `while true`, `until false`).
/// `:`, `true` and `false` ignore their arguments, and an assignment or redirection
/// before or after them does not change their status (`while X=1 true x >/dev/null`
/// loops as `while true` does; a redirection that fails would end it, and asking then
/// is the stricter reading), so only the command word is compared.
fn constant_condition(cond: &ast::CompoundList, words: &[&str]) -> bool {
    let [ast::CompoundListItem(and_or, _)] = cond.0.as_slice() else {
        return false;
    };
    if !and_or.additional.is_empty() || and_or.first.seq.len() != 1 || and_or.first.bang {
        return false;
    }
    match &and_or.first.seq[0] {
        ast::Command::Simple(s) => s.word_or_name.as_ref().is_some_and(|w| words.contains(&w.value.as_str())),
        _ => false,
    }
}

/// True when the list starts a background job (`cmd &`) at its top level or in a nested group.
fn backgrounds(cl: &ast::CompoundList) -> bool {
    cl.0.iter().any(|ast::CompoundListItem(and_or, sep)| {
        matches!(sep, ast::SeparatorOperator::Async)
            || std::iter::once(&and_or.first)
                .chain(and_or.additional.iter().map(|a| match a {
                    ast::AndOr::And(p) | ast::AndOr::Or(p) => p,
                }))
                .flat_map(|p| &p.seq)
                .any(|c| match c {
                    ast::Command::Compound(ast::CompoundCommand::BraceGroup(b), _) => backgrounds(&b.list),
                    ast::Command::Compound(ast::CompoundCommand::Subshell(b), _) => backgrounds(&b.list),
                    _ => false,
                })
    })
}

fn simple(s: &ast::SimpleCommand, opts: &Cx<'_>) -> Simple {
    let mut out = Simple { assigns: Vec::new(), words: Vec::new(), redirects: Vec::new(), procsubs: Vec::new(), span: Span::default() };
    let item = |i: &ast::CommandPrefixOrSuffixItem, out: &mut Simple, prefix: bool| match i {
        ast::CommandPrefixOrSuffixItem::IoRedirect(r) => out.redirects.push(redirect(r, opts)),
        ast::CommandPrefixOrSuffixItem::Word(w) => braces::command_words(&w.value, span(w.loc.as_ref()), opts, &mut out.words),
        ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
            // After the program word an assignment-shaped word is just an argument
            // (and brace-expanded like one: `echo a={1,2}` is `a=1 a=2`).
            if prefix {
                out.assigns.push(word(w, opts));
            } else {
                braces::command_words(&w.value, span(w.loc.as_ref()), opts, &mut out.words);
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
                secret: crate::call::Secret::None,
            });
        }
    };
    if let Some(p) = &s.prefix {
        for i in &p.0 {
            item(i, &mut out, true);
        }
    }
    if let Some(w) = &s.word_or_name {
        braces::command_words(&w.value, span(w.loc.as_ref()), opts, &mut out.words);
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

fn redirect(r: &ast::IoRedirect, opts: &Cx<'_>) -> Redirect {
    match r {
        ast::IoRedirect::File(fd, kind, target) => {
            // A `>&`/`<&` target is a word like any other (brush reads it as `Duplicate`):
            // it may hold a substitution (`>&$(cmd)`) and name a file (`>&out`), so it
            // is read, and only digits and `-` make it a duplication below.
            let target_word = match target {
                ast::IoFileRedirectTarget::Filename(w) | ast::IoFileRedirectTarget::Duplicate(w) => word(w, opts),
                ast::IoFileRedirectTarget::Fd(_) => return Redirect::Dup,
                ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => return Redirect::Process { body: sublist(&sub.list, opts) },
            };
            match kind {
                ast::IoFileRedirectKind::Read => Redirect::Read { fd: *fd, target: target_word },
                ast::IoFileRedirectKind::Write | ast::IoFileRedirectKind::Clobber | ast::IoFileRedirectKind::ReadAndWrite => {
                    Redirect::Write { fd: *fd, target: target_word, append: false }
                }
                ast::IoFileRedirectKind::Append => Redirect::Write { fd: *fd, target: target_word, append: true },
                ast::IoFileRedirectKind::DuplicateInput | ast::IoFileRedirectKind::DuplicateOutput => {
                    // `>&2`, `2>&1-` and `>&-` only duplicate, move or close a descriptor;
                    // any other target (`>&file`, `>&$f`) is a file: bash writes stdout and
                    // stderr to it (`<&file` is bash's error, read as a read).
                    if target_word.text.chars().all(|c| c.is_ascii_digit() || c == '-') {
                        Redirect::Dup
                    } else if matches!(kind, ast::IoFileRedirectKind::DuplicateInput) {
                        Redirect::Read { fd: *fd, target: target_word }
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
    fn spaced_double_parens_are_subshells_not_arithmetic() {
        for src in ["( (echo hi) )", "( ( echo hi ) )", "((echo hi) )", "( (echo hi))"] {
            let l = parse(src).unwrap_or_default();
            let subshell_body =
                l.pipelines.iter().flat_map(|p| &p.stages).any(|s| matches!(s, Stage::Group { subshell: true, body, .. } if !body.pipelines.is_empty()));
            assert!(subshell_body, "{src:?} was read as arithmetic");
        }
        for src in ["((1 + 2))", "(( x = 1 ))", "((  i++  ))"] {
            let l = parse(src).unwrap_or_default();
            let unsupported = l.pipelines.iter().flat_map(|p| &p.stages).any(|s| matches!(s, Stage::Unsupported { .. }));
            assert!(!unsupported, "{src:?} is real arithmetic");
        }
    }

    #[test]
    fn unclosed_paren_runs_are_refused_before_parsing() {
        let src = format!("{}x", "( ".repeat(32));
        assert!(matches!(parse(&src), Err(ParseFailure::Syntax(_))));
        let quoted = format!("{}x '{}'", "( ".repeat(32), ")".repeat(32));
        assert!(matches!(parse(&quoted), Err(ParseFailure::Syntax(_))));
        assert!(parse(&format!("{}x{}", "( ".repeat(32), " )".repeat(32))).is_ok());
    }

    #[test]
    fn parens_in_comments_and_heredoc_bodies_are_not_an_unclosed_run() {
        // 40 `(` — a run brush-parser takes over 20 s on — as a comment or a
        // heredoc body: the parser reads it as text, so it parses (the time it
        // takes is bounded in tests/it/worst_cases.rs).
        let run = "( ".repeat(40);
        assert!(parse(&format!("echo hi # {run}")).is_ok());
        assert!(parse(&format!("# {run}\nls; ls")).is_ok());
        assert!(parse(&format!("cat <<'EOF' > notes.txt\n{run}\nEOF\nls")).is_ok());
        assert!(parse(&format!("cat <<-EOF; ls\n\t{run}\n\tEOF")).is_ok());
        // Not a comment: `#` inside a word or after an escaped blank; not a body:
        // a heredoc that never ends, or `<<` in a source with arithmetic.
        for src in [
            format!("echo a#{run}"),
            format!("echo \\ #{run}"),
            format!("cat <<EOF\n{run}"),
            format!("echo $((1<<2))\n{run}\n2"),
            format!("cat <<EOF # x\n{run}\nEO"),
        ] {
            assert!(matches!(parse(&src), Err(ParseFailure::Syntax(_))), "{src}");
        }
    }

    #[test]
    fn unclosed_double_paren_runs_are_refused_before_parsing() {
        let src = format!("{}x", "((".repeat(16));
        assert_eq!(parse(&src).err(), Some(ParseFailure::TooDeep));
        assert!(parse(&"echo $((1+2)); ".repeat(8)).is_ok());
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let src = "$(".repeat(10_000);
        assert_eq!(parse(&src).err(), Some(ParseFailure::TooDeep));
    }

    #[test]
    fn quoted_closers_cannot_hide_nesting() {
        // A balance count would see `{ : '}'` as depth 0 and let 3,000 levels
        // reach the parser's recursion (a stack-overflow abort before this fix).
        let src = format!("{}ls;{}", "{ : '}' ; ".repeat(3000), " }".repeat(3000));
        assert_eq!(parse(&src).err(), Some(ParseFailure::TooDeep));
        let src = format!("{}ls{}", "if true; then ".repeat(3000), "; fi".repeat(3000));
        assert_eq!(parse(&src).err(), Some(ParseFailure::TooDeep));
    }

    #[test]
    fn heredoc_tags_starting_with_an_expansion_are_refused_unparsed() {
        // Each of these made brush-parser's tokenizer allocate without bound.
        for src in ["<<$(  ${", "<<-$(  ${", "cat <<`x` ${", "<<E,K$(  ${^\\oc>( ${", "cat << $E"] {
            assert!(matches!(parse(src), Err(ParseFailure::Syntax(_))), "{src:?}");
        }
        assert!(parse("cat <<EOF\nx\nEOF").is_ok());
        assert!(parse("cat <<<$x").is_ok());
    }

    #[test]
    fn a_parser_panic_is_a_parse_failure() {
        assert!(matches!(parse("2222222222222<&222222;o"), Err(ParseFailure::Syntax(_))));
    }

    #[test]
    fn many_flat_openers_parse_on_the_slow_path() {
        let src = vec!["{ ls; }"; 500].join("; ");
        assert_eq!(parse(&src).map(|l| l.pipelines.len()).ok(), Some(500));
        assert_eq!(openers("if a; then b; fi; for x in y; do z; done; echo $(q) `r` [s]"), 6);
        assert_eq!(openers("thenx redo casey"), 0);
    }
}
