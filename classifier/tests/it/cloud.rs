//! The `cloud` family through the full pipeline: aws operations and the aws_critical
//! floor, gcloud/gsutil/bq, az, gh/glab (api methods, data-is-not-execution), and the
//! platform CLIs, with bypass forms (globals, wrappers, quoting, shells, help tricks).

use crate::check::check;

#[test]
fn aws_floor_holds_behind_globals_wrappers_and_help() {
    for cmd in [
        "aws ec2 delete-vpc --vpc-id vpc-1",
        "aws --profile prod --region us-east-1 ec2 delete-vpc --vpc-id vpc-123",
        "aws --region=eu-west-1 ec2 terminate-instances --instance-ids i-0abc i-0def",
        "aws s3 rb s3://prod-data --force",
        "aws s3api delete-bucket --bucket prod-logs",
        "aws rds delete-db-cluster --db-cluster-identifier c",
        "aws kms schedule-key-deletion --key-id k --pending-window-in-days 7",
        "aws route53 delete-hosted-zone --id Z1",
        "aws eks delete-cluster --name prod --help",
        "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
        "sudo aws eks delete-cluster --name prod",
        "/usr/local/bin/aws dynamodb delete-table --table-name users",
        "bash -c \"aws s3 rb s3://b --force\"",
        "echo bucket | xargs aws s3 rb",
        "AWS eks delete-cluster",
        "aws 'ec2' \"delete-vpc\" --vpc-id v",
    ] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn aws_operations_by_verb() {
    for (cmd, class) in [
        ("aws ec2 describe-instances --filters Name=tag:env,Values=prod", "T0"),
        ("aws sts get-caller-identity", "T0"),
        ("aws s3 ls", "T0"),
        ("aws s3 cp s3://b/report.csv .", "T0"),
        ("aws s3 cp s3://b/x /etc/cron.d/x", "T3"),
        ("aws dynamodb batch-get-item --request-items file://r.json", "T0"),
        ("aws cloudformation validate-template --template-body file://t.yaml", "T1"),
        ("aws ec2 run-instances --image-id ami-1 --dry-run", "T2"),
        ("aws s3 sync ./build s3://site --dryrun", "T2"),
        ("aws ec2 run-instances --image-id ami-1", "T3"),
        ("aws s3 cp ./dist s3://site/ --recursive", "T3"),
        ("aws s3 rm s3://b/old.log", "T3"),
        ("aws s3 mv s3://b/a s3://b/b", "T3"),
        ("aws iam attach-role-policy --role-name r --policy-arn arn:aws:iam::aws:policy/AdministratorAccess", "T3"),
        ("aws configure set region eu-west-1", "T3"),
        ("aws lambda delete-function --function-name f --dry-run", "T3"),
        ("aws ec2 delete-key-pair --key-name k", "T3"),
        ("aws frobnicate do-thing", "T3"),
        ("aws ec2 run-instances --help", "T0"),
        ("aws help", "T0"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn gcp_floor_and_anchors() {
    for cmd in [
        "gcloud projects delete my-project",
        "gcloud alpha projects delete my-proj",
        "gcloud --project dev container clusters delete c --region us-central1",
        "gcloud sql databases delete db --instance i",
        "gcloud services disable compute.googleapis.com",
        "gcloud --help projects delete p",
        "gsutil rb gs://b",
        "gsutil rm -r gs://prod-data",
        "gsutil -m rm -rf gs://b/**",
        "env gsutil rm -r gs://x",
        "bq rm -r -f -d ds",
    ] {
        check(cmd, "BLOCKED");
    }
    for (cmd, class) in [
        ("gcloud compute instances list --format=json", "T0"),
        ("gcloud beta secrets list", "T0"),
        ("gcloud config get-value project", "T0"),
        ("gcloud auth print-access-token", "T0"),
        ("gcloud projects add-iam-policy-binding p --member=user:a@b.c --role=roles/owner", "T3"),
        ("gcloud -q storage buckets add-iam-policy-binding gs://b --member=allUsers", "T3"),
        ("gcloud config set project prod", "T3"),
        ("gcloud compute instances delete vm --zone=us-central1-a", "T3"),
        ("gcloud container clusters get-credentials c", "T3"),
        ("gcloud frobnicate thing", "T3"),
        ("gcloud -h compute instances delete vm", "T0"),
        ("gsutil ls -l gs://b/", "T0"),
        ("gsutil -h 'Cache-Control:no-cache' cp x gs://b/x", "T3"),
        ("gsutil cp gs://b/x.txt ./data/", "T0"),
        ("gsutil cp -r ./dist gs://site", "T3"),
        ("bq query --dry_run 'SELECT 1'", "T2"),
        ("bq query --use_legacy_sql=false 'SELECT name FROM ds.t'", "T0"),
        ("bq query 'UPDATE ds.t SET a = 1 WHERE true'", "T3"),
        ("bq rm -t ds.table", "T3"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn azure_floor_and_verbs() {
    for cmd in [
        "az group delete --name prod-rg --yes", "az aks delete -g rg -n prod", "az --subscription prod group delete -n rg --no-wait --yes",
        "az sql server delete -g rg -n srv", "az keyvault purge --name kv", "az network vnet delete -g rg -n vnet",
    ] {
        check(cmd, "BLOCKED");
    }
    for (cmd, class) in [
        ("az vm list -o table", "T0"),
        ("az account show", "T0"),
        ("az group show -n rg", "T0"),
        ("az deployment group what-if -g rg --template-file main.bicep", "T2"),
        ("az vm delete -g rg -n vm1 --yes", "T3"),
        ("az role assignment create --assignee bob --role Owner", "T3"),
        ("az account set --subscription prod", "T3"),
        ("az login", "T3"),
        ("az vm delete --help", "T0"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn forge_api_methods_and_data_in_bodies() {
    for (cmd, class) in [
        ("gh api repos/owner/repo", "T0"),
        ("gh api graphql -f query='query { viewer { login } }'", "T0"),
        ("gh api -X GET search/issues -f q=bug", "T0"),
        ("gh api repos/o/r/issues -f title=x", "T3"),
        ("gh api -XPOST repos/o/r/issues", "T3"),
        ("gh api --method=DELETE repos/o/r/git/refs/heads/x", "T3"),
        ("gh api graphql -f query='mutation { deleteRepository }'", "T3"),
        ("glab api -X POST /projects/123/notes", "T3"),
        ("glab api projects/123", "T0"),
        ("gh pr create --title fix --body 'run rm -rf / and DROP TABLE users'", "T3"),
        ("gh pr comment 7 --body 'please run kubectl delete ns test'", "T3"),
        ("gh issue create --title bug --body 'gh repo delete o/r'", "T3"),
        ("gh search issues 'gh repo delete'", "T0"),
        ("gh pr view 7 --json body -q .body", "T0"),
        ("gh auth token", "T0"),
        ("gh repo clone o/r", "T0"),
        ("gh workflow run deploy.yml --ref main", "T3"),
        ("gh run cancel --help", "T0"),
        ("gh copilot suggest 'list files'", "T3"),
    ] {
        check(cmd, class);
    }
    for cmd in [
        "gh repo delete owner/repo", "gh repo delete o/r --yes --help", "env FOO=bar gh repo delete owner/repo", "glab project delete p",
        "gh -R o/r repo delete",
    ] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn platform_clis() {
    for (cmd, class) in [
        ("heroku logs --tail -a app", "T0"),
        ("heroku config -a app", "T0"),
        ("heroku config:set X=1 -a app", "T3"),
        ("heroku apps:destroy -a app --confirm app", "T3"),
        ("heroku run bash -a app", "T3"),
        ("fly status", "T0"),
        ("fly deploy", "T3"),
        ("fly apps destroy app", "T3"),
        ("vercel", "T3"),
        ("vercel --prod", "T3"),
        ("vercel ls", "T0"),
        ("netlify status", "T0"),
        ("netlify deploy --prod", "T3"),
        ("firebase deploy", "T3"),
        ("wrangler tail", "T0"),
        ("wrangler deploy", "T3"),
        ("doctl compute droplet list", "T0"),
        ("doctl compute droplet delete web-1", "T3"),
        ("doctl kubernetes cluster delete prod", "BLOCKED"),
        ("supabase db diff", "T2"),
        ("supabase db push", "T3"),
    ] {
        check(cmd, class);
    }
}

#[test]
fn unresolved_words_never_lower() {
    check("aws ec2 $OP --vpc-id v", "T3");
    check("gcloud projects $VERB p", "T3");
    check("gh $SUB", "T3");
    check("gh api -X \"$METHOD\" repos/o/r/issues", "T3");
    check("aws s3 cp s3://b/x \"$DEST\"", "T3");
    check("bq query \"$SQL\"", "T3");
}

#[test]
fn downloads_are_writes_where_they_land() {
    check("gh release download v1 -D .claude/hooks", "BLOCKED");
    check("gh run download 123 --dir ./artifacts", "T0");
    check("aws s3 cp s3://b/settings.json .claude/settings.json", "BLOCKED");
    check("gsutil cp gs://b/x ~/.bashrc", "T3");
    check("az storage blob download --account-name a -c c -n x -f ~/.ssh/config", "T3");
    check("az storage blob download --account-name a -c c -n x -f ./x", "T0");
}

#[test]
fn database_and_cluster_analogues_are_on_the_floor() {
    check("aws redshift delete-cluster --cluster-identifier c --skip-final-cluster-snapshot", "BLOCKED");
    check("aws efs delete-file-system --file-system-id fs-1", "BLOCKED");
    check("gcloud spanner instances delete i", "BLOCKED");
    check("gcloud kms keys versions destroy 1 --key k --keyring r --location global", "BLOCKED");
    check("aws redshift describe-clusters", "T0");
    check("gcloud spanner instances list", "T0");
}

#[test]
fn group_words_that_look_like_verbs_do_not_decide() {
    check("gcloud logging logs delete projects/p/logs/x", "T3");
    check("gcloud functions logs read fn", "T0");
    check("aws ses verify-email-identity --email-address a@b.c", "T3");
    check("gcloud auth login", "T3");
    check("gcloud auth list", "T0");
}

#[test]
fn option_values_between_path_words_do_not_hide_the_floor() {
    check("gcloud container --project p clusters delete c", "BLOCKED");
    check("gcloud sql --project=p instances delete db", "BLOCKED");
    check("az group --subscription s delete -n rg", "BLOCKED");
    check("doctl kubernetes --context ctx cluster delete c", "BLOCKED");
}

#[test]
fn credential_wrappers_are_seen_through() {
    check("aws-vault exec prod -- aws s3 rb s3://b --force", "BLOCKED");
    check("aws-vault exec prod -- aws sts get-caller-identity", "T0");
    check("aws-vault exec --duration 1h prod -- terraform apply", "T3");
    check("aws-vault exec prod aws s3 ls", "T0");
    check("doppler run -- kubectl delete ns prod", "BLOCKED");
    check("doppler run --command 'npm test && gh repo delete o/r'", "BLOCKED");
    check("op run --env-file .env -- terraform plan", "T2");
    check("saml2aws exec -- aws ec2 describe-instances", "T0");
    check("chamber exec svc -- aws ec2 terminate-instances --instance-ids i-1", "BLOCKED");
    check("aws-vault exec prod", "T3");
    check("op item get db --fields password", "T0");
    check("op inject -i tpl.env -o ~/.env", "T3");
}

#[test]
fn a_file_named_help_is_not_a_help_request() {
    check("aws s3 cp help s3://b/x", "T3");
    check("aws ec2 describe-instances help", "T0");
}
