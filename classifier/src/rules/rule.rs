//! `Rule` (a named pattern with its tier, reason and examples), `Hit` and `Cx`.
//!
//! Families build hits against `Invocation`s through `Cx`; they never see parser
//! types and never compute allow/ask/deny (that is `verdict::decision_of`).

use crate::call::{Arg, Invocation};
use crate::protect::Protected;
use crate::verdict::{Span, Tier};
use crate::words::Words;

use super::Card;

/// A named rule. Ids are stable API (`git.push.force`); see `renamed.rs` for renames.
#[derive(Debug)]
pub struct Rule {
    pub id: &'static str,
    pub tier: Tier,
    pub blocked: bool,
    /// One line for the user: what matched and what to do instead.
    pub reason: &'static str,
    /// Commands whose verdict must carry this rule id, through the full `classify`.
    pub matches: Words,
    /// Commands whose verdict must not carry this rule id.
    pub not_matches: Words,
    /// A safer command to suggest instead (empty when none fits). It must itself
    /// classify lower than this rule; a test checks every one.
    pub suggest: &'static str,
    /// The verdict rests on a subcommand word the family does not model (`git.unknown`):
    /// evidence only when the program really runs (`fallback.proxy` does not run such a word).
    pub unmodelled_word: bool,
}

impl Rule {
    const fn new(id: &'static str, tier: Tier, blocked: bool) -> Rule {
        Rule { id, tier, blocked, reason: "", matches: crate::words![], not_matches: crate::words![], suggest: "", unmodelled_word: false }
    }
    pub const fn t0(id: &'static str) -> Rule {
        Rule::new(id, Tier::T0, false)
    }
    pub const fn t1(id: &'static str) -> Rule {
        Rule::new(id, Tier::T1, false)
    }
    pub const fn t2(id: &'static str) -> Rule {
        Rule::new(id, Tier::T2, false)
    }
    pub const fn t3(id: &'static str) -> Rule {
        Rule::new(id, Tier::T3, false)
    }
    /// Irreversible: denied, never approvable.
    pub const fn blocked(id: &'static str) -> Rule {
        Rule::new(id, Tier::T3, true)
    }
    pub const fn reason(self, reason: &'static str) -> Rule {
        Rule { reason, ..self }
    }
    pub const fn matches(self, matches: Words) -> Rule {
        Rule { matches, ..self }
    }
    pub const fn suggest(self, suggest: &'static str) -> Rule {
        Rule { suggest, ..self }
    }
    pub const fn not_matches(self, not_matches: Words) -> Rule {
        Rule { not_matches, ..self }
    }
    /// Marks a rule whose verdict rests on a subcommand word the family does not model.
    pub const fn unmodelled_word(self) -> Rule {
        Rule { unmodelled_word: true, ..self }
    }
}

/// One rule firing on one unit.
#[derive(Clone, Debug)]
pub struct Hit {
    pub rule: &'static Rule,
    /// Replaces the rule's reason when the family knows more (`'prod' namespace`).
    pub detail: Option<String>,
    pub span: Span,
}

impl Hit {
    pub fn tier(&self) -> Tier {
        self.rule.tier
    }
    pub fn reason(&self) -> &str {
        self.detail.as_deref().unwrap_or(self.rule.reason)
    }
}

/// Why a file the command line writes before a unit reads it is not read as it is on
/// disk (`FileText::Unusable`): what it will hold is the line's doing.
pub const WRITTEN_ON_LINE: &str = "this command writes it before running it, so what it will hold is not what is on disk now";

/// Result of reading a file through the `FileSource`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileText {
    Text(String),
    Missing,
    /// Unreadable, too large, or not text.
    Unusable(&'static str),
}

/// What the engine offers a family while it classifies one unit.
pub trait Engine {
    /// Classify shell source that this unit will execute (`bash -c`, `eval`, a heredoc).
    fn shell(&mut self, src: &str, cwd: Option<&str>) -> Vec<Hit>;
    /// Classify an argv this unit will execute (`xargs rm`, `find -exec rm {} ;`).
    fn argv(&mut self, args: &[Arg], cwd: Option<&str>) -> Vec<Hit>;
    /// Classify an argv `parent` executes as its child, which inherits `parent`'s
    /// input and working directory (`uv run python <<EOF`: the interpreter reads the
    /// heredoc, as a wrapper's target does).
    fn argv_inheriting(&mut self, args: &[Arg], parent: &Invocation) -> Vec<Hit>;
    /// Read a file relative to `cwd` through the injected `FileSource`.
    fn read(&mut self, path: &str, cwd: Option<&str>) -> FileText;
    /// Every text `path` may hold when this unit runs, for a lane whose runner
    /// compiles the whole file before running any of it (Python): `read`'s answer,
    /// unless a unit before this one on the line wrote the file, in which case each
    /// state the line's writes can leave it in (`Eng::read_versions`).
    fn read_versions(&mut self, path: &str, cwd: Option<&str>) -> Vec<FileText> {
        vec![self.read(path, cwd)]
    }
    /// `FileSource::entry` for `path` relative to `cwd` (`Unknown` when it cannot be resolved).
    fn entry(&self, path: &str, cwd: Option<&str>) -> crate::lanes::Entry;
    /// The user's home directory, when the request said.
    fn home(&self) -> Option<&str>;
    /// The working tree: the request's own cwd, which `cd` inside the command does not move.
    fn root(&self) -> Option<&str>;
    /// The request's protected-path configuration (`crate::protect`).
    fn protected(&self) -> &Protected;
    /// `FileSource::canonical`: where a write to this absolute path really lands.
    fn canonical(&self, absolute_path: &str) -> Option<String>;
    /// One write that went through `vocab::writes::check_write`: its absolute path (None:
    /// computed at run time). Kept for later units on the line (`written_earlier`) unless
    /// it is a directory the unit creates (`dir`: `mkdir`, which holds nothing a later unit
    /// reads), and reported when the caller asked what the command writes
    /// (`classify_recording`).
    fn wrote(&mut self, path: Option<String>, dir: bool);
    /// True when a unit before this one on the command line wrote `path`, or a
    /// directory holding it (every write `wrote` reports is kept for this): what the
    /// file holds when this unit runs is what the line put there, not what is on disk.
    fn written_earlier(&self, path: &str, cwd: Option<&str>) -> bool;
}

/// Per-unit context handed to family `check` functions.
pub struct Cx<'e> {
    pub(crate) hits: Vec<Hit>,
    pub(crate) span: Span,
    engine: &'e mut dyn Engine,
    /// True while a family reports a directory it creates (`mkdir out`): the write
    /// policy applies as to any write, but a later unit on the line handed `out`
    /// is handed nothing the line put there (`Engine::wrote`'s `dir`).
    pub(crate) new_dir: bool,
}

impl<'e> Cx<'e> {
    pub(crate) fn new(engine: &'e mut dyn Engine, span: Span) -> Cx<'e> {
        Cx { hits: Vec::new(), span, engine, new_dir: false }
    }

    /// Record that `rule` fired on this unit.
    pub fn hit(&mut self, rule: &'static Rule) {
        self.hits.push(Hit { rule, detail: None, span: self.span });
    }

    /// Record a hit with a more specific reason.
    pub fn hit_because(&mut self, rule: &'static Rule, detail: String) {
        self.hits.push(Hit { rule, detail: Some(detail), span: self.span });
    }

    /// Classify shell source this unit executes; its hits count for this unit.
    pub fn shell(&mut self, src: &str, cwd: Option<&str>) {
        let hits = self.engine.shell(src, cwd);
        self.hits.extend(hits);
    }

    /// Classify an argv this unit executes; its hits count for this unit.
    pub fn argv(&mut self, args: &[Arg], cwd: Option<&str>) {
        let hits = self.engine.argv(args, cwd);
        self.hits.extend(hits);
    }

    /// Classify an argv `parent` executes as its child, with `parent`'s input and
    /// working directory (a runner's: `uv run python - <<EOF`); its hits count here.
    pub fn argv_inheriting(&mut self, args: &[Arg], parent: &Invocation) {
        let hits = self.engine.argv_inheriting(args, parent);
        self.hits.extend(hits);
    }

    /// Read a file (script, package.json, Makefile) relative to `cwd`.
    pub fn read(&mut self, path: &str, cwd: Option<&str>) -> FileText {
        self.engine.read(path, cwd)
    }

    /// `Engine::read_versions`: every text a file the line may have written can hold.
    pub fn read_versions(&mut self, path: &str, cwd: Option<&str>) -> Vec<FileText> {
        self.engine.read_versions(path, cwd)
    }

    /// Whether anything is at `path` (relative to `cwd`); `None` when the file
    /// source cannot tell or the path cannot be resolved.
    pub fn exists(&self, path: &str, cwd: Option<&str>) -> Option<bool> {
        self.engine.entry(path, cwd).exists()
    }

    /// What is at `path` (relative to `cwd`): missing, a file, a directory,
    /// something else, or unknown (`FileSource::entry`).
    pub fn entry(&self, path: &str, cwd: Option<&str>) -> crate::lanes::Entry {
        self.engine.entry(path, cwd)
    }

    /// The user's home directory, when known.
    pub fn home(&self) -> Option<String> {
        self.engine.home().map(str::to_owned)
    }

    /// The working tree root (the request's cwd), when known.
    pub fn root(&self) -> Option<String> {
        self.engine.root().map(str::to_owned)
    }

    /// `home`, borrowed (for checks that record no hit while they hold it).
    pub(crate) fn home_str(&self) -> Option<&str> {
        self.engine.home()
    }

    /// `root`, borrowed.
    pub(crate) fn root_str(&self) -> Option<&str> {
        self.engine.root()
    }

    /// The request's protected paths; `rules::paths::check_write` asks it for every write.
    pub fn protected(&self) -> &Protected {
        self.engine.protected()
    }

    /// Where a write to this absolute path really lands (symlinks resolved), when the file source knows.
    pub fn canonical(&self, absolute_path: &str) -> Option<String> {
        self.engine.canonical(absolute_path)
    }

    /// True when a unit before this one on the command line wrote `path` (`Engine::written_earlier`).
    pub fn written_earlier(&self, path: &str, cwd: Option<&str>) -> bool {
        self.engine.written_earlier(path, cwd)
    }

    /// When the family found nothing on this unit, judges it as the engine judges a
    /// program no family models (the unowned pass: the verb scan, implicit wrappers),
    /// so owning a program never loosens its verdict. For families that model some
    /// of a program's forms.
    pub fn or_unowned(&mut self, inv: &Invocation) {
        if self.hits.is_empty() {
            self.unowned(inv);
        }
    }

    /// Judges `inv` as the engine judges a program no family models (whatever this unit found so far).
    pub fn unowned(&mut self, inv: &Invocation) {
        crate::rules::fallback::check_unowned(inv, self);
    }

    /// A session on another machine that `what` opens (`adb shell`), running the
    /// command `words` form: the one model of a command run elsewhere, beside
    /// `ssh` in the shell family (`shell::remote_session`).
    pub fn remote(&mut self, what: Option<&str>, words: &[Arg]) {
        crate::rules::shell::remote_session(self, what, words);
    }

    /// A command line run on another machine by a session the family already
    /// judged (`gcloud compute ssh … --command CMD`): classified there, with no
    /// working directory (the other side's paths are not the tree).
    pub fn remote_line(&mut self, line: &str) {
        self.shell(line, None);
    }

    /// Code in `lang` this unit runs, found by a family that does not analyse the
    /// language (PowerShell reached through `cmd`'s pipeline cmdlets): the family that
    /// does (interp) judges it, as if given to the interpreter inline.
    pub fn code(&mut self, inv: &Invocation, lang: crate::lanes::scripts::Lang, code: &[Arg]) {
        crate::rules::interp::inline(inv, self, lang, code);
    }

    /// SQL this unit runs, found inside code of another language (Python's
    /// `cursor.execute("…")`): the database family judges its statements.
    pub fn sql(&mut self, text: &str) {
        crate::rules::db::classify_sql(self, crate::rules::db::Dialect::Generic, text);
    }

    /// Reports one write (see `Engine::wrote`).
    pub(crate) fn wrote(&mut self, path: Option<String>) {
        self.engine.wrote(path, self.new_dir);
    }

    /// The hits `f` finds on this unit, apart from this context's, with no write
    /// recorded for later units (`Engine::wrote`): the help pass asks a program's
    /// check what a help invocation would be without it, and keeps the answer only
    /// when it is blocked.
    pub(crate) fn trial(&mut self, f: impl FnOnce(&mut Cx<'_>)) -> Vec<Hit> {
        let mut unrecorded = Unrecorded(&mut *self.engine);
        let mut trial = Cx::new(&mut unrecorded, self.span);
        f(&mut trial);
        trial.hits
    }

    /// True once any hit on this unit is at least `tier` (or blocked).
    pub fn reached(&self, tier: Tier) -> bool {
        self.hits.iter().any(|h| h.rule.blocked || h.rule.tier >= tier)
    }
}

/// The engine, minus the record of writes: what a trial check (`Cx::trial`) finds is
/// not what the unit does.
struct Unrecorded<'a>(&'a mut dyn Engine);

impl Engine for Unrecorded<'_> {
    fn shell(&mut self, src: &str, cwd: Option<&str>) -> Vec<Hit> {
        self.0.shell(src, cwd)
    }
    fn argv(&mut self, args: &[Arg], cwd: Option<&str>) -> Vec<Hit> {
        self.0.argv(args, cwd)
    }
    fn argv_inheriting(&mut self, args: &[Arg], parent: &Invocation) -> Vec<Hit> {
        self.0.argv_inheriting(args, parent)
    }
    fn read(&mut self, path: &str, cwd: Option<&str>) -> FileText {
        self.0.read(path, cwd)
    }
    fn read_versions(&mut self, path: &str, cwd: Option<&str>) -> Vec<FileText> {
        self.0.read_versions(path, cwd)
    }
    fn entry(&self, path: &str, cwd: Option<&str>) -> crate::lanes::Entry {
        self.0.entry(path, cwd)
    }
    fn home(&self) -> Option<&str> {
        self.0.home()
    }
    fn root(&self) -> Option<&str> {
        self.0.root()
    }
    fn protected(&self) -> &Protected {
        self.0.protected()
    }
    fn canonical(&self, absolute_path: &str) -> Option<String> {
        self.0.canonical(absolute_path)
    }
    fn wrote(&mut self, _path: Option<String>, _dir: bool) {}
    fn written_earlier(&self, path: &str, cwd: Option<&str>) -> bool {
        self.0.written_earlier(path, cwd)
    }
}

/// The function that checks one program's invocations.
pub type Check = fn(&Invocation, &mut Cx<'_>);

/// How a family runs a program's [`Check`]: its shared forms first (`--help`,
/// `--dry-run`), or whatever it does around every program.
pub type Enter = fn(&Invocation, &mut Cx<'_>, Check);

/// A family's entry: the programs it owns, each with its check, and its rules.
pub struct Family {
    /// Module name; every rule id in `rules` starts with `<name>.`.
    pub name: &'static str,
    /// The programs dispatched here (`git`, `kubectl`, …), one card per group read
    /// by one check. A family that lists none runs from the engine on every unit.
    pub cards: &'static [Card],
    /// Runs a program's check; [`Family::new`] calls it directly.
    pub enter: Enter,
    pub rules: &'static [&'static Rule],
    /// The rule the engine answers with when a card's reading asks for help
    /// (`Card::help`); `None` for a family whose cards honour no help word.
    pub help: Option<&'static Rule>,
}

impl Family {
    pub const fn new(name: &'static str, cards: &'static [Card], rules: &'static [&'static Rule]) -> Family {
        Family { name, cards, enter: |inv, cx, check| check(inv, cx), rules, help: None }
    }

    /// The same family, answering a help request on any of its cards with `rule`.
    pub const fn answers_help(self, rule: &'static Rule) -> Family {
        Family { help: Some(rule), ..self }
    }

    /// The same family with shared forms handled around every program's check.
    pub const fn entered_by(self, enter: Enter) -> Family {
        Family { enter, ..self }
    }

    /// Every program name this family has a card for (checked or not).
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.cards.iter().flat_map(|c| c.names.iter())
    }

    /// True when this family has a card for `program`.
    pub fn lists(&self, program: &str) -> bool {
        self.names().any(|p| p == program)
    }
}
