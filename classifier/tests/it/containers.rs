//! The `containers` family through the full pipeline: reads, builds, lifecycle,
//! the prune floor, compose, low-level tools and VMs, with bypass and
//! false-positive forms.

use crate::check::check;

#[test]
fn docker_reads_are_free() {
    for cmd in [
        "docker ps", "docker -D ps", "docker --debug ps", "docker images --format '{{.Repository}}'", "docker logs -f web", "docker stats --no-stream",
        "docker compose ps", "docker compose config", "docker network ls", "podman ps", "docker version", "docker system df",
    ] {
        check(cmd, "T0");
    }
}

#[test]
fn docker_help_is_free_but_not_a_container_argument() {
    check("docker -h rm my-container", "T0");
    check("docker --help rm my-container", "T0");
    check("docker rm --help", "T0");
    check("docker run alpine --help", "T3");
    check("docker run -h myhost alpine", "T3");
}

#[test]
fn builds_are_local_validation_unless_pushed() {
    check("docker build -t app:dev .", "T1");
    check("docker compose build", "T1");
    check("docker buildx build --push -t r/app .", "T3");
}

#[test]
fn lifecycle_and_registry_need_consent() {
    for cmd in [
        "docker run nginx", "docker run -d -p 80:80 nginx", "docker exec -it web sh", "docker stop web", "docker kill web", "docker restart web",
        "docker rm -f web", "docker rmi nginx:latest", "docker push registry.example.com/app:1.0", "docker pull nginx", "docker login registry.example.com",
        "docker compose up -d", "docker container prune -f", "docker image prune -f", "docker network rm backend", "docker volume rm data",
        "docker tag app:dev registry/app:1.0", "docker-compose up -d", "docker -v rm my-container",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn a_command_inside_a_container_is_not_judged_as_a_host_command() {
    // Decision: it runs in the container's file system; the exec itself needs consent.
    check("docker exec web rm -rf /", "T3");
    check("docker run -v /:/host alpine rm -rf /host/etc", "T3");
    check("docker run --privileged -v /:/host alpine sh", "T3");
}

#[test]
fn prune_all_and_volume_prune_are_blocked() {
    for cmd in [
        "docker system prune -a", "docker system prune --all", "docker system prune --volumes", "docker system prune -a --volumes",
        "docker system prune -af --volumes", "docker volume prune", "docker volume prune -f", "podman system prune -a", "podman system reset",
        "sudo docker system prune -a", "/usr/bin/docker volume prune", "bash -c 'docker system prune -af'", "timeout 60 docker volume prune -f",
        "echo ok && docker system prune --all --force",
    ] {
        check(cmd, "BLOCKED");
    }
    check("docker system prune", "T3");
}

#[test]
fn compose_down_with_volumes_is_approvable_and_dry_run_is_simulation() {
    check("docker compose down -v", "T3");
    check("docker compose down", "T3");
    check("docker compose --dry-run up -d", "T2");
}

#[test]
fn docker_words_in_data_do_not_gate() {
    check("echo 'docker system prune -a'", "T0");
    check("grep -r 'docker volume prune' docs/", "T0");
    check("git commit -m 'docs: never run docker system prune -a'", "T0");
}

#[test]
fn low_level_tools_and_vms() {
    check("skopeo inspect docker://nginx", "T0");
    check("skopeo copy docker://a docker://b", "T3");
    check("ctr images ls", "T0");
    check("crictl rmi nginx", "T3");
    check("vagrant status", "T0");
    check("vagrant destroy -f", "T3");
    check("colima start", "T3");
}

#[test]
fn unknown_docker_subcommands_ask() {
    check("docker frobnicate", "T3");
}
