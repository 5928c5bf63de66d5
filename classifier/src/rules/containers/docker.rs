//! `docker`, `podman` and `nerdctl`: reads, builds, the container lifecycle,
//! registries and the prune floor. `docker compose …` is handed to `compose.rs`.
//!
//! Decisions: `docker build` is T1 (it writes only the local image store and the
//! build cache, like `cargo build` writes `target/`); `--push` or a registry output
//! makes it T3. `docker exec CTR CMD` and `docker run IMG CMD` are T3 whatever
//! `CMD` is: the command runs in the container's file system, so host path rules
//! (`rm -rf /` → blocked) do not apply, and starting or entering a container is
//! already a consent-level change.

use super::HELP_READING;
use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::{first_positional, has_flag, has_short, operand_words, value_of};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

/// ## What it matches
/// Read-only docker/podman/nerdctl subcommands: `ps`, `images`, `logs`, `inspect`, `version`,
/// `info`, `stats`, `top`, `history`, `events`, `port`, `diff`, and the `ls`/`inspect`
/// actions of management groups (`docker volume ls`, `docker network inspect`).
/// ## Why this tier
/// They only report on the daemon's state.
pub static READ: Rule = Rule::t0("containers.read")
    .reason("reads container, image, network or volume state only")
    .matches(words![
        "docker ps -a", "docker logs -f web", "podman images", "docker volume ls", "sudo docker inspect web", "docker -D ps", "docker context ls",
        "docker compose ps", "docker save -o app.tar app:1", "docker container export -o web.tar web", "podman generate kube web",
        "docker cp web:/var/log/app.log ./app.log",
    ])
    .not_matches(words!["docker rm web", "docker volume prune", "docker run nginx"]);

/// ## What it matches
/// `--help`/`-h` on the docker CLI or on one of its subcommands (`docker rm --help`, `docker -h rm x`).
/// ## Why this tier
/// Prints usage; runs nothing.
pub static HELP: Rule = Rule::t0("containers.help")
    .reason("prints help only")
    .matches(words![
        "docker --help", "docker -h rm my-container", "docker run --help", "podman system prune --help", "docker compose", "docker compose up --help",
        "docker volume", "skopeo copy --help", "crictl", "ctr tasks", "colima start --help",
    ])
    .not_matches(words!["docker run -h myhost alpine", "docker run alpine --help"]);

/// ## What it matches
/// Local image builds: `docker build`, `docker buildx build|bake` without `--push`, `docker image build`,
/// `docker init`, `podman build`.
/// ## Why this tier
/// T1 (local build): it writes the local image store and build cache only, the way `cargo build`
/// writes `target/`; nothing running changes and nothing leaves the machine.
/// ## Known gaps
/// `RUN` steps execute arbitrary commands inside the build sandbox (with network access).
pub static BUILD: Rule = Rule::t1("containers.build")
    .reason("builds an image locally; nothing running changes and nothing is pushed")
    .matches(words!["docker build -t app:dev .", "docker buildx build -t app .", "podman build -f Containerfile .", "docker image build ."])
    .not_matches(words!["docker buildx build --push -t r/app .", "docker build --help"]);

/// ## What it matches
/// A build that publishes its result: `--push`, `--output type=registry`, `buildx bake --push`.
/// ## Why this tier
/// Writes to a registry others pull from.
pub static BUILD_PUSH: Rule = Rule::t3("containers.build-push")
    .reason("builds and pushes the image to a registry; build locally and ask before pushing")
    .matches(words!["docker buildx build --push -t r/app .", "docker buildx build --output type=registry -t r/app .", "docker buildx bake --push"])
    .not_matches(words!["docker buildx build -t app ."])
    .suggest("docker buildx build -t app .");

/// ## What it matches
/// Starting or entering containers: `run`, `create`, `exec`, `start`, `attach`, `cp` into a container,
/// `commit`, and `kube play`/`pod create` (podman).
/// ## Why this tier
/// A running container changes live state (ports, volumes, the host paths it mounts). A command run
/// by `docker exec`/`docker run` executes inside the container, so it is not classified against the
/// host's paths: the exec itself needs consent. `--privileged` and host-root mounts are named in the reason.
pub static RUN: Rule = Rule::t3("containers.run")
    .reason("starts or enters a container, which changes live state; ask the user first")
    .matches(words![
        "docker run nginx", "docker run --rm -it ubuntu bash", "docker exec -it web sh", "docker exec web rm -rf /", "podman run --rm alpine echo hi",
        "docker cp ./x web:/tmp/x", "docker compose up -d", "docker compose run web sh", "docker compose exec db psql -U app", "docker compose start",
        "docker compose create", "docker compose attach web", "docker compose watch", "docker compose cp ./seed.sql db:/tmp/seed.sql",
        "docker compose scale web=3", "docker compose restart web", "docker compose unpause", "docker container run --rm alpine true",
        "docker container create --name web nginx", "docker start web", "docker attach web", "docker commit web app:snapshot", "podman play kube pod.yaml",
        "podman container restore web", "podman container checkpoint web", "docker debug web",
    ])
    .not_matches(words!["docker ps", "docker run --help"]);

/// ## What it matches
/// `docker run`/`create` (and podman's) of a container given the host: `--privileged`, the host's root
/// mounted (`-v /:/host`, `--mount source=/,…`), or the host's pid, network, ipc or user namespace.
/// ## Why this tier
/// T3 as any container start, and named apart: such a container can change the host itself, not only
/// its own state, and the user should see that before agreeing.
pub static RUN_HOST: Rule = Rule::t3("containers.run.host")
    .reason("starts a container with host privileges, the host's root or its namespaces: it can change the host; ask the user first")
    .matches(words![
        "docker run --privileged alpine", "docker run -v /:/host alpine", "docker run --mount type=bind,source=/,target=/host alpine",
        "docker run --mount type=bind,src=/,dst=/host alpine", "docker run --mount type=bind,target=/host,source=/ alpine", "docker run --pid=host alpine",
        "docker run --net host alpine", "podman run --userns=host alpine", "docker create --ipc=host alpine",
    ])
    .not_matches(words![
        "docker run nginx",
        "docker run -v ./data:/data alpine",
        "docker run --network bridge alpine",
        "docker run alpine ping host",
        "docker run -e MODE=host alpine",
        "docker run --mount type=bind,source=/srv,target=/srv alpine",
    ]);

/// ## What it matches
/// Lifecycle and resource changes: `stop`, `kill`, `restart`, `rm`, `rmi`, `pause`, `rename`, `update`,
/// `tag`, `load`, `import`, `network|volume create|rm|connect`, `container|image|network|builder prune`,
/// `system prune` without `--all`/`--volumes`, `context use|create|rm`, swarm and service changes.
/// ## Why this tier
/// Stops workloads or deletes containers, images and networks; approvable because each is scoped.
pub static CHANGE: Rule = Rule::t3("containers.change")
    .reason("changes or deletes containers, images, networks or volumes; ask the user first")
    .matches(words![
        "docker stop web", "docker rm -f web", "docker rmi nginx:latest", "docker -D rm my-container", "docker volume rm data", "docker system prune",
        "docker image prune -a", "docker context use prod", "docker kill web", "docker restart web", "docker pause web", "docker unpause web",
        "docker rename web web2", "docker update --memory 1g web", "docker tag app:1 registry.example/app:1", "podman untag app:1", "docker load -i app.tar",
        "docker import rootfs.tar app:raw", "docker network connect net1 web", "docker network disconnect net1 web", "docker service scale web=3",
        "docker service rollback web", "docker swarm join --token T 10.0.0.1:2377", "docker swarm leave --force", "docker node promote n2",
        "docker node demote n2", "docker stack deploy -c stack.yml app", "docker stack remove app", "docker plugin enable sshfs",
        "docker plugin disable sshfs", "docker plugin install vieux/sshfs", "docker plugin upgrade sshfs", "docker plugin set sshfs DEBUG=1",
        "docker swarm unlock", "podman network reload web", "podman mount web", "podman unmount web", "podman machine reset",
        "docker trust key generate alice", "docker manifest annotate app:1 app:arm --arch arm64", "podman container cleanup web",
        "docker compose commit web img:1", "docker compose export web -o web.tar", "docker compose pause", "docker compose kill web", "docker compose down",
        "docker compose stop", "docker compose rm -f", "docker swarm init", "podman manifest add app-list app:arm64",
    ])
    .not_matches(words!["docker ps", "docker system prune -a"]);

/// ## What it matches
/// Registry traffic that writes: `push`, `pull` (writes the local image store), `login`, `logout`,
/// `manifest push`, `trust sign`.
/// ## Why this tier
/// Publishes images, or stores credentials.
pub static REGISTRY: Rule = Rule::t3("containers.registry")
    .reason("pushes, pulls or logs in to a registry; ask the user first")
    .matches(words![
        "docker push my-image:latest", "docker pull nginx", "docker login registry.example.com", "podman push app quay.io/x/app",
        "docker logout registry.example.com", "docker trust sign registry.example.com/app:1", "docker trust revoke registry.example.com/app:1",
    ])
    .not_matches(words!["docker images", "docker search nginx"]);

/// ## What it matches
/// `docker|podman|nerdctl system prune` with `-a`/`--all` or `--volumes` (FEATURES.md §13 docker_critical), and
/// `docker rmi $(docker images -q)` (every image, spelled out).
/// ## Why this tier
/// Deletes every unused image (and with `--volumes` every unused volume's data) in one go; volume data
/// cannot be recovered. Never approvable.
pub static PRUNE_ALL: Rule = Rule::blocked("containers.prune-all")
    .reason("system prune --all/--volumes deletes every unused image and volume; remove the specific images or volumes by name instead")
    .matches(words![
        "docker system prune -a", "docker system prune --all --force", "docker rmi $(docker images -q)", "docker system prune --volumes",
        "docker system prune -af --volumes", "podman system prune -a", "sudo docker system prune -a",
    ])
    .not_matches(words!["docker system prune", "docker system df", "docker system prune --help"])
    .suggest("docker system prune");

/// ## What it matches
/// `docker|podman|nerdctl volume prune` (FEATURES.md §13 docker_critical), and `docker volume rm $(docker volume ls -q)`.
/// ## Why this tier
/// Deletes the data of every volume no container uses right now, which includes stopped databases.
pub static PRUNE_VOLUMES: Rule = Rule::blocked("containers.prune-volumes")
    .reason("volume prune deletes the data of every unused volume; remove a specific volume with `docker volume rm NAME` instead")
    .matches(words!["docker volume prune", "docker volume prune -f", "podman volume prune --force", "docker volume rm $(docker volume ls -q)"])
    .not_matches(words!["docker volume ls", "docker volume rm data"])
    .suggest("docker volume rm data");

/// ## What it matches
/// `podman system reset` (and `nerdctl`/`docker` spellings): wipes all containers, images, volumes and storage.
/// ## Why this tier
/// Irreversible: every volume's data goes with it.
pub static SYSTEM_RESET: Rule = Rule::blocked("containers.system-reset")
    .reason("system reset deletes every container, image and volume; remove what you need to by name instead")
    .matches(words!["podman system reset", "podman system reset -f"])
    .not_matches(words!["podman system info"])
    .suggest("podman system prune");

/// ## What it matches
/// A docker/podman subcommand or group action tiergate does not model (plugins, new verbs).
/// ## Why this tier
/// The docker CLI mutates by default (most of its verbs change state), so unknown is not safe.
pub static UNKNOWN: Rule = Rule::t3("containers.unknown-subcommand")
    .reason("a docker/podman subcommand tiergate does not model; ask the user before running it")
    .matches(words!["docker frobnicate x", "docker volume frob"])
    .not_matches(words!["docker ps"]);

crate::table! {
    /// Global options that take a value (docker, podman, nerdctl).
    GLOBAL_VALUE_OPTS = [
        "-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey", "--connection", "--url", "--root", "--runroot",
        "--storage-driver", "--cgroup-manager", "--identity", "--namespace", "-n", "--address", "-a", "--snapshotter", "--cni-path", "--data-root", "--module",
        "--out", "--events-backend", "--runtime", "--network-cmd-path", "--tmpdir",
    ];
    probe "docker {} rm ps" => T0, "containers.read";
}

crate::table! {
    /// Subcommands that only read.
    READS = ["ps", "images", "logs", "inspect", "version", "info", "stats", "top", "history", "events", "port", "diff", "search", "wait", "healthcheck", "sbom"];
    probe "docker {}" => T0, "containers.read";
}
crate::table! {
    /// Group actions that only read.
    GROUP_READS = [
        "ls", "list", "ps", "inspect", "logs", "top", "stats", "port", "diff", "history", "show", "df", "info", "events", "du", "version", "exists", "services",
        "tree", "cves", "quickview", "recommendations", "compare", "sbom", "policy",
    ];
    probe "docker image {}" => T0, "containers.read";
}
crate::table! {
    /// Subcommands (or group actions) that start or enter containers. Probed as a `container`
    /// action: the top-level `docker run`/`docker create` are read by `run()` before this table.
    RUNS = ["run", "create", "exec", "start", "attach", "commit", "play", "restore", "checkpoint", "debug"];
    probe "docker container {}" => T3, "containers.run";
}
crate::table! {
    /// Registry writes.
    REGISTRY_OPS = ["push", "pull", "login", "logout", "sign", "revoke"];
    probe "docker {}" => T3, "containers.registry";
}
crate::table! {
    /// Changes. Probed as a group action: the top-level `docker init` writes a Dockerfile (containers.build)
    /// before this table is read, while `docker swarm init` is a change.
    CHANGES = [
        "stop", "kill", "restart", "rm", "rmi", "pause", "unpause", "rename", "update", "tag", "untag", "load", "import", "prune", "connect", "disconnect", "use",
        "scale", "rollback", "join", "leave", "init", "promote", "demote", "deploy", "remove", "enable", "disable", "install", "upgrade", "set", "unlock",
        "reload", "mount", "unmount", "reset", "key", "annotate", "add", "cleanup",
    ];
    probe "docker network {}" => T3, "containers.change";
}
crate::table! {
    /// Management groups whose second word is the action.
    GROUPS = [
        "container", "image", "network", "volume", "system", "builder", "buildx", "context", "plugin", "secret", "config", "service", "stack", "swarm", "node",
        "trust", "manifest", "pod", "machine", "generate", "kube", "artifact", "farm", "namespace", "apparmor", "scout",
    ];
    probe "docker {} ls" => T0, "containers.read";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let Some(sub_i) = first_positional(args, GLOBAL_VALUE_OPTS) else {
        // `docker`, `docker --version`, `docker -h`: usage or version only.
        cx.hit(if asks_help(args, HELP_READING) { &HELP } else { &READ });
        return;
    };
    if asks_help(&args[..sub_i], HELP_READING) {
        cx.hit(&HELP);
        return;
    }
    let sub = args[sub_i].text.as_str();
    let rest = &args[sub_i + 1..];
    if sub == "compose" {
        compose_call(rest, inv, cx);
        return;
    }
    if GROUPS.contains(sub) {
        let Some(act_i) = first_positional(rest, words![]) else {
            // A group with no action prints its usage.
            cx.hit(&HELP);
            return;
        };
        // Help before the action, or `--help` right after it (`docker volume prune --help`).
        if asks_help(&rest[..act_i], HELP_READING) || rest.get(act_i + 1..act_i + 2).is_some_and(|w| asks_help(w, ArgSpec::values(words![]).help(Help::LONG))) {
            cx.hit(&HELP);
            return;
        }
        group(sub, &rest[act_i].text, &rest[act_i + 1..], cx, inv);
        return;
    }
    // `--help` of its own before the first operand of the subcommand (`docker run
    // --help`; not `docker run alpine --help`, where it is the container's argument,
    // nor `docker run -e --help alpine`, where it is `-e`'s value).
    if asks_help(rest, ArgSpec::values(words![]).help(Help::LONG).posix()) {
        cx.hit(&HELP);
        return;
    }
    single(sub, rest, cx, inv);
}

fn compose_call(rest: &[Arg], inv: &Invocation, cx: &mut Cx<'_>) {
    super::compose::check(rest, inv, cx);
}

fn single(sub: &str, rest: &[Arg], cx: &mut Cx<'_>, inv: &Invocation) {
    match sub {
        "build" => build(rest, cx),
        // `docker init` writes a Dockerfile and compose file into the tree: authoring.
        "init" => cx.hit(&BUILD),
        "save" | "export" => {
            cx.hit(&READ);
            write_output(rest, cx, inv);
        }
        "cp" => cp(rest, cx, inv),
        // `docker rmi $(docker images -q)` removes every image, like `system prune -a`.
        "rmi" if from_listing(rest, words!["images", "image ls", "image list"]) => cx.hit(&PRUNE_ALL),
        "run" | "create" => run(sub, rest, cx),
        s if READS.contains(s) => cx.hit(&READ),
        s if RUNS.contains(s) => cx.hit(&RUN),
        s if REGISTRY_OPS.contains(s) => cx.hit(&REGISTRY),
        s if CHANGES.contains(s) => cx.hit(&CHANGE),
        s => cx.hit_because(&UNKNOWN, format!("`{s}` is a docker subcommand tiergate does not model; ask the user before running it")),
    }
}

fn group(group: &str, action: &str, rest: &[Arg], cx: &mut Cx<'_>, inv: &Invocation) {
    match (group, action) {
        ("system", "prune") if has_short(rest, 'a') || has_flag(rest, words!["--all", "--volumes"]) => cx.hit(&PRUNE_ALL),
        ("system", "reset") => cx.hit(&SYSTEM_RESET),
        ("volume", "prune") => cx.hit(&PRUNE_VOLUMES),
        // `docker volume rm $(docker volume ls -q)` removes every volume: the prune floor.
        ("volume", "rm" | "remove") if from_listing(rest, words!["volume ls", "volume list"]) => cx.hit(&PRUNE_VOLUMES),
        ("image", "rm" | "remove") if from_listing(rest, words!["images", "image ls", "image list"]) => cx.hit(&PRUNE_ALL),
        ("buildx" | "builder" | "image", "build" | "bake") => build(rest, cx),
        // `buildx imagetools inspect` reads a manifest from the registry; `create` pushes a new one
        // (its `--dry-run` never reaches here: the family drops the flag docker ignores elsewhere).
        ("buildx", "imagetools") => {
            match crate::call::first_operand(rest, ArgSpec::values(words!["--builder", "-f", "--file", "-t", "--tag", "--annotation", "--format"]))
                .map(|o| o.arg.text.as_str())
            {
                Some("inspect") => cx.hit(&READ),
                Some("create") => {
                    cx.hit_because(&REGISTRY, "`buildx imagetools create` pushes a new manifest list to the registry; ask the user first".to_owned())
                }
                _ => cx.hit_because(&UNKNOWN, "a `buildx imagetools` action tiergate does not model; ask the user before running it".to_owned()),
            }
        }
        (_, a) if GROUP_READS.contains(a) => cx.hit(&READ),
        // `docker container export` / `docker image save` write a tarball (stdout or `-o FILE`).
        ("container" | "image", "export" | "save") => {
            cx.hit(&READ);
            write_output(rest, cx, inv);
        }
        // `podman generate kube|systemd` and `podman kube generate` print YAML or unit files.
        ("generate", _) | ("kube", "generate") => cx.hit(&READ),
        ("container", a) if RUNS.contains(a) => cx.hit(&RUN),
        ("pod", "create" | "start") | ("kube", "play") | ("machine", "ssh") => cx.hit(&RUN),
        (_, a) if REGISTRY_OPS.contains(a) => cx.hit(&REGISTRY),
        // `create`/`start` of anything but a container or pod (`network create`) is a change; `rm` is in CHANGES.
        (_, a) if CHANGES.contains(a) || a == "create" || a == "start" => cx.hit(&CHANGE),
        (g, a) => cx.hit_because(&UNKNOWN, format!("`{g} {a}` is a docker action tiergate does not model; ask the user before running it")),
    }
}

fn build(rest: &[Arg], cx: &mut Cx<'_>) {
    let output = value_of(rest, words!["--output", "-o"]).unwrap_or("");
    if has_flag(rest, words!["--push"]) || output.contains("type=registry") || output.contains("push=true") {
        cx.hit(&BUILD_PUSH);
    } else {
        cx.hit(&BUILD);
    }
}

fn run(sub: &str, rest: &[Arg], cx: &mut Cx<'_>) {
    let mut why = Vec::new();
    if has_flag(rest, words!["--privileged"]) {
        why.push("--privileged");
    }
    let host_root = rest.iter().any(|a| a.text.starts_with("/:") || a.text.contains("source=/,") || a.text.contains("src=/,") || a.text.ends_with("source=/"));
    if host_root {
        why.push("the host's root mounted");
    }
    if has_flag(rest, words!["--pid", "--net", "--network", "--ipc", "--userns"]) && rest.iter().any(|a| a.text.ends_with("=host") || a.text == "host") {
        why.push("host namespaces");
    }
    if why.is_empty() {
        cx.hit(&RUN);
    } else {
        cx.hit_because(&RUN_HOST, format!("`docker {sub}` starts a container with {}: it can change the host; ask the user first", why.join(" and ")));
    }
}

fn cp(rest: &[Arg], cx: &mut Cx<'_>, inv: &Invocation) {
    let ops = operand_words(rest, words![]);
    match ops.last() {
        // `docker cp CTR:/path ./dest` reads the container and writes a host path.
        Some((i, dest)) if !dest.contains(':') && ops.len() >= 2 => {
            cx.hit(&READ);
            writes::check_write(cx, &rest[*i], inv.cwd.as_deref());
        }
        _ => cx.hit(&RUN),
    }
}

fn write_output(rest: &[Arg], cx: &mut Cx<'_>, inv: &Invocation) {
    for t in Args::parse(rest, ArgSpec::values(words!["-o", "--output"])) {
        if let Token::Opt { index, value: Some(v), .. } = t {
            writes::check_write(cx, &crate::call::value_arg(rest, index, v), inv.cwd.as_deref());
        }
    }
}

/// True when an operand is a substitution that lists every object (`$(docker volume ls -q)`).
fn from_listing(rest: &[Arg], listings: Words) -> bool {
    rest.iter().any(|a| !a.exact && (a.text.contains("$(") || a.text.contains('`')) && listings.iter().any(|l| a.text.contains(l)))
}

crate::tables![GLOBAL_VALUE_OPTS, READS, GROUP_READS, RUNS, REGISTRY_OPS, CHANGES, GROUPS];
