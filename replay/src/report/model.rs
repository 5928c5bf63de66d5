//! The report model: everything a reader sees, already sorted (by corpus, then id)
//! and free of timestamps and absolute paths, so renderings are deterministic.

use serde::Serialize;

use crate::caps::CapUse;
use crate::checks::Failure;
use crate::corpus::Kind;
use crate::declare::Move;
use crate::diff::RowResult;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Short base id (or `against`), and short head id (or `worktree` when dirty).
    pub base: String,
    pub head: String,
    /// Which resolution rule picked the base.
    pub base_rule: String,
    /// Plain sentences: base predates protocol v1, trees equal, imported history, …
    pub notes: Vec<String>,
    pub corpora: Vec<Kind>,
    /// False when the base could not be replayed (the diff was skipped).
    pub diffed: bool,
    pub rows: Vec<RowResult>,
    pub caps: Vec<CapUse>,
    pub failures: Vec<Failure>,
    /// Pinned moves without a declaration (what `accept` would declare).
    pub pending: Vec<Move>,
    /// The corpus kinds' own sections (peers' agreement, sessions' friction), in
    /// kind order, as Markdown.
    pub sections: Vec<String>,
    /// Rule coverage by head's verdicts (full replays only; `cargo xtask coverage` gates it).
    pub coverage: Option<crate::coverage::Coverage>,
}

impl Report {
    /// `reports/<base>..<head>`, relative to the project root.
    pub fn dir_name(&self) -> String {
        format!("{}..{}", self.base, self.head)
    }
    pub fn sort(&mut self) {
        self.rows.sort_by(|a, b| (a.corpus, &a.id).cmp(&(b.corpus, &b.id)));
        self.failures.sort_by(|a, b| (a.area, &a.row, &a.message).cmp(&(b.area, &b.row, &b.message)));
        self.pending.sort();
    }
    pub fn is_clean(&self) -> bool {
        self.failures.is_empty()
    }
}
