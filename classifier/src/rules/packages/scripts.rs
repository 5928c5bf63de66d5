//! The npm script lane (FEATURES.md §10): `npm|pnpm|yarn|bun run NAME`, `npm test`,
//! `npm start` … read `package.json` through the `FileSource`, and the script body
//! (with its `pre`/`post` hooks) is classified as shell run in the package directory.
//!
//! It does not run workspaces it cannot see (`--workspaces`, `pnpm -r`, `--filter`):
//! those are unresolved, so T3.

use crate::call::shell_quote;
use crate::call::{Arg, Invocation};
use crate::lanes::resolve;
use crate::rules::{Cx, FileText, Rule};
use crate::words;

/// ## What it matches
/// `npm run NAME` (also `npm test|start|stop|restart`, `pnpm NAME`, `yarn NAME`, `bun run NAME`) when
/// `package.json` or its `scripts.NAME` cannot be read: no file, invalid JSON, no such script, or a
/// workspace fan-out (`--workspaces`, `pnpm -r`, `--filter`) tiergate cannot follow.
/// ## Why this tier
/// The script could run anything; unseen is not safe.
pub static UNRESOLVED: Rule = Rule::t3("packages.npm.run-unresolved")
    .reason("runs a package.json script tiergate cannot read; check the script and ask the user")
    .matches(words!["npm run build", "npm test", "yarn deploy", "pnpm run lint", "npm run build --workspaces", "bun run dev"])
    .not_matches(words!["npm run", "npm ls", "npm run missing --if-present"]);

/// ## What it matches
/// A package.json script that was read and whose commands change nothing (or `--if-present` with no such script).
/// ## Why this tier
/// Informational: the script's strictest command decides; this rule only shows the lookup happened.
pub static SCRIPT_READ: Rule = Rule::t0("packages.npm.script-read")
    .reason("the package.json script was read and none of its commands changes anything")
    .matches(words!["npm run missing --if-present"])
    .not_matches(words!["npm run build"]);

/// ## What it matches
/// `npm run` / `yarn run` / `pnpm run` with no script name.
/// ## Why this tier
/// Lists the scripts; runs nothing.
pub static LIST: Rule = Rule::t0("packages.npm.run-list")
    .reason("lists package.json scripts only")
    .matches(words!["npm run", "pnpm run", "npm run-script"])
    .not_matches(words!["npm run build"]);

/// Where and how to look the script up.
pub(super) struct Lookup<'a> {
    /// `--prefix`/`-C`/`--dir`/`--cwd` (or an npm `--workspace` path), relative to the unit's cwd.
    pub dir: Option<&'a str>,
    /// Words passed to the script (`npm run test -- --watch`).
    pub extra: &'a [Arg],
    pub if_present: bool,
    /// Why the lookup cannot be followed (workspace fan-out), if it cannot.
    pub fan_out: Option<&'static str>,
    /// The package manager runs `pre`/`post` hooks.
    pub hooks: bool,
    /// npm's fallback when there is no `start` script.
    pub default_start: bool,
}

pub(super) fn run(inv: &Invocation, cx: &mut Cx<'_>, names: &[&str], how: &Lookup<'_>) {
    if let Some(why) = how.fan_out {
        cx.hit_because(&UNRESOLVED, format!("runs `{}` {why}; tiergate cannot read every package's script, so ask the user", names.join("/")));
        return;
    }
    let home = cx.home();
    let dir = match how.dir {
        Some(d) => resolve(d, inv.cwd.as_deref(), home.as_deref()),
        None => inv.cwd.clone(),
    };
    let text = match cx.read("package.json", dir.as_deref()) {
        FileText::Text(t) => t,
        // `--if-present` with no package.json at all runs nothing.
        FileText::Missing if how.if_present => return cx.hit_because(&SCRIPT_READ, "there is no package.json and --if-present runs nothing".to_owned()),
        FileText::Missing => return cx.hit_because(&UNRESOLVED, format!("runs script `{}` but there is no package.json here; ask the user", names[0])),
        FileText::Unusable(why) => {
            return cx.hit_because(&UNRESOLVED, format!("runs script `{}` but package.json cannot be read ({why}); ask the user", names[0]))
        }
    };
    let json: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return cx.hit_because(&UNRESOLVED, format!("package.json is not valid JSON ({e}); tiergate cannot see script `{}`", names[0])),
    };
    let scripts = json.get("scripts").and_then(|s| s.as_object());
    let script = |n: &str| scripts.and_then(|s| s.get(n)).and_then(|b| b.as_str()).map(str::to_owned);
    let before = cx.hits.len();
    for name in names {
        let body = match script(name) {
            Some(b) => b,
            // npm's documented default: no `start` script runs `node server.js`.
            None if *name == "start" && how.default_start => "node server.js".to_owned(),
            None if how.if_present => continue,
            None => return cx.hit_because(&UNRESOLVED, format!("package.json has no script `{name}`; ask the user")),
        };
        if how.hooks {
            if let Some(pre) = script(&format!("pre{name}")) {
                cx.shell(&pre, dir.as_deref());
            }
        }
        let mut full = body;
        for a in how.extra {
            full.push(' ');
            full.push_str(&shell_quote(&a.text));
        }
        cx.shell(&full, dir.as_deref());
        if how.hooks {
            if let Some(post) = script(&format!("post{name}")) {
                cx.shell(&post, dir.as_deref());
            }
        }
    }
    if cx.hits.len() == before {
        cx.hit(&SCRIPT_READ);
    }
}
