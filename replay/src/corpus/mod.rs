//! Corpora: one module per kind (truth, history, curated, peers, sessions), each implementing
//! `CorpusKind` — how its rows load, what a row expects of head, which of its moves
//! a declaration must cover, whether its commands are private, and its own section
//! of the summary. Everything else in the bench (filters, runs, diff, caps, reports)
//! is the same for every kind and never matches on one.
//!
//! Adding a kind is one new file plus its registration here: a `Kind` variant and
//! name, a `Spec` variant for what its rows carry, and its `def` arm
//! (docs/architecture.md, "Corpus kinds"). Loaders never run anything; a kind's
//! checks are pure functions of a row and a verdict.

mod curated;
mod history;
pub mod peers;
pub mod probes;
pub mod sessions;
mod source;
mod table;
mod truth;

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use crate::checks::Failure;
use crate::declare::Move;
use crate::protocol::{Class, Verdict};
use crate::TruthEdit;

pub use curated::CuratedFamily;
pub use source::{AtCommit, Source, WorkTree};
pub use truth::{is_rule_id, TruthFamily};

/// The registered corpus kinds, in the order reports list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Truth,
    History,
    Curated,
    Peers,
    Sessions,
    Probes,
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::Truth, Kind::History, Kind::Curated, Kind::Peers, Kind::Sessions, Kind::Probes];
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Truth => "truth",
            Kind::History => "history",
            Kind::Curated => "curated",
            Kind::Peers => "peers",
            Kind::Sessions => "sessions",
            Kind::Probes => "probes",
        }
    }
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
    /// What this kind does: the one place a kind is dispatched.
    pub fn def(self) -> &'static dyn CorpusKind {
        match self {
            Kind::Truth => &truth::Truth,
            Kind::History => &history::History,
            Kind::Curated => &curated::Curated,
            Kind::Peers => &peers::Peers,
            Kind::Sessions => &sessions::Sessions,
            Kind::Probes => &probes::Probes,
        }
    }
}

/// What a row asks of the head, beyond being replayed; one variant per kind, read
/// only by that kind's module (and by tools that want one kind's fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `rule`: the rule that must decide the row, when the table names one.
    Truth {
        expect: Class,
        pinned: bool,
        family: TruthFamily,
        rule: Option<String>,
    },
    History,
    Curated {
        expect: Class,
        family: CuratedFamily,
    },
    /// Another guard's labelled case: which peer, what it decided, and tiergate's
    /// expectation (None: excluded, the reason in `Row::note`).
    Peer {
        peer: String,
        decision: String,
        expect: Option<peers::PeerExpect>,
    },
    /// One step of an agent's session: which agent run, which session, which step.
    Session {
        source: String,
        session: String,
        step: u32,
    },
    /// A table probe's row: what the base's dump expects (None: only head's dump
    /// probes it) and what head's dump expects (None: only the base's does).
    Probe {
        base: Option<probes::ProbeExpect>,
        head: Option<probes::ProbeExpect>,
    },
}

/// One corpus row. `cwd` is as written in the corpus (made absolute only when sent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    pub id: String,
    pub command: String,
    pub cwd: Option<String>,
    pub weight: u64,
    pub spec: Spec,
    /// Repository-relative file and 1-based line where the row starts.
    pub file: String,
    pub line: u64,
    pub note: String,
}

/// A row with its answers, for a kind's section: head's verdict (None when head
/// has no such row) and the base's (None when not replayed).
pub struct Answered<'a> {
    pub row: &'a Row,
    pub head: Option<&'a Verdict>,
    pub base: Option<&'a Verdict>,
}

/// A row as the base commit has it, with the base's verdict when the base was
/// replayed; None when the base has no such row.
pub type AtBase<'a> = Option<(&'a Row, Option<&'a Verdict>)>;

impl Row {
    /// The session this row is a step of, named uniquely across kinds
    /// (`sessions/mini-swe-agent/astropy__astropy-13033`), if its kind has sessions.
    pub fn session(&self) -> Option<String> {
        self.kind.def().session(self).map(|s| format!("{}/{s}", self.kind.as_str()))
    }
}

/// One kind of corpus. Implementations are unit structs in the kind's own file.
pub trait CorpusKind: Sync {
    /// Where the rows live, as a glob for messages (`corpus/truth/*.csv`).
    fn location(&self) -> &'static str;

    /// Reads this kind's rows from `src` (the work tree or a commit): every bad row
    /// is an error naming `file:line`. Ids need not be sorted; `load` checks they are
    /// unique and sorts.
    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>>;

    /// Head's answer to `row` against what the row expects: a policy failure, or
    /// None when it holds (or the kind expects nothing). Pure.
    fn check(&self, row: &Row, head: &Verdict) -> Option<Failure>;

    /// The moves of `row` between base and head that a declaration must cover
    /// (`pinned`) or may cover (an unpinned move then does not count against the
    /// `loosened` cap). `base` is the row as the base commit has it, with the base's
    /// verdict when the base was replayed. By default: a verdict move, unpinned.
    fn moves(&self, row: &Row, head: &Verdict, base: AtBase) -> Vec<Move> {
        verdict_move(row, head, base, false).into_iter().collect()
    }

    /// True when the rows come from the binaries the replay builds, not from files:
    /// `load` gives none, and the replay adds them after the Build step.
    fn rows_from_binary(&self) -> bool {
        false
    }

    /// True when the rows are someone's own commands: reports show them redacted.
    fn private(&self) -> bool {
        false
    }

    /// True when the rows are data written by others, one folder per source under
    /// `corpus/<kind>/`, each keeping its `LICENSE` and a `NOTICE` of what was taken
    /// and changed (`cargo xtask corpus --check` holds every folder to it).
    fn third_party(&self) -> bool {
        false
    }

    /// The session a row is a step of, unique within the kind, when rows of this
    /// kind replay in order through what earlier steps wrote (rows of one session
    /// sort in step order). Filters keep a session's earlier steps with a step, and
    /// shards keep a session whole.
    fn session<'r>(&self, _row: &'r Row) -> Option<&'r str> {
        None
    }

    /// What the corpus says about a row beside its command, shown in reports (a
    /// peer's label and tiergate's expectation).
    fn label(&self, _row: &Row) -> Option<String> {
        None
    }

    /// This kind's own section of `summary.md`, after the counts, from its rows as
    /// answered (head and base verdicts). Pure.
    fn section(&self, _rows: &[Answered]) -> Option<String> {
        None
    }

    /// The expectation `cargo xtask replay accept` would write for a row head
    /// answers otherwise; None for kinds without expectations.
    fn edit(&self, _row: &Row, _head: &Verdict, _base: AtBase) -> Option<TruthEdit> {
        None
    }
}

/// How a pinned truth row's undeclared move is named in its failure.
pub const PINNED: &str = "pinned row";

/// The verdict move of a row present and answered on both sides, if its class moved.
pub fn verdict_move(row: &Row, head: &Verdict, base: AtBase, pinned: bool) -> Option<Move> {
    let (_, Some(bv)) = base? else { return None };
    (!bv.is_error() && !head.is_error() && bv.class != head.class).then(|| Move {
        row: row.id.clone(),
        from: bv.class,
        to: head.class,
        kind: crate::declare::MoveKind::Verdict,
        pinned,
        at: format!("{}:{}", row.file, row.line),
        claim: PINNED,
    })
}

/// A loaded corpus: rows sorted by id.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub rows: Vec<Row>,
}

impl Corpus {
    pub fn by_id(&self) -> HashMap<&str, &Row> {
        self.rows.iter().map(|r| (r.id.as_str(), r)).collect()
    }
}

/// Loads one kind from `src`: its rows, ids unique (a duplicate names both places),
/// sorted by id. Every problem of every file is collected.
pub fn load(kind: Kind, src: &dyn Source) -> Result<Corpus, Vec<String>> {
    let mut rows = kind.def().load(src)?;
    let mut errors = Vec::new();
    let mut seen: HashMap<&str, (&str, u64)> = HashMap::new();
    for r in &rows {
        if let Some((f, l)) = seen.insert(&r.id, (&r.file, r.line)) {
            errors.push(format!("{}:{}: column id: duplicate id {:?} (first at {f}:{l})", r.file, r.line, r.id));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Corpus { rows })
}

/// Reads one kind from the work tree under `root`. Zero rows is an error: a corpus
/// that is empty hides gaps (a kind whose rows come from the binaries has none here).
pub fn load_worktree(root: &Path, kind: Kind) -> Result<Corpus, Vec<String>> {
    let corpus = load(kind, &WorkTree(root))?;
    if corpus.rows.is_empty() && !kind.def().rows_from_binary() {
        return Err(vec![format!("{}: matched no rows (a corpus that is empty hides gaps; add rows or pass --corpus without it)", kind.def().location())]);
    }
    Ok(corpus)
}

/// Parses one CSV file of a CSV kind (truth, history, curated); `file` is the
/// repository-relative label used in messages.
pub fn parse(kind: Kind, file: &str, input: impl Read) -> Result<Vec<Row>, Vec<String>> {
    match kind {
        Kind::Truth => table::parse(&truth::TABLE, file, input),
        Kind::History => table::parse(&history::TABLE, file, input),
        Kind::Curated => table::parse(&curated::TABLE, file, input),
        other => Err(vec![format!("{file}:1: the {} corpus is not a CSV table", other.as_str())]),
    }
}

/// A digest of every file under corpus/fixtures/ (paths and contents), sorted.
pub fn fixtures_digest(root: &Path) -> String {
    use sha2::{Digest, Sha256};
    // A symlink is hashed as where it points, never followed: fixtures hold links out
    // of the tree on purpose (`renames/elsewhere -> /tmp`), and following them read
    // all of /tmp into the digest, looping forever through any checkout kept there
    // (the mutants gate reached 21 GB) and missing the verdict cache whenever /tmp changed.
    let mut files = Vec::new();
    let mut stack = vec![root.join("corpus").join("fixtures")];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                _ => files.push(p),
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    for f in files {
        h.update(f.strip_prefix(root).unwrap_or(&f).to_string_lossy().as_bytes());
        h.update([0]);
        match std::fs::read_link(&f) {
            Ok(target) => {
                h.update(b"-> ");
                h.update(target.to_string_lossy().as_bytes());
            }
            Err(_) => h.update(std::fs::read(&f).unwrap_or_default()),
        }
        h.update([0]);
    }
    crate::build::hex(&h.finalize())[..16].to_owned()
}

#[cfg(test)]
mod tests {
    use super::fixtures_digest;

    #[test]
    fn a_fixture_symlink_is_hashed_as_its_target_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let fixtures = root.path().join("corpus/fixtures/renames");
        std::fs::create_dir_all(&fixtures).unwrap();
        std::fs::write(fixtures.join("notes.txt"), "a").unwrap();
        std::os::unix::fs::symlink(outside.path(), fixtures.join("elsewhere")).unwrap();
        // A cycle back into the tree, as a checkout under the link's target makes.
        std::os::unix::fs::symlink(root.path(), fixtures.join("loop")).unwrap();
        let before = fixtures_digest(root.path());
        std::fs::write(outside.path().join("big.bin"), "what another program left in /tmp").unwrap();
        assert_eq!(fixtures_digest(root.path()), before, "what lies behind a link is not the fixture's");
        std::fs::write(fixtures.join("notes.txt"), "b").unwrap();
        assert_ne!(fixtures_digest(root.path()), before, "a fixture's own file still counts");
    }
}
