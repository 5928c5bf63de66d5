//! The smaller Kubernetes CLIs: local clusters (kind minikube k3d), cluster
//! provisioning (eksctl, with its blocked `delete cluster`), delivery (argocd skaffold
//! tilt velero istioctl), context switchers (kubectx kubens), kustomize, k9s and
//! manifest linters. Each goes through the shared verb-scan lane with its own words.
//!
//! kubectl/oc and helm/flux live in their own files.

use crate::call::args::{ArgSpec, Args, Token};
use crate::call::cli::{split, Opts, HELP_WORDS};
use crate::call::{first_operand, Arg, Invocation};
use crate::rules::vocab::lane::{run, Lane, Spec};
use crate::rules::vocab::verbs::{Kind, Table};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// A read-only subcommand of a smaller Kubernetes CLI (`minikube status`, `eksctl get clusters`,
/// `argocd app get`, `velero backup get`, `kubectx` with no argument), and `kustomize build`.
/// ## Why this tier
/// Reads state or renders manifests; changes nothing.
pub static READ: Rule = Rule::t0("kube.tool.read")
    .reason("reads cluster or tool state only")
    .matches(words![
        "minikube status", "microk8s status", "eksctl get clusters", "argocd app get guestbook", "kustomize build overlays/prod", "kubectx", "k9s --readonly",
        "velero backup get", "kind get clusters", "minikube --alsologtostderr status",
    ])
    .not_matches(words!["minikube delete", "kubectx prod", "skaffold -v info run"]);

/// ## What it matches
/// Manifest linters and validators: `kubeconform kubeval kube-linter kube-score`, `istioctl analyze`.
/// ## Why this tier
/// Local validation.
pub static VALIDATE: Rule = Rule::t1("kube.tool.validate")
    .reason("validates manifests; changes nothing")
    .matches(words!["kubeconform -strict deploy.yaml", "kubeval deploy.yaml", "kube-linter lint .", "istioctl analyze"])
    .not_matches(words!["istioctl install"]);

/// ## What it matches
/// Previews: `argocd app diff`, `skaffold render`, `skaffold diagnose`.
/// ## Why this tier
/// Shows what would change without changing it.
pub static SIMULATE: Rule = Rule::t2("kube.tool.simulate")
    .reason("previews a change without applying it")
    .matches(words!["argocd app diff guestbook", "skaffold render"])
    .not_matches(words!["argocd app sync guestbook"]);

/// ## What it matches
/// A subcommand that changes a cluster or a local cluster: `minikube start|delete`, `kind create cluster`,
/// `eksctl create|scale|upgrade`, `argocd app sync|delete|set|rollback`, `skaffold dev|run|deploy`,
/// `tilt up|down`, `velero backup create|restore create`, `istioctl install|uninstall`, `kubectx NAME`.
/// ## Why this tier
/// Changes live (or local-cluster) state; `argocd app delete` is approvable, not on the floor.
pub static MUTATE: Rule = Rule::t3("kube.tool.mutate")
    .reason("changes cluster state or switches the active cluster; ask the user")
    .matches(words![
        "argocd app sync guestbook", "minikube delete", "microk8s enable dns", "kind create cluster", "eksctl create cluster --name test", "kubectx prod",
        "kubens kube-system", "skaffold dev", "tilt up", "argocd app delete guestbook", "k9s", "kustomize build --enable-exec .", "skaffold -v info run",
        "argocd --loglevel info app sync guestbook",
    ])
    .not_matches(words!["minikube status", "kubectx -c", "minikube addons list", "k3d kubeconfig get dev"]);

/// ## What it matches
/// A subcommand of these CLIs with no known verb (`argocd foo`, `minikube frobnicate`).
/// ## Why this tier
/// These CLIs act on clusters by default; unknown is not safe.
pub static UNKNOWN: Rule = Rule::t3("kube.tool.unknown")
    .reason("a subcommand tiergate does not model, on a CLI that changes clusters; ask the user")
    .matches(words!["argocd frobnicate", "minikube service web"])
    .not_matches(words!["argocd app list"]);

/// ## What it matches
/// `eksctl delete cluster`.
/// ## Why this tier
/// FEATURES.md §13 (as `aws eks delete-cluster`): destroys the cluster and its workloads; not approvable.
pub static EKSCTL_DELETE_CLUSTER: Rule = Rule::blocked("kube.eksctl.delete-cluster")
    .reason("deletes an EKS cluster with everything on it; never run by an agent: ask the user to delete clusters themselves")
    .matches(words!["eksctl delete cluster --name prod", "eksctl delete cluster -f cluster.yaml --help"])
    .not_matches(words!["eksctl delete nodegroup --cluster c", "eksctl get cluster"])
    .suggest("eksctl get cluster --name prod");

/// ## What it matches
/// `--help`/`-h`/`--version` on these CLIs, outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: help prints usage.
pub static HELP: Rule = Rule::t0("kube.tool.help")
    .reason("prints help only")
    .matches(words!["minikube delete --help", "argocd app sync -h", "skaffold --version", "kubectx --help", "k9s version", "kustomize build --help"])
    .not_matches(words!["eksctl delete cluster --help"]);

static LANE: Lane = Lane { read: &READ, validate: &VALIDATE, simulate: &SIMULATE, mutate: &MUTATE, unknown: &UNKNOWN, help: &HELP };

crate::table! {
    /// Value options of these CLIs: their value is never the command word.
    COMMON_VALUES = [
        "-n", "--namespace", "--context", "--kubeconfig", "-o", "--output", "-f", "--filename", "-p", "--profile", "--name", "--region", "--cluster", "--server",
        "--port", "--timeout",
    ];
    probe "minikube {} delete status" => T0, "kube.tool.read";
}

static CLUSTER_TOOLS: Spec = Spec {
    table: Table {
        read: words![
            "ip", "docker-env", "podman-env", "ssh-key", "completion", "options", "dashboard-url", "manifests", "resources", "app-list", "ps", "proxy-status",
            "proxy-config", "pc", "version", "precheck", "doctor", "dump", "schema", "fix", "kube-inject", "generate", "kubeconfig-path",
        ],
        validate: words!["analyze", "verify-install"],
        simulate: words!["render", "diagnose", "diff"],
        mutate: words![
            "create", "delete", "up", "down", "dev", "run", "build", "load", "ssh", "mount", "cp", "sync", "rollback", "ci", "trigger", "args", "login",
            "logout", "add", "rm", "utils", "associate", "terminate-op", "dashboard", "tunnel",
        ],
        // Command groups: the verb after them decides (`minikube addons list` reads, `addons enable` changes).
        skip: words![
            "cluster", "app", "backup", "restore", "schedule", "proj", "repo", "account", "nodegroup", "iamserviceaccount", "config", "addons", "service",
            "node", "image", "actions", "kubeconfig", "profile", "manifest",
        ],
    },
    opts: Opts { values: COMMON_VALUES, bools: words![], greedy: false },
    dry_run: true,
    help: HELP_WORDS,
    bare: Kind::Read,
    noun_verb: false,
};

/// kubectx / kubens: no argument lists; `-c`/`--current` prints; a name or `-` switches; `-d` deletes.
fn switcher(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &Opts { values: words![], bools: words![], greedy: false }, HELP_WORDS);
    if argv.help {
        return cx.hit(&HELP);
    }
    // A bare name (or `-`, the previous context) switches; `-d`/`-u` delete or unset.
    let writes = argv.flags.iter().any(|f| matches!(*f, "-d" | "-u" | "--unset")) || !argv.words.is_empty();
    if writes {
        cx.hit_because(
            &MUTATE,
            format!("`{}` switches or edits the active Kubernetes context; every later kubectl command follows it; ask the user", inv.program),
        );
    } else {
        cx.hit(&READ);
    }
}

/// `minikube kubectl -- ARGS`, `microk8s kubectl ARGS`, `k3s kubectl ARGS`, `microk8s helm3 ARGS`:
/// the bundled client runs; classify it as that client. True when forwarded.
fn forward(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    // minikube's `-p PROFILE` comes before the client word.
    let spec = if inv.program == "minikube" { ArgSpec::values(words!["-p", "--profile"]) } else { ArgSpec::values(words![]) };
    let Some(i) = first_operand(&inv.args, spec).map(|o| o.index) else {
        return false;
    };
    let client = match inv.args[i].text.as_str() {
        "kubectl" => "kubectl",
        "helm" | "helm3" => "helm",
        _ => return false,
    };
    let mut rest = &inv.args[i + 1..];
    if let Some(Token::DashDash(0)) = Args::parse(rest, ArgSpec::values(words![])).next() {
        rest = &rest[1..];
    }
    let mut argv = vec![Arg::lit(client)];
    argv.extend(rest.iter().cloned());
    cx.argv(&argv, inv.cwd.as_deref());
    true
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    if matches!(inv.program.as_str(), "minikube" | "microk8s" | "k3s") && forward(inv, cx) {
        return;
    }
    match inv.program.as_str() {
        "kubeconform" | "kubeval" | "kube-linter" | "kube-score" => {
            let argv = split(&inv.args, &Opts { values: words![], bools: words![], greedy: false }, HELP_WORDS);
            cx.hit(if argv.help { &HELP } else { &VALIDATE })
        }
        "kubectx" | "kubens" => switcher(inv, cx),
        "k9s" => {
            let argv = split(&inv.args, &Opts { values: COMMON_VALUES, bools: words![], greedy: false }, HELP_WORDS);
            if argv.help || argv.pos.first().is_some_and(|p| matches!(*p, "version" | "info" | "help")) {
                cx.hit(&HELP)
            } else if argv.has("--readonly") {
                cx.hit(&READ)
            } else {
                cx.hit_because(
                    &MUTATE,
                    "k9s is an interactive console that can edit and delete cluster objects; run it with --readonly, or ask the user".to_owned(),
                )
            }
        }
        "kustomize" => {
            let argv = split(&inv.args, &Opts { values: words!["-o", "--output"], bools: words![], greedy: false }, HELP_WORDS);
            if argv.help {
                cx.hit(&HELP)
            } else if argv.has("--enable-exec") || argv.has("--enable-alpha-plugins") {
                cx.hit_because(&MUTATE, "kustomize with exec plugins runs arbitrary programs while rendering; ask the user".to_owned())
            } else {
                // build / edit / create only render or rewrite kustomization files in the tree.
                cx.hit(&READ)
            }
        }
        "eksctl" => {
            let argv = split(&inv.args, &CLUSTER_TOOLS.opts, HELP_WORDS);
            if argv.has_seq(&["delete", "cluster"]) {
                return cx.hit(&EKSCTL_DELETE_CLUSTER);
            }
            run(inv, cx, &CLUSTER_TOOLS, &LANE);
        }
        _ => {
            run(inv, cx, &CLUSTER_TOOLS, &LANE);
        }
    }
}

crate::tables![COMMON_VALUES];
