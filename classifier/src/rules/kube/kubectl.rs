//! `kubectl` and `oc`: global options parsed so the verb is found exactly
//! (`kubectl -n prod get pods` → get), the blocked floor (namespace, node, volume,
//! CRD, webhook deletions, `delete --all`, `drain`), `--dry-run`, contexts and plugins.
//!
//! It does not read manifests (`apply -f x.yaml` is T3 whatever the file holds).

use crate::call::args::split_option;
use crate::call::cli::{split, Argv, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read-only kubectl verbs: `get describe logs top explain events api-resources version cluster-info`,
/// `auth can-i|whoami`, `config view|get-contexts|current-context`, `rollout status|history`, and
/// `cp POD:SRC DEST` out of a pod (the local destination is checked as a write).
/// ## Why this tier
/// They read cluster state and change nothing.
pub static READ: Rule = Rule::t0("kube.kubectl.read")
    .reason("reads cluster state only")
    .matches(words![
        "kubectl get pods", "kubectl -n prod get pods -o yaml", "kubectl logs -f deploy/api --tail=100", "kubectl config get-contexts", "oc whoami",
        "kubectl rollout status deploy/api", "kubectl auth can-i delete pods", "kubectl cp api-0:/var/log/app.log ./app.log", "kubectl config",
    ])
    .not_matches(words!["kubectl delete pod x", "kubectl config use-context prod"]);

/// ## What it matches
/// `kubectl diff`: the server computes what `apply` would change.
/// ## Why this tier
/// A simulation: nothing is persisted.
pub static DIFF: Rule = Rule::t2("kube.kubectl.diff")
    .reason("shows what apply would change without changing it")
    .matches(words!["kubectl diff -f deploy.yaml", "kubectl -n prod diff -k overlays/prod"])
    .not_matches(words!["kubectl apply -f diff.yaml"]);

/// ## What it matches
/// A mutating verb with `--dry-run=client|server` (or the deprecated bare `--dry-run`).
/// ## Why this tier
/// kubectl honours the flag: nothing is persisted. `--dry-run=none` is a real run and stays T3.
pub static DRY_RUN: Rule = Rule::t2("kube.kubectl.dry-run")
    .reason("dry run: kubectl validates the change without persisting it")
    .matches(words![
        "kubectl apply -f x.yaml --dry-run=client",
        "kubectl delete --dry-run pod my-pod",
        "kubectl create secret generic s --from-literal=a=b --dry-run=client -o yaml",
        "kubectl run debug --image=alpine --dry-run=server",
    ])
    .not_matches(words!["kubectl apply -f x.yaml --dry-run=none", "kubectl delete ns prod --dry-run=server"]);

/// ## What it matches
/// Verbs that change cluster objects: `apply create delete patch replace scale autoscale rollout restart|undo
/// edit label annotate cordon uncordon taint expose set run certificate` and `auth reconcile`.
/// ## Why this tier
/// They change live cluster state; the user approves. (`apply -f plan.yaml` is T3: a file name is data.)
pub static MUTATE: Rule = Rule::t3("kube.kubectl.mutate")
    .reason("changes live cluster objects; ask the user, or preview with --dry-run=server or kubectl diff")
    .matches(words![
        "kubectl apply -f plan.yaml", "kubectl delete pod x", "kubectl -n prod scale deploy/api --replicas=0", "kubectl rollout restart deployment/api",
        "kubectl run debug --image=alpine -- sleep 1", "kubectl apply -f x.yaml --dry-run=none", "/usr/bin/kubectl delete pod my-pod", "oc new-project demo",
        "kubectl edit deploy/api", "kubectl certificate approve csr-7x2k", "oc new-app nginx", "oc new-build https://github.com/acme/api.git",
        "oc start-build api", "oc cancel-build api-3", "oc import-image api --confirm", "oc tag api:latest api:prod", "oc login https://api.example.com:6443",
        "oc logout", "oc adm policy add-role-to-user admin alice", "oc rollback api", "oc import docker-compose -f docker-compose.yml",
    ])
    .not_matches(words!["kubectl get pods", "kubectl delete ns prod"]);

/// ## What it matches
/// `exec attach cp port-forward proxy debug`: a session into a running pod or a tunnel to it.
/// ## Why this tier
/// Runs commands inside the cluster or moves data into it. An `exec … -- CMD` payload is also
/// classified (as ssh payloads are), so a blocked payload stays blocked.
pub static SESSION: Rule = Rule::t3("kube.kubectl.session")
    .reason("opens a session, copy or tunnel into a running pod; ask the user before touching live workloads")
    .matches(words![
        "kubectl exec -it api-0 -- sh", "kubectl cp ./local api-0:/tmp/x", "kubectl port-forward svc/db 5432", "kubectl -n prod exec api-0 -- ls",
        "kubectl attach -it api-0", "kubectl proxy --port=8001", "kubectl debug -it api-0 --image=busybox", "oc rsh api-0", "oc rsync ./build api-0:/srv",
    ])
    .not_matches(words!["kubectl logs api-0"]);

/// ## What it matches
/// kubeconfig writes: `config use-context|set|set-context|set-cluster|set-credentials|unset|delete-*|rename-context`
/// (FEATURES.md §4 anchors; the original left `use-context` at T0).
/// ## Why this tier
/// Switching or editing contexts redirects every later command, possibly at production.
pub static CONTEXT: Rule = Rule::t3("kube.kubectl.context")
    .reason("changes the kubeconfig (current context, clusters or credentials); every later kubectl command follows it; ask the user")
    .matches(words![
        "kubectl config use-context prod", "kubectl config set-context --current --namespace=prod", "kubectl config delete-context prod",
        "kubectl config unset current-context", "oc project prod",
    ])
    .not_matches(words!["kubectl config get-contexts", "kubectl config view", "oc project"]);

/// ## What it matches
/// A kubectl subcommand tiergate does not model, which kubectl runs as a plugin (`kubectl krew install x`, `kubectl foo`).
/// ## Why this tier
/// Plugins are arbitrary programs; unknown is not safe.
pub static PLUGIN: Rule = Rule::t3("kube.kubectl.plugin")
    .reason("runs a kubectl plugin or an unknown subcommand; ask the user")
    .matches(words!["kubectl krew install ctx", "kubectl foo bar"])
    .not_matches(words!["kubectl get pods"]);

/// ## What it matches
/// `kubectl delete` of a namespace, node, persistent volume or claim, CRD, webhook configuration or
/// cluster (also `kind/name` and comma lists), and `oc delete project`.
/// ## Why this tier
/// FEATURES.md §13 kubernetes_critical: takes everything inside with it; not approvable.
/// ## Known gaps
/// A pod literally named `node` or `ns` is also refused (the floor errs on the safe side).
pub static DELETE_CRITICAL: Rule = Rule::blocked("kube.kubectl.delete-critical")
    .reason("deletes a namespace, node, volume, CRD, webhook or cluster, taking everything in it; never run by an agent: delete the specific objects instead, or ask the user to do it")
    .matches(words!["kubectl delete namespace prod", "kubectl --context prod -n default delete ns payments", "kubectl delete pvc data-0", "kubectl delete crd x.example.com", "kubectl delete ns/prod", "sudo kubectl delete namespace production", "kubectl delete ns prod --help", "kubectl delete ns prod --field-manager=--help", "oc delete project demo", "kubectl delete mutatingwebhookconfiguration hook", "kubectl delete --raw /api/v1/namespaces/prod"])
    .not_matches(words!["kubectl delete pod x", "kubectl get ns prod", "kubectl create namespace test"]);

/// ## What it matches
/// `kubectl delete KIND --all`, `-A` / `--all-namespaces`, and `delete all …`.
/// ## Why this tier
/// FEATURES.md §13: bulk deletion across a namespace or the cluster; not approvable.
pub static DELETE_ALL: Rule = Rule::blocked("kube.kubectl.delete-all")
    .reason("deletes every object of a kind (--all / --all-namespaces); delete the named objects instead, or ask the user to do it")
    .matches(words!["kubectl delete pods --all", "kubectl -n prod delete deploy --all", "kubectl delete pods -A -l app=x", "kubectl delete all --all -n prod"])
    .not_matches(words!["kubectl delete pod x", "kubectl get pods --all-namespaces", "kubectl delete all -l app=web"]);

/// ## What it matches
/// `kubectl drain NODE` (and `oc adm drain`).
/// ## Why this tier
/// FEATURES.md §13: evicts every workload from a node; not approvable.
pub static DRAIN: Rule = Rule::blocked("kube.kubectl.drain")
    .reason("drain evicts every workload from a node; cordon it instead and ask the user to drain")
    .matches(words!["kubectl drain worker-node-1", "kubectl drain worker-1 --ignore-daemonsets", "oc adm drain n1"])
    .not_matches(words!["kubectl cordon worker-1"])
    .suggest("kubectl cordon worker-node-1");

/// ## What it matches
/// `--help`/`-h` (or `help`) on any kubectl command that is not on the blocked floor.
/// ## Why this tier
/// FEATURES.md §6a: help prints usage and runs nothing.
pub static HELP: Rule = Rule::t0("kube.kubectl.help")
    .reason("prints help only")
    .matches(words!["kubectl delete pod x --help", "kubectl -h apply -f m.yaml", "kubectl help delete", "kubectl run debug --image=alpine --help", "kubectl"])
    .not_matches(words!["kubectl delete ns prod --help", "kubectl exec p -- ls --help", "kubectl delete pod x --field-manager --help"]);

/// kubectl options that take a value (global and per-command), so their values are not verbs.
static OPTS: Opts = Opts {
    values: words![
        "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--as-uid",
        "--certificate-authority", "--client-certificate", "--client-key", "--request-timeout", "--cache-dir", "--log-file", "-v", "--v", "--tls-server-name",
        "--password", "--username", "--profile", "--profile-output", "--log-dir", "-l", "--selector", "-o", "--output", "-f", "--filename", "-k",
        "--kustomize", "-c", "--container", "--field-selector", "--sort-by", "--template", "-p", "--patch", "--type", "--replicas", "--image",
        "--grace-period", "--timeout", "--since", "--tail", "--field-manager", "-L", "--label-columns", "--for", "--from-literal", "--from-file", "--port",
        "--overrides", "--env", "--restart", "--resource-version", "--raw", "--subresource", "--chunk-size",
    ],
    bools: words![],
    greedy: false,
};

crate::table! {
    /// Resource kinds whose deletion is on the floor (singular, plural and short names).
    CRITICAL_KINDS = [
        "namespace", "namespaces", "ns", "node", "nodes", "no", "cluster", "clusters", "pv", "persistentvolume", "persistentvolumes", "pvc",
        "persistentvolumeclaim", "persistentvolumeclaims", "crd", "crds", "customresourcedefinition", "customresourcedefinitions", "mutatingwebhookconfiguration",
        "mutatingwebhookconfigurations", "validatingwebhookconfiguration", "validatingwebhookconfigurations", "project", "projects",
    ];
    probe "kubectl delete {} x" => Blocked, "kube.kubectl.delete-critical";
}

crate::table! {
    READ_VERBS = [
        "get", "describe", "logs", "top", "explain", "events", "api-resources", "api-versions", "version", "cluster-info", "completion", "options", "wait",
        "kustomize", "whoami", "status", "projects", "plugin", // `oc process` renders a template on the server and prints it; nothing is created.
        "process",
    ];
    probe "kubectl {} pods" => T0, "kube.kubectl.read";
}
crate::table! {
    /// An unknown verb is a plugin (T3 too), so the probe pins the rule.
    MUTATE_VERBS = [
        "apply", "create", "delete", "patch", "replace", "scale", "autoscale", "edit", "label", "annotate", "cordon", "uncordon", "taint", "expose", "set", "run",
        "certificate", "new-project", "new-app", "new-build", "start-build", "cancel-build", "import-image", "tag", "login", "logout", "adm", "rollback", "import",
    ];
    probe "kubectl {} x" => T3, "kube.kubectl.mutate";
}
crate::table! {
    /// Asked before `MUTATE_VERBS`: `oc rsh` and `oc rsync` are sessions.
    SESSION_VERBS = ["exec", "attach", "cp", "port-forward", "proxy", "debug", "rsh", "rsync"];
    probe "kubectl {} x" => T3, "kube.kubectl.session";
}
crate::table! {
    CONFIG_READS = ["view", "get-contexts", "current-context", "get-clusters", "get-users"];
    probe "kubectl config {}" => T0, "kube.kubectl.read";
}

fn dry_run(argv: &Argv<'_>, inv: &Invocation) -> bool {
    match argv.value(&inv.args, words!["--dry-run"]) {
        Some(v) if argv.flags.iter().any(|f| matches!(split_option(f), ("--dry-run", Some(_)))) => matches!(v, "client" | "server" | "true"),
        _ => argv.flags.contains(&"--dry-run"),
    }
}

/// The floor kind named by `delete`'s operands: the first operand is a kind (or a comma
/// list, or `kind/name`, maybe `kind.group`); later operands count only as `kind/name`.
fn floor_kind<'a>(operands: &[&'a str]) -> Option<&'a str> {
    let critical = |k: &str| {
        let bare = k.split('.').next().unwrap_or(k).to_ascii_lowercase();
        CRITICAL_KINDS.contains(bare.as_str())
    };
    let (first, rest) = operands.split_first()?;
    let kinds = first.split('/').next().unwrap_or(first);
    if kinds.split(',').any(critical) {
        return Some(first);
    }
    rest.iter().find(|w| w.split_once('/').is_some_and(|(k, _)| k.split(',').any(critical))).copied()
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS);
    let oc = inv.program == "oc";
    // The verb is the first command word kubectl knows; an unknown word first is a plugin name.
    let Some(&verb) = argv.pos.first() else {
        // Bare `kubectl` (or only global options) prints usage.
        cx.hit(&HELP);
        return;
    };
    let after: Vec<&str> = argv.pos.iter().skip(1).copied().collect();
    // The floor first: `--help` never lowers it.
    match verb {
        "delete" => {
            if let Some(kind) = floor_kind(&after) {
                let target = after.iter().skip_while(|w| **w != kind).take(2).copied().collect::<Vec<_>>().join(" ");
                cx.hit_because(&DELETE_CRITICAL, format!("`{} delete {target}` deletes it and everything it holds; never run by an agent: delete the specific objects instead, or ask the user to do it", inv.program));
                return;
            }
            // `delete --raw /api/v1/namespaces/prod`: the REST path names the kind.
            if let Some(raw) = argv.value(&inv.args, words!["--raw"]) {
                let parts: Vec<&str> = raw.trim_end_matches('/').split('/').collect();
                if parts.iter().rev().take(2).any(|p| CRITICAL_KINDS.contains(p)) {
                    return cx.hit_because(
                        &DELETE_CRITICAL,
                        format!(
                            "`{} delete --raw {raw}` deletes a namespace, node, volume or CRD through the API; never run by an agent: ask the user to do it",
                            inv.program
                        ),
                    );
                }
            }
            if argv.has("--all") || argv.has("--all-namespaces") || argv.flags.contains(&"-A") {
                cx.hit(&DELETE_ALL);
                return;
            }
        }
        "drain" => return cx.hit(&DRAIN),
        "adm" if oc && after.first() == Some(&"drain") => return cx.hit(&DRAIN),
        _ => {}
    }
    if argv.help || verb == "help" {
        return cx.hit(&HELP);
    }
    match verb {
        "diff" => cx.hit(&DIFF),
        "config" => match after.first().copied() {
            None => cx.hit(&READ),
            Some(sub) if CONFIG_READS.contains(sub) => cx.hit(&READ),
            Some(_) => cx.hit(&CONTEXT),
        },
        "auth" => match after.first().copied() {
            None | Some("can-i" | "whoami") => cx.hit(&READ),
            // `auth reconcile` writes RBAC objects; anything else is unknown.
            Some(_) => cx.hit(&MUTATE),
        },
        "rollout" => match after.first().copied() {
            Some("status" | "history") | None => cx.hit(&READ),
            Some(_) if dry_run(&argv, inv) => cx.hit(&DRY_RUN),
            Some(_) => cx.hit(&MUTATE),
        },
        // `oc project` prints the current project; `oc project NAME` switches to it.
        "project" if oc => cx.hit(if after.is_empty() { &READ } else { &CONTEXT }),
        // `cp POD:SRC DEST`: a copy out of a pod into a local path reads the pod; the local
        // destination is a file write like any other.
        "cp" if after.len() == 2 && after[0].contains(':') && !after[1].contains(':') => {
            if let Some(dest) = inv.args.iter().rev().find(|a| a.text == after[1]) {
                writes::check_write(cx, dest, inv.cwd.as_deref());
            }
            cx.hit_because(&READ, format!("copies {} out of the pod into {}", after[0], after[1]));
        }
        v if SESSION_VERBS.contains(v) => {
            cx.hit(&SESSION);
            // `exec POD -- CMD…`: the command runs in the container; classify it like an ssh payload
            // so a blocked one stays blocked (the remote working directory is unknown).
            if v == "exec" && !argv.rest.is_empty() {
                let start = inv.args.len() - argv.rest.len();
                cx.argv(&inv.args[start..], None);
            }
        }
        v if MUTATE_VERBS.contains(v) => {
            if dry_run(&argv, inv) {
                cx.hit(&DRY_RUN)
            } else {
                cx.hit_because(
                    &MUTATE,
                    format!("`{} {v}` changes live cluster objects; ask the user, or preview with --dry-run=server or kubectl diff", inv.program),
                )
            }
        }
        v if READ_VERBS.contains(v) => cx.hit(&READ),
        _ => cx.hit(&PLUGIN),
    }
}

crate::tables![CRITICAL_KINDS, READ_VERBS, MUTATE_VERBS, SESSION_VERBS, CONFIG_READS];
