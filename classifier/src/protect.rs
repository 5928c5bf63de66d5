//! The protect policy: the one answer to "may the agent write this path?", asked by
//! Bash redirects, every family's write targets (`rules::paths::check_write`) and the
//! hook's file tools (Write, Edit, MultiEdit, NotebookEdit) alike.
//!
//! It is pure and lexical: a path is resolved against the cwd and home with `.` and
//! `..` folded, never through the file system. The hook canonicalises at its edge
//! (symlinks) and asks again with the real path; the library never reads the disk.
//!
//! ## What is protected (decided here, once)
//!
//! Every entry is **blocked** (the hook denies; never approvable), whichever tool writes.
//! Built-in names match case-insensitively (macOS's default file system folds case).
//!
//! | guard | what it matches | rule |
//! |---|---|---|
//! | Claude Code hooks | a path with a `hooks` component anywhere below a `.claude` component (`.claude/hooks/x.sh`, `.claude/agents/hooks/x.sh`), except a final `*.md` | `paths.claude-hooks` |
//! | Claude Code settings | a file named `settings*.json` anywhere below a `.claude` component | `paths.claude-settings` |
//! | Claude Code user config | a file named `.claude.json` (`~/.claude.json`: allowed tools, MCP servers) | `paths.claude-user-config` |
//! | tiergate config | a file named `tiergate.toml` or `.tiergate.toml`, and every config file the hook consulted (`with_file`) | `paths.tiergate-config` |
//! | tiergate approval store | a file named `tiergate.db` (and its `-wal`, `-shm`, `-journal`, the audit spool `-log` and `-log.fold-*`), and anything under the data directory (`with_dir`) | `paths.tiergate-store` |
//! | tiergate binary | the running `tiergate` executable (`with_file`) | `paths.tiergate-binary` |
//! | the user's `protected_paths` | a glob (`protect::glob`, globset's grammar: `*` `?` `[..]` `{a,b}` within a component, `**` across) matched against the path and each of its ancestors, so a directory protects what is under it | `paths.protected` |
//!
//! A user pattern starting `~/` is under the home directory, an absolute one is as
//! written, and a relative one is under the project root (the request's cwd), or
//! anywhere (`**/…`) when no root is known. A pattern the matcher rejects is an error
//! naming the entry and the file it came from, never a pattern that matches nothing.

use std::sync::Arc;

mod glob;

use glob::Glob;

use crate::lanes::resolve;
use crate::rules::{paths, Rule};

/// What a protected path guards; each maps to one blocked rule in `rules::paths`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    ClaudeHooks,
    ClaudeSettings,
    ClaudeUserConfig,
    TiergateConfig,
    TiergateStore,
    TiergateBinary,
    /// An entry of the user's `protected_paths`.
    User,
}

impl Guard {
    /// The rule a write to such a path hits.
    pub fn rule(self) -> &'static Rule {
        match self {
            Guard::ClaudeHooks => &paths::CLAUDE_HOOKS,
            Guard::ClaudeSettings => &paths::CLAUDE_SETTINGS,
            Guard::ClaudeUserConfig => &paths::CLAUDE_USER_CONFIG,
            Guard::TiergateConfig => &paths::TIERGATE_CONFIG,
            Guard::TiergateStore => &paths::TIERGATE_STORE,
            Guard::TiergateBinary => &paths::TIERGATE_BINARY,
            Guard::User => &paths::PROTECTED,
        }
    }
}

/// Why a path is protected: the rule, and what matched (for the user).
#[derive(Clone, Debug)]
pub struct Protection {
    pub guard: Guard,
    pub rule: &'static Rule,
    /// The absolute, lexically normalised path that was judged.
    pub path: String,
    /// What in the configuration matched it, e.g. `protected_paths entry "secrets/*.{pem,key}"
    /// in /home/u/.config/tiergate/tiergate.toml`; `None` for a built-in name (the rule's reason says it).
    pub matched: Option<String>,
}

impl PartialEq for Protection {
    fn eq(&self, o: &Protection) -> bool {
        (self.guard, self.rule.id, &self.path, &self.matched) == (o.guard, o.rule.id, &o.path, &o.matched)
    }
}

impl Eq for Protection {}

impl Protection {
    /// One line for the user: the rule's reason, the path as given, and what matched it.
    pub fn describe(&self, as_written: &str) -> String {
        match &self.matched {
            None => format!("{} (`{as_written}`)", self.rule.reason),
            Some(m) => format!("{} (`{as_written}`: {m})", self.rule.reason),
        }
    }
}

/// The protected-path configuration carried on a `Request`: the built-ins (always
/// on) plus tiergate's own files, its data directory and the user's patterns.
/// `Protected::default()` is the built-ins only. Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Protected {
    inner: Arc<Inner>,
}

#[derive(Clone, Debug, Default)]
struct Inner {
    files: Vec<(String, Guard)>,
    dirs: Vec<(String, Guard)>,
    /// (entry as written, where it came from, parsed), in the order of `set`.
    entries: Vec<(String, String, Glob)>,
}

impl Protected {
    /// The built-ins only (same as `default()`).
    pub fn builtin() -> Protected {
        Protected::default()
    }

    /// Adds the user's `protected_paths`: `(pattern, origin)` pairs, `origin` naming
    /// the config file for messages. `home` expands `~/`; `root` anchors relative
    /// patterns. `Err` names the first entry the matcher rejects and its file.
    pub fn with_patterns<'a>(self, entries: impl IntoIterator<Item = (&'a str, &'a str)>, home: Option<&str>, root: Option<&str>) -> Result<Protected, String> {
        let mut inner = (*self.inner).clone();
        for (pattern, origin) in entries {
            let glob = compile(pattern, origin, home, root)?;
            inner.entries.push((pattern.to_owned(), origin.to_owned(), glob));
        }
        Ok(Protected { inner: Arc::new(inner) })
    }

    /// Protects one exact file (a config file in use, the binary), given absolute.
    pub fn with_file(mut self, path: &str, guard: Guard) -> Protected {
        if let Some(p) = resolve(path, None, None) {
            Arc::make_mut(&mut self.inner).files.push((p, guard));
        }
        self
    }

    /// Protects a directory and everything under it (the data directory), given absolute.
    pub fn with_dir(mut self, path: &str, guard: Guard) -> Protected {
        if let Some(p) = resolve(path, None, None).filter(|p| p != "/") {
            Arc::make_mut(&mut self.inner).dirs.push((p, guard));
        }
        self
    }

    /// For a write of unknown names somewhere under `dir` (an archive extracted
    /// into it): `Some` when a protected path could be among them, i.e. `dir` lies
    /// inside a `.claude` directory (any file there may be a hook or settings), or a
    /// protected file, directory or pattern could match below it. The caller decides
    /// the tier (`check` is for known paths; this one can only over-approximate).
    pub fn may_hold(&self, dir: &str) -> Option<Protection> {
        let dir = resolve(dir, Some("/"), None)?;
        if let Some(p) = self.check(&dir) {
            return Some(p);
        }
        let hit = |guard: Guard, matched: Option<String>| Some(Protection { guard, rule: guard.rule(), path: dir.clone(), matched });
        if dir.split('/').any(|c| c.eq_ignore_ascii_case(".claude")) {
            return hit(Guard::ClaudeHooks, None);
        }
        for (f, guard) in self.inner.files.iter().chain(&self.inner.dirs) {
            if under(f, &dir) {
                return hit(*guard, Some(format!("{f} is under it")));
            }
        }
        for (entry, origin, glob) in &self.inner.entries {
            let g = glob.glob();
            let lit = &g[..g.find(['*', '?', '[', '{', '\\']).unwrap_or(g.len())];
            let root = if lit.len() == g.len() { lit } else { &lit[..lit.rfind('/').unwrap_or(0)] };
            if under(root, &dir) || under(&dir, root) || root.is_empty() {
                return hit(Guard::User, Some(format!("protected_paths entry {entry:?} in {origin} may match below it")));
            }
        }
        None
    }

    /// The directories added with `with_dir` for `guard`.
    pub fn dirs(&self, guard: Guard) -> impl Iterator<Item = &str> {
        self.inner.dirs.iter().filter(move |(_, g)| *g == guard).map(|(d, _)| d.as_str())
    }

    /// Resolves `path` lexically (against `cwd`, `~` against `home`) and judges it.
    /// A relative path with no cwd is judged as if under an unknown directory, so the
    /// name-based built-ins and relative user patterns still apply.
    pub fn check_path(&self, path: &str, cwd: Option<&str>, home: Option<&str>) -> Option<Protection> {
        let abs = resolve(path, cwd, home).or_else(|| resolve(path, Some("/__unknown__"), Some("/__unknown_home__")))?;
        self.check(&abs)
    }

    /// Judges an absolute path (`.` and `..` are folded first). `None`: not protected.
    pub fn check(&self, abs: &str) -> Option<Protection> {
        self.check_resolved(&resolve(abs, Some("/"), None)?)
    }

    /// `check` of a path `lanes::resolve` already gave (absolute, `.` and `..`
    /// folded, which resolving again leaves as it is).
    pub(crate) fn check_resolved(&self, abs: &str) -> Option<Protection> {
        let hit = |guard: Guard, matched: Option<String>| Some(Protection { guard, rule: guard.rule(), path: abs.to_owned(), matched });
        if let Some(guard) = builtin(abs) {
            return hit(guard, None);
        }
        for (f, guard) in &self.inner.files {
            if *f == abs {
                return hit(*guard, Some(format!("{abs} is a file this tiergate uses")));
            }
        }
        for (d, guard) in &self.inner.dirs {
            if under(abs, d) {
                return hit(*guard, Some(format!("inside tiergate's data directory {d}")));
            }
        }
        // Each pattern turns away, on its literal prefix, a path (or ancestor) it cannot match.
        if !self.inner.entries.is_empty() {
            let mut p = abs;
            loop {
                if let Some((entry, origin, _)) = self.inner.entries.iter().find(|(_, _, g)| g.is_match(p)) {
                    return hit(Guard::User, Some(format!("matches protected_paths entry {entry:?} in {origin}")));
                }
                match p.rfind('/') {
                    Some(0) | None => break,
                    Some(i) => p = &p[..i],
                }
            }
        }
        None
    }
}

fn under(path: &str, root: &str) -> bool {
    path == root || path.strip_prefix(root).is_some_and(|r| r.starts_with('/'))
}

/// The built-in table (see the module docs), on an absolute normalised path.
fn builtin(abs: &str) -> Option<Guard> {
    // Asked for every path-like word of every command (issue 14), so it compares in
    // place, ignoring ASCII case, instead of lowercasing each component.
    // Every built-in name holds `claude` or `tiergate`: most paths are out on one scan.
    let holds = |word: &[u8]| abs.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
    if !holds(b"claude") && !holds(b"tiergate") {
        return None;
    }
    builtin_by_name(abs)
}

/// `builtin` without its first scan.
fn builtin_by_name(abs: &str) -> Option<Guard> {
    let comps = || abs.split('/').filter(|c| !c.is_empty());
    let name = comps().next_back()?;
    let is = |c: &str, lit: &str| c.eq_ignore_ascii_case(lit);
    if is(name, ".claude.json") {
        return Some(Guard::ClaudeUserConfig);
    }
    if is(name, "tiergate.toml") || is(name, ".tiergate.toml") {
        return Some(Guard::TiergateConfig);
    }
    if name.get(..11).is_some_and(|p| is(p, "tiergate.db")) {
        // `-log` is the hook's audit spool, `-log.fold-*` a spool being folded in.
        let rest = name[11..].to_ascii_lowercase();
        if matches!(rest.as_str(), "" | "-wal" | "-shm" | "-journal" | "-log") || rest.starts_with("-log.fold-") {
            return Some(Guard::TiergateStore);
        }
    }
    let mut after = comps().skip_while(|c| !is(c, ".claude"));
    after.next()?;
    let below: Vec<&str> = after.collect();
    let ends = |suffix: &str| name.len().checked_sub(suffix.len()).and_then(|i| name.get(i..)).is_some_and(|t| is(t, suffix));
    if !below.is_empty() && name.get(..8).is_some_and(|p| is(p, "settings")) && ends(".json") {
        return Some(Guard::ClaudeSettings);
    }
    if below.iter().any(|c| is(c, "hooks")) && !ends(".md") {
        return Some(Guard::ClaudeHooks);
    }
    None
}

/// Anchors and compiles one user pattern; `Err` names the entry and its file.
fn compile(pattern: &str, origin: &str, home: Option<&str>, root: Option<&str>) -> Result<Glob, String> {
    let bad = |why: String| format!("protected_paths entry {pattern:?} in {origin}: {why}");
    let p = pattern.trim();
    if p.is_empty() {
        return Err(bad("empty pattern".into()));
    }
    let p = p.trim_end_matches('/');
    let anchored = if p == "~" || p.starts_with("~/") {
        let h = home.ok_or_else(|| bad("starts with ~ but the home directory is unknown".into()))?;
        format!("{}{}", h.trim_end_matches('/'), &p[1..])
    } else if p.starts_with('/') || p.is_empty() {
        if p.is_empty() {
            "/".to_owned()
        } else {
            p.to_owned()
        }
    } else {
        match root {
            Some(r) => format!("{}/{}", r.trim_end_matches('/'), p.trim_start_matches("./")),
            None => format!("**/{}", p.trim_start_matches("./")),
        }
    };
    // Fold `.`/`..` in the literal part the way paths are folded, when the pattern has no glob syntax there.
    let anchored = fold_dots(&anchored);
    Glob::new(&anchored).map_err(bad)
}

/// `/w/./a/../b` → `/w/b`, component by component (glob components are left alone).
fn fold_dots(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "." => {}
            ".." if out.last().is_some_and(|l| !l.is_empty() && *l != "**") => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    let s = out.join("/");
    if s.is_empty() {
        "/".to_owned()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(p: &Protected, path: &str) -> Option<Guard> {
        p.check(path).map(|x| x.guard)
    }

    #[test]
    fn builtins() {
        let p = Protected::builtin();
        assert_eq!(guard(&p, "/w/.claude/settings.json"), Some(Guard::ClaudeSettings));
        assert_eq!(guard(&p, "/w/.claude/x/settings-foo.json"), Some(Guard::ClaudeSettings));
        assert_eq!(guard(&p, "/w/.Claude/Hooks/pre.py"), Some(Guard::ClaudeHooks));
        assert_eq!(guard(&p, "/w/.claude/agents/hooks/x.sh"), Some(Guard::ClaudeHooks));
        assert_eq!(guard(&p, "/w/.claude/hooks"), Some(Guard::ClaudeHooks));
        assert_eq!(guard(&p, "/w/a/../.claude/hooks/x.sh"), Some(Guard::ClaudeHooks));
        assert_eq!(guard(&p, "/home/u/.claude.json"), Some(Guard::ClaudeUserConfig));
        assert_eq!(guard(&p, "/w/.tiergate.toml"), Some(Guard::TiergateConfig));
        assert_eq!(guard(&p, "/x/tiergate.db-wal"), Some(Guard::TiergateStore));
        assert_eq!(guard(&p, "/x/tiergate.db-log"), Some(Guard::TiergateStore));
        assert_eq!(guard(&p, "/x/tiergate.db-log.fold-123"), Some(Guard::TiergateStore));
        assert_eq!(guard(&p, "/w/.claude/hooks/README.md"), None);
        assert_eq!(guard(&p, "/w/.claude/agents/x.md"), None);
        assert_eq!(guard(&p, "/w/.claude"), None);
        assert_eq!(guard(&p, "/w/src/settings.json"), None);
        assert_eq!(guard(&p, "/w/hooks/x.sh"), None);
        assert_eq!(guard(&p, "/w/tiergate.db.bak"), None);
    }

    proptest::proptest! {
        /// The first scan of `builtin` only ever turns away paths the table would not match.
        #[test]
        fn the_builtin_prefilter_turns_away_no_protected_path(
            parts in proptest::collection::vec(proptest::sample::select(PARTS), 0..6),
        ) {
            let path = format!("/{}", parts.join("/"));
            proptest::prop_assert_eq!(builtin(&path), builtin_by_name(&path), "{}", path);
        }
    }

    const PARTS: &[&str] = &[
        ".claude", ".CLAUDE", "hooks", "Hooks", "agents", "settings.json", "settings-x.JSON", "x.md", ".claude.json", "tiergate.toml", ".Tiergate.toml",
        "tiergate.db", "TIERGATE.DB-wal", "tiergate.db-log.fold-1", "tiergate.db.bak", "claude", "x", "",
    ];

    #[test]
    fn user_patterns_use_a_real_glob() {
        let entries = [("secrets/*.{pem,key}", "t.toml"), ("~/vault", "t.toml"), ("/etc/x/**/k?.txt", "t.toml"), ("deploy/**/*.pem", "t.toml")];
        let p = Protected::builtin().with_patterns(entries, Some("/h"), Some("/w")).unwrap();
        for yes in ["/w/secrets/a.pem", "/w/secrets/b.KEY", "/h/vault", "/h/vault/x/y", "/etc/x/a/b/k1.txt", "/w/deploy/a/k.pem", "/w/deploy/k.pem"] {
            assert_eq!(guard(&p, yes), Some(Guard::User), "{yes}");
        }
        for no in ["/w/secrets/a.txt", "/w/secrets/sub/a.pem", "/h/vaultx", "/etc/x/k12.txt", "/w/deploy/a/k.txt", "/w/notes/a.pem"] {
            assert_eq!(guard(&p, no), None, "{no}");
        }
        let why = p.check("/w/secrets/a.pem").unwrap().describe("secrets/a.pem");
        assert!(why.contains("secrets/*.{pem,key}") && why.contains("t.toml"), "{why}");
    }

    #[test]
    fn a_bad_pattern_is_an_error_naming_it() {
        for bad in ["secrets/*.{pem,key", "a/[b", ""] {
            let e = Protected::builtin().with_patterns([(bad, "/c/tiergate.toml")], None, Some("/w")).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")) && e.contains("/c/tiergate.toml"), "{e}");
        }
    }

    #[test]
    fn what_a_directory_may_hold() {
        let p = Protected::builtin().with_patterns([("secrets/*.pem", "t")], None, Some("/w")).unwrap().with_dir("/d/tg", Guard::TiergateStore);
        let g = |d: &str| p.may_hold(d).map(|x| x.guard);
        assert_eq!(g("/w/.claude"), Some(Guard::ClaudeHooks));
        assert_eq!(g("/w/.claude/agents"), Some(Guard::ClaudeHooks));
        assert_eq!(g("/w/secrets"), Some(Guard::User));
        assert_eq!(g("/w"), Some(Guard::User));
        assert_eq!(g("/d"), Some(Guard::TiergateStore));
        assert_eq!(g("/w/notes"), None);
        assert_eq!(g("/w/secrets/sub"), Some(Guard::User), "below the pattern's root");
        assert_eq!(Protected::builtin().may_hold("/w"), None);
        // No root known: a relative pattern may match below any directory.
        let anywhere = Protected::builtin().with_patterns([("*.pem", "t")], None, None).unwrap();
        assert_eq!(anywhere.may_hold("/srv/app").map(|x| x.guard), Some(Guard::User));
    }

    #[test]
    fn files_and_dirs() {
        let p = Protected::builtin().with_file("/opt/bin/tiergate", Guard::TiergateBinary).with_dir("/data/tg/", Guard::TiergateStore);
        assert_eq!(guard(&p, "/opt/bin/tiergate"), Some(Guard::TiergateBinary));
        assert_eq!(guard(&p, "/data/tg/x"), Some(Guard::TiergateStore));
        assert_eq!(guard(&p, "/data/tgx"), None);
        assert_eq!(p.dirs(Guard::TiergateStore).collect::<Vec<_>>(), ["/data/tg"]);
        assert_eq!(p.check_path("../tg/a", Some("/data/x"), None).map(|x| x.guard), Some(Guard::TiergateStore));
    }
}
