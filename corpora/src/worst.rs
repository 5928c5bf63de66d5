//! `cargo xtask corpus worst`: generates `corpus/curated/worst.csv`, the worst-case
//! inputs (a 1 MiB command, 10k nested `$(`, 10k `&&` segments, 10k pipes and
//! subshells, unterminated quotes and heredocs). The pathological ones must answer
//! at least ask (family `worst`, expect T3) within the runner's line timeout; merely
//! large ones (100k words, 10k-line heredocs …) may get any verdict, but in time. NUL bytes and
//! invalid UTF-8 cannot live in a CSV file; they are covered by the classifier's own
//! tests and protocol v1's invalid-input handling, not here. `--check` never writes.

use std::path::Path;

use super::{csvout, ensure_file};

const OUT: &str = "corpus/curated/worst.csv";
const MIB: usize = 1 << 20;
const N: usize = 10_000;

/// Large but not pathological inputs: any verdict is right (expect T0 = at least
/// T0), as long as it comes within the time budget and is not an error.
const ANY_VERDICT: &[&str] = &["words-100k", "bash-c-nesting-10", "eval-nesting-10", "heredoc-10k-lines", "heredocs-1k", "control-chars"];

/// (id suffix, command, note). Ids listed in `ANY_VERDICT` only need an answer in time.
fn cases() -> Vec<(&'static str, String, &'static str)> {
    let pad = "a".repeat(MIB);
    vec![
        ("mib-echo", format!("echo {pad}"), "1 MiB command: limits.bytes answers ask"),
        ("mib-then-rm-root", format!("echo {pad}; rm -rf /"), "1 MiB then the floor: never allow"),
        ("nested-subst-10k", format!("echo {}x{}", "$(echo ".repeat(N), ")".repeat(N)), "10k nested $( ): limits.depth"),
        ("nested-subst-unclosed-10k", format!("echo {}", "$(".repeat(N)), "10k unclosed $( (dcg #189 hang)"),
        ("nested-backtick-like", format!("echo {}", "$(echo `".repeat(200)), "mixed unclosed $( and backticks"),
        ("and-chain-10k", format!("{}true", "true && ".repeat(N)), "10k && segments: limits.units"),
        ("and-chain-10k-then-rm", format!("{}rm -rf /", "ls && ".repeat(N)), "10k && segments ending in the floor"),
        ("pipes-10k", format!("{}cat", "cat | ".repeat(N)), "10k pipeline stages"),
        ("semicolons-10k", format!("{}ls", "ls; ".repeat(N)), "10k list items"),
        ("subshells-10k", format!("{}ls{}", "(".repeat(N), ")".repeat(N)), "10k nested subshells: limits.depth"),
        ("groups-10k", format!("{}ls;{}", "{ ".repeat(N), " }".repeat(N)), "10k nested groups"),
        ("param-nesting-10k", format!("echo {}x{}", "${a:-".repeat(N), "}".repeat(N)), "10k nested ${ :- }"),
        ("arith-nesting-10k", format!("echo $(({}1{}))", "(".repeat(N), ")".repeat(N)), "10k nested arithmetic parens"),
        ("words-100k", format!("echo {}", "w ".repeat(100_000)), "100k words"),
        (
            "bash-c-nesting-10",
            (0..10).fold("ls".to_owned(), |acc, _| format!("bash -c {}", sq(&acc))),
            "10 levels of bash -c quoting (the quoting grows 3x per level)",
        ),
        ("eval-nesting-10", (0..10).fold("ls".to_owned(), |acc, _| format!("eval {}", sq(&acc))), "10 levels of eval"),
        ("unterminated-double", "echo \"abc".to_owned(), "unterminated double quote"),
        ("unterminated-single", "echo 'abc".to_owned(), "unterminated single quote"),
        ("unterminated-ansi-c", "echo $'abc".to_owned(), "unterminated ANSI-C quote"),
        ("unterminated-backtick", "echo `ls".to_owned(), "unterminated backtick"),
        ("unterminated-subst", "echo $(ls".to_owned(), "unterminated substitution"),
        ("unterminated-param", "echo ${HOME".to_owned(), "unterminated parameter expansion"),
        ("unterminated-heredoc", "cat <<EOF\nabc".to_owned(), "heredoc without its terminator"),
        ("unterminated-heredoc-python", "python3 - <<'PY'\nimport os\nos.remove('x')".to_owned(), "heredoc to an interpreter without its terminator"),
        ("unterminated-if", "if true; then ls".to_owned(), "if without fi"),
        ("unterminated-case", "case x in a) ls".to_owned(), "case without esac"),
        ("dangling-pipe", "ls |".to_owned(), "pipeline missing its last stage"),
        ("dangling-and", "ls &&".to_owned(), "list missing its last item"),
        ("heredoc-10k-lines", format!("cat <<EOF\n{}EOF", "line\n".repeat(N)), "10k-line heredoc body"),
        ("heredocs-1k", format!("{}ls", "cat <<E\nx\nE\n".repeat(1000)), "1k heredocs"),
        ("control-chars", "echo \u{1}\u{2}\u{7f}\u{1b}[31m".to_owned(), "control characters (NUL itself cannot be stored in CSV)"),
    ]
}

fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

pub fn render() -> anyhow::Result<String> {
    let rows: Vec<Vec<String>> = cases()
        .into_iter()
        .map(|(id, cmd, note)| {
            let (expect, note) = if ANY_VERDICT.contains(&id) {
                ("T0", format!("{note}; any verdict, within the time budget"))
            } else {
                ("T3", format!("{note}; must answer ask"))
            };
            vec![format!("worst-{id}"), cmd, String::new(), expect.to_owned(), "worst".to_owned(), note]
        })
        .collect();
    csvout::render(&["id", "command", "cwd", "expect", "family", "note"], &rows)
}

pub fn generate(root: &Path, check: bool) -> anyhow::Result<i32> {
    ensure_file(root, OUT, &render()?, check, "cargo xtask corpus worst")
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_are_what_the_issue_asks_for() {
        let cases = super::cases();
        let get = |id: &str| cases.iter().find(|c| c.0 == id).map(|c| c.1.clone()).unwrap();
        assert!(get("mib-echo").len() > super::MIB);
        assert_eq!(get("nested-subst-10k").matches("$(").count(), super::N);
        assert_eq!(get("and-chain-10k").matches("&&").count(), super::N);
        assert!(cases.iter().all(|c| !c.1.contains('\0')), "NUL cannot be stored in CSV");
        assert!(super::ANY_VERDICT.iter().all(|id| cases.iter().any(|c| c.0 == *id)), "ANY_VERDICT names a missing case");
    }
}
