//! Code forges: `gh` (GitHub) and `glab` (GitLab). Repository deletion is blocked;
//! `api` is read unless a method or body makes it a write (FEATURES.md §2 step 28,
//! "implicit GET"); views and lists read; everything that posts, merges, runs
//! workflows, sets secrets or changes auth is a change. Message and body texts are
//! data: `gh pr create --body 'rm -rf /'` is T3 for creating the PR, never blocked.
//!
//! It does not read `--input` or `--body-file` files.

use crate::call::args::Help;
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::cli::{option_arg, split, Argv, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `repo view|list`, `pr view|list|diff|checks|status|checkout`, `issue view|list|status`, `run view|list|watch`,
/// `workflow view|list`, `release view|list|download`, `search`, `auth status|token`, `config get|list`,
/// `browse`, `status`, `repo clone` into the tree, glab `mr|ci view|list|status|trace`; a bare `gh`.
/// ## Why this tier
/// Reads the forge (a clone or download lands in the working tree: authoring). `auth token` prints
/// a credential the agent already holds; secret flows out of the machine are the `flow` family's job.
pub static READ: Rule = Rule::t0("cloud.forge.read")
    .reason("reads from the forge only")
    .matches(words![
        "gh pr list", "gh pr diff 42", "gh issue view 7", "gh run view 123 --log", "gh repo view", "gh auth status", "gh search issues 'drop table'",
        "glab mr list", "gh repo clone o/r", "gh pr checkout 12", "gh config get editor",
    ])
    .not_matches(words!["gh pr merge 42", "gh repo delete o/r"]);

/// ## What it matches
/// `gh api` / `glab api` with no write method and no body fields (`-f/-F/--field/--raw-field/--input`),
/// or with `-X GET`, and GraphQL queries that are not mutations.
/// ## Why this tier
/// An implicit GET reads (FEATURES.md §2 step 28).
pub static API_READ: Rule = Rule::t0("cloud.forge.api-read")
    .reason("a GET request to the forge API; reads only")
    .matches(words![
        "gh api repos/owner/repo", "gh api repos/o/r/pulls --paginate", "gh api graphql -f query='query { viewer { login } }'", "glab api projects/123",
        "gh api -X GET search/issues -f q=bug", "gh api",
    ])
    .not_matches(words!["gh api -X POST repos/o/r/issues", "gh api repos/o/r/issues -f title=x"]);

/// ## What it matches
/// `gh api`/`glab api` with `-X/--method POST|PUT|PATCH|DELETE`, body fields or `--input`
/// (which make gh POST), or a GraphQL `mutation`.
/// ## Why this tier
/// Writes through the API.
pub static API_WRITE: Rule = Rule::t3("cloud.forge.api-write")
    .reason("writes through the forge API (non-GET method or a request body); ask the user")
    .matches(words![
        "gh api -X DELETE repos/owner/repo/issues/1",
        "gh api repos/foo -X POST",
        "gh api --method DELETE repos/o/r/git/refs/heads/x",
        "gh api repos/o/r/issues -f title=x",
        "glab api -X POST /projects/123/notes",
        "gh api graphql -f query='mutation { addStar(input:{}) { clientMutationId } }'",
        "gh api --method=PATCH repos/o/r",
        "gh api graphql -F query=@q.graphql",
    ])
    .not_matches(words!["gh api repos/o/r"]);

/// ## What it matches
/// Changes on the forge: `pr create|merge|close|comment|review|edit|ready|reopen`, `issue create|comment|close|edit|delete`,
/// `release create|delete|upload`, `workflow run|enable|disable`, `run rerun|cancel|delete`, `secret|variable set|delete`,
/// `repo create|fork|edit|rename|archive|sync|set-default`, `auth login|logout|refresh|setup-git`, `config set`,
/// `extension install`, `gist create`, `label create`, and unknown subcommands (extensions run code).
/// ## Why this tier
/// Publishes, merges, triggers or changes credentials; the user approves.
pub static MUTATE: Rule = Rule::t3("cloud.forge.mutate")
    .reason("changes the forge (posts, merges, runs workflows, sets secrets or auth); ask the user")
    .matches(words![
        "gh pr merge 42 --squash",
        "gh pr create --title t --body 'rm -rf / and drop table users'",
        "gh workflow run deploy.yml --ref main",
        "gh secret set MY_SECRET --body hunter2",
        "gh run rerun 123456",
        "gh repo fork o/r --clone",
        "gh auth login --with-token",
        "gh extension install owner/gh-ext",
        "gh config set editor vim",
        "glab mr merge 3",
        "gh release delete v1.0.0 --yes",
        "gh repo archive o/r",
    ])
    .not_matches(words!["gh pr list", "gh repo delete o/r"]);

/// ## What it matches
/// `gh repo delete`, `glab repo delete`, `glab project delete`, and `api -X DELETE repos/OWNER/REPO`
/// (or glab `projects/ID`).
/// ## Why this tier
/// FEATURES.md §13 repo_delete: deletes the repository with its issues, PRs and history; not approvable.
pub static REPO_DELETE: Rule = Rule::blocked("cloud.forge.repo-delete")
    .reason("deletes the repository with its issues, pull requests and history; archive it instead (gh repo archive), and ask the user to delete it")
    .matches(words![
        "gh repo delete owner/repo", "gh repo delete me/repo --yes", "env FOO=bar gh repo delete owner/repo", "glab project delete my-project",
        "glab repo delete group/proj --yes", "gh repo delete o/r --help", "gh api -X DELETE repos/o/r", "gh api --method DELETE /repos/o/r/",
        "glab api -X DELETE projects/123",
    ])
    .not_matches(words!["gh repo view o/r", "gh repo archive o/r", "gh issue delete 3", "gh api -X DELETE repos/o/r/issues/1"])
    .suggest("gh repo archive owner/repo");

/// ## What it matches
/// `--help`/`-h` or `help` on gh/glab outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("cloud.forge.help")
    .reason("prints help only")
    .matches(words!["gh run cancel --help", "gh pr merge -h", "gh help", "glab --version", "gh"])
    .not_matches(words!["gh repo delete o/r -h"]);

static OPTS: Opts = Opts {
    values: words![
        "-R", "--repo", "-X", "--method", "-f", "-F", "--field", "--raw-field", "--input", "-H", "--header", "-q", "--jq", "-t", "--template", "--hostname",
        "-b", "--body", "-B", "--base", "--title", "-L", "--limit", "-l", "--label", "-s", "--state", "-a", "--assignee", "--json", "--ref", "-r", "--branch",
        "--body-file", "-m", "--message", "--author", "-w", "--workflow", "--env", "--org", "-e", "--with-token", "-g", "--group", "-p", "--project",
        "--search", "--cache", "-D", "--dir", "-O", "--output",
    ],
    bools: words![],
    greedy: false,
};

/// Second words that only read, per first word.
const READS: &[(&str, &[&str])] = &[
    ("repo", &["view", "list", "clone", "browse"]),
    ("pr", &["view", "list", "diff", "checks", "status", "checkout"]),
    ("mr", &["view", "list", "diff", "checks", "status", "checkout"]),
    ("issue", &["view", "list", "status"]),
    ("run", &["view", "list", "watch", "download"]),
    ("ci", &["view", "list", "status", "trace", "get", "lint"]),
    ("pipeline", &["view", "list", "status", "ci"]),
    ("workflow", &["view", "list"]),
    ("release", &["view", "list", "download"]),
    ("auth", &["status", "token"]),
    ("config", &["get", "list"]),
    ("gist", &["view", "list"]),
    ("label", &["list"]),
    ("cache", &["list"]),
    ("secret", &["list"]),
    ("variable", &["list", "get"]),
    ("org", &["list"]),
    ("project", &["view", "list", "field-list", "item-list"]),
    ("ruleset", &["list", "view", "check"]),
    ("codespace", &["list", "logs"]),
    ("extension", &["list", "search", "browse"]),
    ("alias", &["list"]),
    ("gpg-key", &["list"]),
    ("ssh-key", &["list"]),
    ("attestation", &["verify", "download", "trusted-root"]),
    ("agent-task", &["list", "view"]),
    ("snippet", &["view", "list"]),
    ("user", &["events"]),
];
crate::table! {
    /// First words that only read (help topics included: `gh environment`, `gh formatting` …;
    /// `help` itself is answered before this table).
    READ_TOPS = ["search", "status", "browse", "version", "completion", "environment", "formatting", "mintty", "reference", "exit-codes", "accessibility", "actions"];
    probe "gh {}" => T0, "cloud.forge.read";
}

/// `repos/OWNER/REPO` or `projects/ID` exactly (no sub-resource).
fn is_repo_endpoint(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    matches!(parts.as_slice(), ["repos", o, r] if !o.is_empty() && !r.is_empty()) || matches!(parts.as_slice(), ["projects", id] if !id.is_empty())
}

/// The values of `-f/-F/--field/--raw-field`, in every spelling, before `--`.
fn body_fields(inv: &Invocation) -> Vec<&str> {
    Args::parse(&inv.args, ArgSpec::values(words!["-f", "-F", "--field", "--raw-field"]))
        .filter_map(|t| match t {
            Token::Opt { value, .. } => value,
            _ => None,
        })
        .collect()
}

fn api(argv: &Argv<'_>, inv: &Invocation, cx: &mut Cx<'_>) {
    let method = argv.value(&inv.args, words!["-X", "--method"]).map(str::to_ascii_uppercase);
    let fields = body_fields(inv);
    let has_body = !fields.is_empty() || argv.has("--input");
    let graphql = argv.pos.get(1).is_some_and(|p| *p == "graphql");
    let writes = match method.as_deref() {
        Some("GET" | "HEAD") => false,
        Some(_) => true,
        // gh switches to POST when fields are given; a GraphQL query is POSTed but only a mutation writes.
        // A query read from a file (`-F query=@q.graphql`) is not visible: it may be a mutation.
        None if graphql => {
            fields.iter().any(|f| f.to_ascii_lowercase().contains("mutation") || f.split_once('=').is_some_and(|(_, v)| v.starts_with('@')))
                || argv.has("--input")
                || !inv.exact()
        }
        None => has_body,
    };
    // `DELETE /repos/OWNER/REPO` (gh) or `DELETE projects/ID` (glab) is the repository deletion itself.
    if method.as_deref() == Some("DELETE") && argv.pos.iter().skip(1).any(|p| is_repo_endpoint(p)) {
        return cx.hit_because(
            &REPO_DELETE,
            format!("`{} api -X DELETE` on a repository endpoint deletes the repository; archive it instead, and ask the user to delete it", inv.program),
        );
    }
    if writes {
        cx.hit_because(&API_WRITE, format!("`{} api` sends {}; ask the user", inv.program, method.as_deref().unwrap_or("a request body (POST)")));
    } else {
        cx.hit(&API_READ);
    }
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS.with(Help::VERSION));
    let top = argv.pos.first().copied();
    let sub = argv.pos.get(1).copied();
    if matches!(top, Some("repo" | "project")) && sub == Some("delete") {
        return cx.hit(&REPO_DELETE);
    }
    if argv.help {
        return cx.hit(&HELP);
    }
    let Some(top) = top else {
        return cx.hit(&HELP);
    };
    if top == "api" {
        return api(&argv, inv, cx);
    }
    if top == "help" {
        return cx.hit(&HELP);
    }
    // A group word alone (`gh pr`) prints the group's usage.
    let reads = READ_TOPS.contains(top) || READS.iter().any(|(t, subs)| *t == top && sub.is_none_or(|s| subs.contains(&s)));
    if reads {
        // `repo clone o/r DIR` writes DIR; inside the tree that is authoring.
        if matches!((top, sub), ("repo", Some("clone"))) {
            if let Some(dir) = argv.pos.get(3).and_then(|d| inv.args.iter().rev().find(|a| a.text == *d)) {
                writes::check_write(cx, dir, inv.cwd.as_deref());
            }
        }
        // `release|run download -D DIR`, `release download -O FILE` write where they are told.
        if matches!(sub, Some("download")) {
            if let Some(dest) = option_arg(&inv.args, words!["-D", "--dir", "-O", "--output"]) {
                writes::check_write(cx, &dest, inv.cwd.as_deref());
            }
        }
        return cx.hit(&READ);
    }
    let what = match sub {
        Some(s) => format!("`{} {top} {s}`", inv.program),
        None => format!("`{} {top}`", inv.program),
    };
    cx.hit_because(&MUTATE, format!("{what} changes the forge or runs an extension; ask the user"));
}

crate::tables![READ_TOPS];
