//! The rule registry: every family, dispatch by program name, and the default for
//! programs no family owns (safe by elimination, only for a fully parsed literal).
//!
//! Families live one per module; this file only lists them.

mod rule;

pub mod agents;
pub mod cloud;
pub mod containers;
pub mod coreutils;
pub mod db;
mod engine;
pub mod exec;
pub mod fallback;
pub mod flow;
pub mod git;
pub mod http;
pub mod iac;
pub mod interp;
pub mod kube;
pub mod packages;
pub mod paths;
pub mod shell;
pub mod system;
pub mod tiergate;
pub mod tools;

pub use engine::PREFIXES as ENGINE_PREFIXES;
pub(crate) use engine::*;
pub use rule::{Cx, Engine, Family, FileText, Hit, Rule};

use crate::call::Invocation;

/// Every family, in dispatch order. A program belongs to exactly one family
/// (a registry test checks it).
pub static FAMILIES: &[&Family] = &[
    &git::FAMILY,
    &kube::FAMILY,
    &iac::FAMILY,
    &cloud::FAMILY,
    &containers::FAMILY,
    &packages::FAMILY,
    &db::FAMILY,
    &http::FAMILY,
    &interp::FAMILY,
    &coreutils::FAMILY,
    &system::FAMILY,
    &tiergate::FAMILY,
    &tools::FAMILY,
    &agents::FAMILY,
    &fallback::FAMILY,
    &exec::FAMILY,
    &paths::FAMILY,
    &shell::FAMILY,
    &flow::FAMILY,
    &engine::FAMILY,
];

/// Every rule of every family.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    FAMILIES.iter().flat_map(|f| f.rules.iter().copied())
}

/// The family that owns a program name, from a map built once per process (the
/// first family listing a name wins, as the dispatch order always did; a registry
/// test keeps every name in one family). The hook builds it on every start, so it
/// is sized up front and hashed with FNV-1a, not SipHash: the names are ours.
fn owner(program: &str) -> Option<&'static Family> {
    type Map = std::collections::HashMap<&'static str, &'static Family, std::hash::BuildHasherDefault<Fnv>>;
    static OWNERS: std::sync::OnceLock<Map> = std::sync::OnceLock::new();
    let map = OWNERS.get_or_init(|| {
        let n = FAMILIES.iter().map(|f| f.programs.len()).sum();
        let mut m = Map::with_capacity_and_hasher(n, Default::default());
        for f in FAMILIES {
            for p in f.programs {
                m.entry(*p).or_insert(*f);
            }
        }
        m
    });
    map.get(program).copied()
}

/// FNV-1a over the bytes: cheap for short program names.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// True when some family owns this program name.
pub fn owned(program: &str) -> bool {
    owner(program).is_some()
}

/// The rule with this id, if any (ids are unique; a registry test checks it).
pub fn find(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

/// Runs the family that owns `inv.program`, if any. Cross-cutting checks
/// (protected paths, redirect targets) run for every unit from the engine.
/// Returns whether a family (or the script lane) owned the program.
pub(crate) fn dispatch(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    // `./run.sh`, `scripts/x.py`, `/tmp/x/git`: a program path outside the installed
    // tool directories is a file to read, whatever its name claims to be.
    if interp::runs_as_script(&inv.program_path) {
        interp::direct_exec(inv, cx);
        return true;
    }
    if let Some(family) = owner(inv.program.as_str()) {
        (family.check)(inv, cx);
        return true;
    }
    fallback::check_unowned(inv, cx);
    false
}
