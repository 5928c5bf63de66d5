//! The `kube` family through the full pipeline: kubectl verbs behind global options,
//! the blocked floor in its bypass forms (wrappers, quoting, paths, shells, help
//! tricks), dry runs, contexts, helm/flux and the smaller cluster CLIs.

use crate::check::check;

#[test]
fn global_options_do_not_hide_the_verb() {
    check("kubectl -n prod get pods", "T0");
    check("kubectl --context prod --namespace default get pods -o wide", "T0");
    check("kubectl -nprod get pods", "T0");
    check("kubectl --kubeconfig ~/.kube/prod -n x delete pod api-0", "T3");
    check("kubectl -v 6 delete ns prod", "BLOCKED");
}

#[test]
fn namespace_and_cluster_scope_deletions_are_blocked_in_every_form() {
    for cmd in [
        "kubectl delete namespace prod",
        "kubectl delete ns/prod",
        "kubectl delete namespaces team-a team-b",
        "kubectl delete pods,namespaces x",
        "kubectl delete node worker-1",
        "kubectl delete pv my-volume",
        "kubectl delete persistentvolumeclaim data-0",
        "kubectl delete crd widgets.example.com",
        "kubectl delete customresourcedefinitions.apiextensions.k8s.io widgets.example.com",
        "kubectl delete validatingwebhookconfiguration hook",
        "kubectl delete pods --all",
        "kubectl delete all --all -n prod",
        "kubectl delete deploy -A -l app=x",
        "kubectl drain worker-1 --ignore-daemonsets",
        "sudo kubectl delete namespace production",
        "/usr/local/bin/kubectl delete ns prod",
        "'kubectl' \"delete\" n''s prod",
        "bash -c 'kubectl delete ns prod'",
        "env KUBECONFIG=/tmp/k kubectl delete ns prod",
        "timeout 30 kubectl delete ns prod",
        "ls && kubectl delete namespace production",
        "echo $(kubectl delete ns prod)",
        "kubectl delete ns prod --help",
        "kubectl delete ns prod --field-manager=--help",
        "kubectl delete --cascade ns prod",
        "kubectl delete ns prod --dry-run=server",
        "oc delete project demo",
        "oc adm drain node-1",
    ] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn ordinary_deletions_and_changes_ask() {
    for cmd in [
        "kubectl delete pod x", "kubectl delete pod node-exporter-abc", "kubectl delete deployment web -n prod", "kubectl delete all -l app=web",
        "kubectl apply -f plan.yaml", "kubectl apply -f template.yaml", "kubectl apply -k overlays/prod", "kubectl config use-context prod",
        "kubectl config set-context --current --namespace=prod", "kubectl run debug --image=alpine -- sh", "kubectl exec api-0 -- ls",
        "kubectl port-forward svc/db 5432", "kubectl apply -f x.yaml --dry-run=none", "kubectl krew install ctx", "cat m.yaml | kubectl apply -f -",
        "helm install r ./chart", "helm upgrade --install r ./chart --dry-run=none", "helm repo add bitnami https://charts.bitnami.com/bitnami",
        "flux reconcile kustomization apps --with-source", "argocd app delete guestbook", "eksctl delete nodegroup --cluster c --name ng", "kubectx prod",
        "kubens -", "k9s", "minikube delete",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn reads_are_free_and_names_that_look_like_verbs_are_data() {
    for cmd in [
        "kubectl get ns", "kubectl get pods --all-namespaces", "kubectl describe node worker-1", "kubectl logs deploy/delete-worker",
        "kubectl get pods -l app=drain", "kubectl get secret db -o jsonpath='{.data.password}'", "kubectl auth can-i delete namespaces",
        "kubectl config get-contexts", "kubectl rollout history deploy/api", "kubectl explain namespace", "kubectl delete --help", "kubectl help drain",
        "kubectl", "helm list -A", "helm show values bitnami/redis", "helm -h uninstall r", "flux get kustomizations -A", "kustomize build overlays/prod",
        "kubectx", "kubectx -c", "k9s --readonly", "eksctl get clusters", "watch -n 5 kubectl get pods",
    ] {
        check(cmd, "T0");
    }
}

#[test]
fn dry_runs_and_renders_simulate() {
    for cmd in [
        "kubectl apply -f x.yaml --dry-run=client",
        "kubectl apply --dry-run=server -f x.yaml",
        "kubectl delete --dry-run pod my-pod",
        "kubectl create deployment web --image=nginx --dry-run=client -o yaml",
        "kubectl diff -f deploy.yaml",
        "helm template r ./chart",
        "helm install --dry-run r chart/",
        "helm diff upgrade r ./chart",
        "flux diff kustomization apps --path ./clusters/prod",
    ] {
        check(cmd, "T2");
    }
    check("helm lint ./chart", "T1");
    check("kubeconform -strict deploy.yaml", "T1");
    check("flux check --pre", "T1");
}

#[test]
fn flux_uninstall_and_eksctl_cluster_deletion_are_blocked() {
    check("flux uninstall", "BLOCKED");
    check("flux uninstall --silent --help", "BLOCKED");
    check("eksctl delete cluster --name prod", "BLOCKED");
    check("eksctl delete cluster -f cluster.yaml --wait", "BLOCKED");
}

#[test]
fn bundled_clients_are_classified_as_the_client() {
    check("minikube kubectl -- get pods -A", "T0");
    check("minikube kubectl -- delete ns prod", "BLOCKED");
    check("microk8s kubectl delete namespace prod", "BLOCKED");
    check("k3s kubectl apply -f x.yaml", "T3");
    check("microk8s helm3 list", "T0");
    check("kubecolor delete ns prod", "BLOCKED");
    check("kubecolor get pods", "T0");
    check("helm uninstall r --dry-run", "T2");
}

#[test]
fn exec_payloads_are_classified() {
    check("kubectl exec -it p -- sh -c 'kubectl delete ns prod'", "BLOCKED");
    check("kubectl exec p -- ls /", "T3");
    check("kubectl delete pod x --field-manager --help", "T3");
}

#[test]
fn unresolved_words_never_lower() {
    check("kubectl $VERB ns prod", "T3");
    check("kubectl auth $X", "T3");
    check("kubectl delete $KIND prod", "T3");
    check("helm $CMD r ./chart", "T3");
    check("kubectx \"$CTX\"", "T3");
}

#[test]
fn chart_downloads_write_where_they_land() {
    check("helm pull bitnami/redis --untar -d charts/", "T0");
    check("helm pull bitnami/redis -d /etc/x", "T3");
}

#[test]
fn copies_out_of_a_pod_read_and_copies_in_ask() {
    check("kubectl cp api-0:/var/log/app.log ./app.log", "T0");
    check("kubectl -n prod cp api-0:/etc/cfg ~/.bashrc", "T3");
    check("kubectl cp ./local api-0:/tmp/x", "T3");
}
