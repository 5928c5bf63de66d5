//! The `kube` family: Kubernetes CLIs. `kubectl`/`oc` (verbs, contexts, the blocked
//! floor), `helm`/`flux` (releases, renders, `flux uninstall`), and the smaller cluster
//! tools through the shared verb-scan lane (`rules/cloud/generic.rs`).
//!
//! It does not read manifests, charts or kubeconfig files.

use crate::words;

mod helm;
mod kubectl;
mod tools;

use crate::rules::{Card, Family, Rule};

pub static FAMILY: Family = Family::new("kube", CARDS, RULES);

static CARDS: &[Card] = &[
    // kubecolor passes its arguments to kubectl unchanged.
    Card::of(words!["kubectl", "oc", "kubecolor"], kubectl::check),
    Card::of(words!["helm"], helm::helm),
    Card::of(words!["flux"], helm::flux),
    Card::of(
        words![
            "kustomize", "kind", "minikube", "k3d", "eksctl", "argocd", "istioctl", "kubectx", "kubens", "skaffold", "tilt", "k9s", "velero", "kubeconform",
            "kubeval", "kube-linter", "kube-score", "microk8s", "k3s",
        ],
        tools::check,
    ),
];

static RULES: &[&Rule] = &[
    &kubectl::READ,
    &kubectl::DIFF,
    &kubectl::DRY_RUN,
    &kubectl::MUTATE,
    &kubectl::SESSION,
    &kubectl::CONTEXT,
    &kubectl::PLUGIN,
    &kubectl::DELETE_CRITICAL,
    &kubectl::DELETE_ALL,
    &kubectl::DRAIN,
    &kubectl::HELP,
    &helm::HELM_READ,
    &helm::HELM_LINT,
    &helm::HELM_RENDER,
    &helm::HELM_LOCAL,
    &helm::HELM_RELEASE,
    &helm::HELM_CONFIG,
    &helm::FLUX_READ,
    &helm::FLUX_CHECK,
    &helm::FLUX_RENDER,
    &helm::FLUX_MUTATE,
    &helm::FLUX_UNINSTALL,
    &helm::HELP,
    &tools::READ,
    &tools::VALIDATE,
    &tools::SIMULATE,
    &tools::MUTATE,
    &tools::UNKNOWN,
    &tools::EKSCTL_DELETE_CLUSTER,
    &tools::HELP,
];

crate::tables![; kubectl, tools];
