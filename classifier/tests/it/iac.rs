//! The `iac` family through the full pipeline: terraform's ladder (read, validate,
//! plan, apply, state surgery, init anchors), terragrunt's blocked destroy-all in its
//! bypass forms, and pulumi/cdk/ansible/packer.

use crate::check::check;

#[test]
fn terraform_ladder() {
    for (cmd, class) in [
        ("terraform show", "T0"),
        ("terraform output -json", "T0"),
        ("terraform state list", "T0"),
        ("terraform init", "T0"),
        ("terraform fmt", "T0"),
        ("terraform -chdir=infra providers", "T0"),
        ("terraform validate", "T1"),
        ("terraform fmt -check -recursive", "T1"),
        ("terraform plan -out=tfplan", "T2"),
        ("terraform plan -destroy", "T2"),
        ("terraform -chdir=infra plan", "T2"),
        ("terraform plan -no-color > plan.txt", "T2"),
        ("terraform apply", "T3"),
        ("terraform apply tfplan", "T3"),
        ("terraform apply -auto-approve -target=module.db", "T3"),
        ("terraform apply --dry-run", "T3"),
        ("terraform destroy", "T3"),
        ("terraform init -upgrade", "T3"),
        ("terraform init -input=false -migrate-state", "T3"),
        ("terraform state rm aws_instance.web", "T3"),
        ("terraform state rm aws_instance.web --help", "T3"),
        ("terraform workspace select prod", "T3"),
        ("terraform import aws_instance.web i-123", "T3"),
        ("terraform apply --help", "T0"),
        ("tofu plan", "T2"),
        ("tofu apply", "T3"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn terragrunt_destroy_all_is_blocked_in_every_form() {
    for cmd in [
        "terragrunt run-all destroy", "terragrunt destroy-all", "terragrunt run-all destroy --terragrunt-non-interactive",
        "terragrunt --terragrunt-working-dir live run-all destroy", "terragrunt run --all destroy", "terragrunt run --all -- destroy",
        "terragrunt run-all apply -destroy", "terragrunt run-all destroy --help", "env TF_LOG=debug terragrunt run-all destroy",
        "sh -c 'cd live && terragrunt run-all destroy'",
    ] {
        check(cmd, "BLOCKED");
    }
    check("terragrunt destroy", "T3");
    check("terragrunt run-all apply", "T3");
    check("terragrunt run-all plan", "T2");
    check("terragrunt validate", "T1");
}

#[test]
fn mentions_of_terraform_are_data() {
    check("echo terraform destroy", "T0");
    check("git log --grep='terraform destroy' --oneline", "T0");
    check("grep -rn 'terragrunt run-all destroy' docs/", "T0");
}

#[test]
fn other_iac_tools() {
    for (cmd, class) in [
        ("pulumi preview", "T2"),
        ("pulumi stack ls", "T0"),
        ("pulumi config", "T0"),
        ("pulumi up --yes", "T3"),
        ("pulumi stack rm dev --force", "T3"),
        ("pulumi config set aws:region eu-west-1", "T3"),
        ("cdk diff", "T2"),
        ("cdk synth", "T2"),
        ("cdk deploy --all", "T3"),
        ("ansible-playbook site.yml --check", "T2"),
        ("ansible-playbook site.yml --syntax-check", "T1"),
        ("ansible-playbook site.yml --list-tasks", "T0"),
        ("ansible-playbook -i prod site.yml", "T3"),
        ("ansible all -m ping", "T0"),
        ("ansible web -a 'systemctl restart nginx'", "T3"),
        ("packer validate image.pkr.hcl", "T1"),
        ("packer build image.pkr.hcl", "T3"),
        ("packer build --help", "T0"),
        ("checkov -d .", "T1"),
        ("sam build", "T1"),
        ("sam deploy", "T3"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn unresolved_command_words_never_read() {
    check("terraform $CMD", "T3");
    check("terraform state $SUB x", "T3");
    check("terraform workspace $(cat ws)", "T3");
    check("terraform frobnicate", "T0");
}
