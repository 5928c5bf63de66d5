//! `helm` and `flux`: release changes, renders, lint, local chart authoring, repository
//! config, and flux's blocked `uninstall`.
//!
//! It does not read charts or values files.

use crate::call::args::split_option;
use crate::call::cli::{option_arg, split, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `helm list ls status get history show search version env`, `repo|plugin|dependency list` and `plugin verify`.
/// ## Why this tier
/// Reads releases, charts or helm's own config; changes nothing.
pub static HELM_READ: Rule = Rule::t0("kube.helm.read")
    .reason("reads releases or charts only")
    .matches(words![
        "helm list -A", "helm status my-release", "helm -n prod get values r", "helm show values bitnami/redis", "helm search repo nginx", "helm repo list",
        "helm",
    ])
    .not_matches(words!["helm install r ./chart"]);

/// ## What it matches
/// `helm lint`, `helm verify`: local chart checks.
/// ## Why this tier
/// Local validation.
pub static HELM_LINT: Rule = Rule::t1("kube.helm.lint")
    .reason("validates a chart locally")
    .matches(words!["helm lint", "helm lint ./chart"])
    .not_matches(words!["helm template ./chart"]);

/// ## What it matches
/// `helm template`, `helm diff …` (plugin), and `install|upgrade|uninstall|rollback --dry-run` (client or server).
/// ## Why this tier
/// Renders or previews a release without installing it.
pub static HELM_RENDER: Rule = Rule::t2("kube.helm.render")
    .reason("renders or previews a release without installing it")
    .matches(words![
        "helm template r ./chart", "helm install --dry-run release chart/", "helm upgrade --install r ./chart --dry-run", "helm diff upgrade r ./chart",
        "helm uninstall r --dry-run",
    ])
    .not_matches(words!["helm install r ./chart", "helm install r ./chart --dry-run=none"]);

/// ## What it matches
/// `helm create`, `pull`/`fetch`, `package`, `repo index`, `dependency list`: chart files in the tree.
/// ## Why this tier
/// Authoring is not mutation: these write chart files into the working tree only.
pub static HELM_LOCAL: Rule = Rule::t0("kube.helm.local")
    .reason("creates or fetches chart files in the working tree only")
    .matches(words!["helm create mychart", "helm pull bitnami/redis --untar", "helm package ./chart", "helm repo index ./charts"])
    .not_matches(words!["helm push chart.tgz oci://r"]);

/// ## What it matches
/// `helm install upgrade uninstall delete rollback test`.
/// ## Why this tier
/// Changes what runs in the cluster (`helm uninstall` is approvable, FEATURES.md §13 "Not blocked").
pub static HELM_RELEASE: Rule = Rule::t3("kube.helm.release")
    .reason("changes a release in the cluster; ask the user, or preview with helm template / --dry-run")
    .matches(words![
        "helm install my-release chart/", "helm upgrade r ./chart -f values.yaml", "helm uninstall my-release -n prod", "helm rollback my-release 3",
        "helm install r ./chart --dry-run=none",
    ])
    .not_matches(words!["helm list", "helm install --dry-run r chart"]);

/// ## What it matches
/// helm's own configuration and registries: `repo add|update|remove`, `registry login|logout`, `push`,
/// `plugin install|update|uninstall`, `dependency update|build`, and unknown subcommands (plugins).
/// ## Why this tier
/// Changes helm's config, downloads code, or publishes charts.
pub static HELM_CONFIG: Rule = Rule::t3("kube.helm.config")
    .reason("changes helm's repositories, registries or plugins, or publishes a chart; ask the user")
    .matches(words![
        "helm repo add bitnami https://charts.bitnami.com/bitnami", "helm repo update", "helm plugin install https://x/y", "helm push chart.tgz oci://r",
        "helm dependency update",
    ])
    .not_matches(words!["helm repo list"]);

/// ## What it matches
/// `flux get logs tree stats events trace version export`.
/// ## Why this tier
/// Reads Flux objects; `flux export` prints YAML only.
pub static FLUX_READ: Rule = Rule::t0("kube.flux.read")
    .reason("reads Flux objects only")
    .matches(words!["flux get kustomizations -A", "flux logs --follow", "flux export source git --all", "flux"])
    .not_matches(words!["flux reconcile kustomization apps"]);

/// ## What it matches
/// `flux check`: pre-flight and health checks.
/// ## Why this tier
/// Validation that changes nothing.
pub static FLUX_CHECK: Rule = Rule::t1("kube.flux.check")
    .reason("checks the Flux installation; changes nothing")
    .matches(words!["flux check --pre", "flux check"])
    .not_matches(words!["flux install"]);

/// ## What it matches
/// `flux diff` and `flux build`, and `create … --export` (prints the object instead of applying it).
/// ## Why this tier
/// Renders or previews without applying.
pub static FLUX_RENDER: Rule = Rule::t2("kube.flux.render")
    .reason("renders or previews without applying")
    .matches(words![
        "flux diff kustomization apps --path ./clusters/prod", "flux build kustomization apps --path .", "flux create source git app --url=https://x --export",
    ])
    .not_matches(words!["flux create source git app --url=https://x"]);

/// ## What it matches
/// `flux reconcile suspend resume create delete bootstrap install push tag` and unknown subcommands.
/// ## Why this tier
/// Changes what Flux deploys to the cluster.
pub static FLUX_MUTATE: Rule = Rule::t3("kube.flux.mutate")
    .reason("changes what Flux deploys to the cluster; ask the user")
    .matches(words![
        "flux reconcile source git flux-system", "flux suspend kustomization apps", "flux delete kustomization app", "flux resume",
        "flux bootstrap github --owner=me",
    ])
    .not_matches(words!["flux get kustomizations"]);

/// ## What it matches
/// `flux uninstall`.
/// ## Why this tier
/// FEATURES.md §13 flux_critical: removes the GitOps controllers and their custom resources; not approvable.
pub static FLUX_UNINSTALL: Rule = Rule::blocked("kube.flux.uninstall")
    .reason("flux uninstall removes the GitOps controllers and their custom resources; suspend reconciliation instead, and ask the user to uninstall")
    .matches(words!["flux uninstall", "flux uninstall --silent", "flux uninstall --help", "flux -n flux-system uninstall"])
    .not_matches(words!["flux suspend kustomization apps"])
    .suggest("flux suspend kustomization --all");

/// ## What it matches
/// `--help`/`-h` (or `help`) on helm or flux, outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: help prints usage.
pub static HELP: Rule = Rule::t0("kube.helm.help")
    .reason("prints help only")
    .matches(words!["helm -h uninstall my-release", "helm uninstall --help", "flux --help delete kustomization app", "helm help install"])
    .not_matches(words!["flux uninstall --help"]);

static HELM_OPTS: Opts = Opts {
    values: words![
        "-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--set-string", "--set-file", "--set-json", "--repo", "-o",
        "--output", "--timeout", "--description", "--post-renderer", "--registry-config", "--repository-config", "--repository-cache", "--burst-limit",
        "--qps", "--kube-apiserver", "--kube-token", "--kube-as-user", "--kube-as-group", "--kube-ca-file", "--username", "--password", "-d", "--destination",
        "--max", "--revision", "--ca-file", "--cert-file", "--key-file",
        "--version", // not help: the chart's version (`helm install x repo/chart --version 1.2.3`)
    ],
    bools: words![],
    greedy: false,
};

static FLUX_OPTS: Opts = Opts {
    values: words![
        "-n", "--namespace", "--context", "--kubeconfig", "--timeout", "--path", "--url", "--branch", "--owner", "--repository", "--interval", "--source",
        "--kind", "--name",
    ],
    bools: words![],
    greedy: false,
};

/// `--dry-run` as helm honours it: bare or `=client|server|true`; `=none|false` is a real run.
fn helm_dry_run(flags: &[&str]) -> bool {
    flags.iter().any(|f| match split_option(f) {
        ("--dry-run", None) => true,
        ("--dry-run", Some(v)) => matches!(v, "client" | "server" | "true"),
        _ => false,
    })
}

pub(crate) fn helm(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &HELM_OPTS, HELP_WORDS);
    let first = argv.pos.first().copied();
    if argv.help || first == Some("help") {
        return cx.hit(&HELP);
    }
    let second = argv.pos.get(1).copied();
    match first {
        None | Some("list" | "ls" | "status" | "get" | "history" | "hist" | "show" | "inspect" | "search" | "version" | "env" | "completion") => {
            cx.hit(&HELM_READ)
        }
        Some("lint" | "verify") => cx.hit(&HELM_LINT),
        Some("template" | "diff") => cx.hit(&HELM_RENDER),
        Some("create" | "pull" | "fetch" | "package") => {
            // `pull -d DIR` / `package -d DIR` write where they are told.
            if let Some(dest) = option_arg(&inv.args, words!["-d", "--destination", "--untardir"]) {
                writes::check_write(cx, &dest, inv.cwd.as_deref());
            }
            cx.hit(&HELM_LOCAL)
        }
        Some("install" | "upgrade" | "uninstall" | "delete" | "del" | "un" | "rollback" | "test") => {
            // helm honours --dry-run on install, upgrade, uninstall and rollback (not test).
            if first != Some("test") && helm_dry_run(&argv.flags) {
                cx.hit(&HELM_RENDER)
            } else {
                cx.hit(&HELM_RELEASE)
            }
        }
        Some("repo" | "plugin" | "dependency" | "dep" | "registry") => match second {
            Some("list" | "ls") | None => cx.hit(&HELM_READ),
            // `plugin verify PATH` checks a plugin's signature and provenance.
            Some("verify") if first == Some("plugin") => cx.hit(&HELM_READ),
            Some("index") => cx.hit(&HELM_LOCAL),
            Some(_) => cx.hit(&HELM_CONFIG),
        },
        Some(_) => cx.hit(&HELM_CONFIG),
    }
}

pub(crate) fn flux(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &FLUX_OPTS, HELP_WORDS);
    let first = argv.pos.first().copied();
    // The floor first: `--help` never lowers it.
    if first == Some("uninstall") {
        return cx.hit(&FLUX_UNINSTALL);
    }
    if argv.help || first == Some("help") {
        return cx.hit(&HELP);
    }
    match first {
        None | Some("get" | "logs" | "tree" | "stats" | "events" | "trace" | "version" | "export" | "completion" | "debug") => cx.hit(&FLUX_READ),
        Some("check") => cx.hit(&FLUX_CHECK),
        Some("diff" | "build") => cx.hit(&FLUX_RENDER),
        Some("create" | "install") if argv.has("--export") => cx.hit(&FLUX_RENDER),
        Some(_) => cx.hit(&FLUX_MUTATE),
    }
}
