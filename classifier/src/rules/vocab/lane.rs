//! The verb-scan lane of the smaller CLIs of the `kube`, `iac` and `cloud`
//! families (minikube, pulumi, heroku, doctl …): split the argv by the CLI's options,
//! find the first command word with a kind (one that may be an undeclared option's value
//! does not decide over a stricter word after it), and fire the family's rule for that kind.
//!
//! It does not hold any blocked floor: callers check their floor before calling `run`.

use crate::call::args::Help;
use crate::call::cli::{asks, split, Argv, Opts};
use crate::call::Invocation;
use crate::rules::vocab::verbs::{kind_of, Kind, Table};
use crate::rules::{Cx, Rule};

crate::table! {
    /// Read words that are also command groups, whose next word is the action. Without the entry
    /// the read word decides (`supabase list push` is T0). Two probes: the paas lane skips `env`
    /// as a group of its own, and `pulumi config` is decided before the lane.
    GROUP_NOUNS = ["config", "env"];
    probe "supabase {} push" => T3, "cloud.paas.mutate";
    probe "pulumi {} set x" => T3, "iac.tool.mutate";
}

/// One CLI's words and options.
pub(crate) struct Spec {
    pub table: Table,
    pub opts: Opts,
    /// The CLI honours `--dry-run`, so a mutating verb with it is a simulation.
    pub dry_run: bool,
    /// The help words the CLI honours (`cli::HELP`).
    pub help: Help,
    /// What the bare command (no command word) does: `vercel` deploys, `kubectx` lists.
    pub bare: Kind,
    /// Action words are `noun-verb` (`linode-cli domains records-list`, `ibmcloud cr image-inspect`):
    /// when a word's leading part is no verb, its last part decides.
    pub noun_verb: bool,
}

/// The family rules a kind maps to.
pub(crate) struct Lane {
    pub read: &'static Rule,
    pub validate: &'static Rule,
    pub simulate: &'static Rule,
    pub mutate: &'static Rule,
    pub unknown: &'static Rule,
    pub help: &'static Rule,
}

impl Lane {
    fn rule(&self, kind: Kind) -> &'static Rule {
        match kind {
            Kind::Read => self.read,
            Kind::Validate => self.validate,
            Kind::Simulate => self.simulate,
            Kind::Mutate => self.mutate,
        }
    }
}

/// The first of the first six command words that has a kind. A word right after an option
/// the CLI's `Opts` do not declare may be that option's value (`skaffold -v info run`,
/// `argocd --loglevel info app sync x`): it decides only with the first word that cannot be a
/// value, whichever of them is stricter, so an undeclared value option never lowers the verb.
fn decisive<'a>(argv: &Argv<'a>, kind: impl Fn(&str) -> Option<Kind>) -> Option<(Kind, &'a str)> {
    let mut found: Option<(Kind, &'a str)> = None;
    for (i, w) in argv.pos.iter().enumerate().take(6) {
        let Some(k) = kind(w) else { continue };
        if found.is_none_or(|(f, _)| k > f) {
            found = Some((k, *w));
        }
        if !argv.after_undeclared.get(i).copied().unwrap_or(false) {
            break;
        }
    }
    found
}

/// Classify `inv` by its first command word. Returns the kind it settled on.
pub(crate) fn run(inv: &Invocation, cx: &mut Cx<'_>, spec: &Spec, lane: &Lane) -> Kind {
    let argv = split(&inv.args, &spec.opts, spec.help);
    if argv.help || asks(&inv.args, &spec.opts, Help::VERSION.without_operands()) {
        cx.hit(lane.help);
        return Kind::Read;
    }
    let prog = inv.program.as_str();
    let kind = |w: &str| {
        let k = kind_of(w, &spec.table);
        if spec.noun_verb {
            k.or_else(|| w.rsplit_once('-').and_then(|(_, last)| kind_of(last, &spec.table)))
        } else {
            k
        }
    };
    let found = decisive(&argv, kind);
    // A read word that names a command group: the verb after it decides
    // (`supabase config push`, `pulumi env set`; `heroku config` alone lists).
    let found = match found {
        Some((Kind::Read, group)) if GROUP_NOUNS.contains(group.to_ascii_lowercase().as_str()) => {
            let next = argv.pos.iter().skip_while(|p| **p != group).nth(1);
            next.and_then(|w| kind_of(w, &spec.table).map(|k| (k, *w))).or(found)
        }
        f => f,
    };
    match found {
        Some((Kind::Mutate, verb)) if spec.dry_run && argv.has("--dry-run") => {
            cx.hit_because(lane.simulate, format!("`{prog} {verb} --dry-run`: {}", lane.simulate.reason));
            Kind::Simulate
        }
        Some((kind, verb)) => {
            let rule = lane.rule(kind);
            cx.hit_because(rule, format!("`{prog} {verb}`: {}", rule.reason));
            kind
        }
        None if argv.pos.is_empty() => {
            let rule = lane.rule(spec.bare);
            cx.hit_because(rule, format!("bare `{prog}`: {}", rule.reason));
            spec.bare
        }
        // A command group alone (`heroku apps`, `fly machine`) lists or prints the group's usage.
        None if argv.pos.len() == 1 && spec.table.skip.contains(argv.pos[0]) => {
            cx.hit_because(lane.read, format!("`{prog} {}` alone lists or prints usage", argv.pos[0]));
            Kind::Read
        }
        // These CLIs act by default: an unknown command word is a change.
        None => {
            cx.hit_because(lane.unknown, format!("`{prog} {}`: {}", argv.pos.join(" "), lane.unknown.reason));
            Kind::Mutate
        }
    }
}

crate::tables![GROUP_NOUNS];
