//! Worst cases: the curated pathological inputs (1 MiB command, 10k nested `$(`,
//! 10k `&&`/`|`, unterminated constructs, NUL, invalid UTF-8, huge words, deep
//! `((`/`{ {`, wrapper towers). Each runs on a thread with a small stack to prove
//! the parser and engine never overflow it, and must answer ask (never allow)
//! within a loose time bound.
//!
//! It does not measure speed: the 50 ms target is measured in release by
//! `cargo xtask bench` (figures in `docs/evidence.md`). The bound here is 2 s
//! because debug builds on a loaded 2-core CI box are slow; a hang or quadratic
//! blow-up still fails it.

use std::time::{Duration, Instant};

use classifier::{classify, Decision, Request, Verdict};

use crate::check::{class, CWD, HOME};

/// A command every build answers T3 through an engine-owned rule
/// (`paths.write-system`), so these cases do not depend on which rule families
/// have landed.
const DANGER: &str = "echo x > /etc/passwd";

/// Stack for the classifying thread. The main thread gets 8 MiB; a hook worker
/// thread may get far less, so the classifier must live within this.
const SMALL_STACK: usize = 512 * 1024;
/// Generous wall-clock bound for one debug-build classification.
const BOUND: Duration = Duration::from_secs(2);

/// Classifies `cmd` on a small-stack thread; returns the verdict and the time.
fn run_small(cmd: String) -> (Verdict, Duration) {
    let h = std::thread::Builder::new()
        .name("worst-case".into())
        .stack_size(SMALL_STACK)
        .spawn(move || {
            let req = Request::new(&cmd).with_cwd(CWD).with_home(HOME);
            let t = Instant::now();
            let v = classify(&req);
            (v, t.elapsed())
        })
        .expect("spawn worst-case thread");
    // A stack overflow aborts the whole test process, so reaching here at all is
    // the no-overflow proof; a panic would surface as Err.
    h.join().expect("classifier panicked on a worst case")
}

/// The case must answer ask (T3, not blocked) or deny, never allow, in bounded time.
#[track_caller]
fn asks(name: &str, cmd: String) -> Verdict {
    let len = cmd.len();
    let (v, took) = run_small(cmd);
    eprintln!("worst case {name}: {len} bytes, {} {} in {took:?}", class(&v), v.rule);
    assert_ne!(v.decision, Decision::Allow, "{name}: allowed ({} {}: {})", class(&v), v.rule, v.reason);
    assert!(took < BOUND, "{name}: took {took:?} (bound {BOUND:?})");
    v
}

#[test]
fn one_mib_command_asks_for_size() {
    let cmd = format!("echo {}", "a".repeat(1024 * 1024));
    let v = asks("1 MiB command", cmd);
    assert_eq!(v.rule, "limits.size");
}

#[test]
fn ten_thousand_nested_substitutions_ask() {
    let n = 10_000;
    let cmd = format!("echo {}x{}", "$(echo ".repeat(n), ")".repeat(n));
    let v = asks("10k nested $(", cmd);
    assert_eq!(v.rule, "limits.nesting");
    // Unterminated: the opening half alone.
    asks("10k unterminated $(", "$(".repeat(n));
}

#[test]
fn ten_thousand_and_segments_ask() {
    let cmd = vec!["true"; 10_001].join(" && ");
    asks("10k &&", cmd);
}

#[test]
fn ten_thousand_pipeline_stages_ask() {
    let cmd = vec!["cat"; 10_001].join(" | ");
    asks("10k |", cmd);
}

#[test]
fn ten_thousand_semicolon_commands_ask() {
    let cmd = vec!["ls"; 10_001].join("; ");
    asks("10k ;", cmd);
}

#[test]
fn ten_thousand_flat_substitutions_ask() {
    let cmd = format!("echo {}", vec!["$(true)"; 10_000].join(" "));
    asks("10k flat $( )", cmd);
}

#[test]
fn unterminated_constructs_ask() {
    for (name, cmd) in [
        ("single quote", "echo 'abc"),
        ("double quote", "echo \"abc"),
        ("substitution", "echo $(ls"),
        ("backtick", "echo `ls"),
        ("subshell", "(ls"),
        ("brace group", "{ ls;"),
        ("if", "if true; then ls"),
        ("for", "for i in a b; do ls"),
        ("parameter expansion", "echo ${HOME"),
        ("arithmetic", "echo $((1+"),
        ("ansi-c quote", "echo $'abc"),
        ("trailing &&", "ls &&"),
        ("trailing |", "ls |"),
    ] {
        asks(name, cmd.to_owned());
    }
}

#[test]
fn unterminated_heredoc_never_allows_a_hidden_command() {
    // bash runs an unterminated heredoc to end of input (with a warning): the body
    // is data for `cat`, so T0 would be honest; what must hold is that a command
    // after a missing delimiter is never hidden as body text of an allow.
    let (v, _) = run_small("cat <<EOF\nhello\n".to_owned());
    eprintln!("unterminated heredoc: {} {}", class(&v), v.rule);
    asks("heredoc into sh, unterminated", "sh <<EOF\necho x > /etc/passwd\n".to_owned());
    asks("heredoc delimiter never closed, rm after", "cat <<EOF\nx\nEOF2\necho x > /etc/passwd\n".to_owned());
    let big = format!("cat <<EOF\n{}", "line $(echo x > /etc/passwd)\n".repeat(10_000));
    asks("unterminated heredoc, 10k substitutions", big);
}

#[test]
fn heredoc_tag_starting_with_an_expansion_asks_at_once() {
    // Found by the `classify` fuzz target (19-byte input, minimised to 8 bytes):
    // brush-parser's tokenizer allocated ~1.4 GB/s on it and never returned.
    asks("<<$(  ${", "<<$(  ${".to_owned());
    asks("<<-$(  ${", "<<-$(  ${".to_owned());
    asks("fuzz original", "<<E,K$(  ${^\\oc>( ${".to_owned());
}

#[test]
fn an_fd_number_that_overflows_asks() {
    // brush-parser unwraps the fd number's parse and panicked here (fuzz find).
    let v = asks("huge fd number", "2222222222222<&222222;o".to_owned());
    assert_eq!(v.rule, "parse.unsupported");
}

#[test]
fn nul_bytes_ask() {
    asks("NUL between commands", "ls\0rm -rf /".to_owned());
    asks("NUL in a word", "cat a\0b".to_owned());
    asks("NUL only", "\0".to_owned());
}

#[test]
fn invalid_utf8_read_lossily_never_lowers() {
    // The library takes &str; a hook or batch caller that decodes lossily hands it
    // U+FFFD. A mutation stays a mutation.
    let cmd = String::from_utf8_lossy(b"echo x > /etc/\xff\xfe\xc0").into_owned();
    let v = asks("invalid UTF-8 (lossy) in a system write", cmd);
    assert!(v.tier >= classifier::Tier::T3);
    let cmd = String::from_utf8_lossy(b"\xff\xfe | sh").into_owned();
    asks("invalid UTF-8 (lossy) piped to sh", cmd);
}

#[test]
fn huge_words_stay_bounded() {
    let n = 100_000;
    // Benign but huge: `echo` of a 100k word is honestly T0; the point is time
    // and stack, so only those are asserted here.
    for (name, cmd) in [
        ("100k plain word", format!("echo {}", "a".repeat(n))),
        ("100k mixed-quote word", format!("echo {}", "'a'\"b\"\\c".repeat(n / 8))),
        ("100k dollar word", format!("echo {}", "$a".repeat(n / 2))),
    ] {
        let len = cmd.len();
        let (v, took) = run_small(cmd);
        eprintln!("worst case {name}: {len} bytes, {} {} in {took:?}", class(&v), v.rule);
        assert!(took < BOUND, "{name}: took {took:?}");
    }
    asks("100k word as a system write target", format!("echo x > /etc/{}", "a".repeat(n)));
    asks("100k word unterminated quote", format!("echo '{}", "a".repeat(n)));
}

#[test]
fn deep_parentheses_ask() {
    let n = 10_000;
    let v = asks("10k ((((", format!("{}true{}", "(".repeat(n), ")".repeat(n)));
    assert_eq!(v.rule, "limits.nesting");
    asks("10k (((( unterminated", "(".repeat(n));
    asks("10k $(( arithmetic", format!("echo {}1{}", "$((".repeat(n), "))".repeat(n)));
}

#[test]
fn deep_brace_groups_ask() {
    let n = 10_000;
    let v = asks("10k { {", format!("{}true;{}", "{ ".repeat(n), " }".repeat(n)));
    assert_eq!(v.rule, "limits.nesting");
    asks("10k ${ nested parameter", format!("echo {}x{}", "${a:-".repeat(n), "}".repeat(n)));
}

#[test]
fn nesting_just_under_the_budget_fits_a_small_stack() {
    // The pre-parse check refuses past MAX_SYNTAX_NESTING; anything at or below it
    // reaches brush-parser, which recurses. This is the deepest input it is handed.
    let n = classifier::limits::MAX_SYNTAX_NESTING;
    // Adjacent `((…))` is an arithmetic command in bash, even 200 deep: it fails
    // as arithmetic and nothing runs (checked against bash 5), so any verdict is
    // honest here; only stack and time are asserted.
    let adjacent = format!("{}{DANGER}{}", "(".repeat(n), ")".repeat(n));
    let (v, took) = run_small(adjacent);
    eprintln!("worst case adjacent (( at budget: {} {} in {took:?}", class(&v), v.rule);
    assert!(took < BOUND, "adjacent (( at budget: took {took:?}");
    for (name, cmd) in [
        ("subshells at budget", format!("{}{DANGER}{}", "( ".repeat(n), " )".repeat(n))),
        ("substitutions at budget", format!("{}{DANGER}{}", "$(".repeat(n - 1), ")".repeat(n - 1))),
        ("brace groups at budget", format!("{}{DANGER};{}", "{ ".repeat(n), " }".repeat(n))),
        ("if at budget", format!("{}{DANGER}{}", "if true; then ".repeat(n), "; fi".repeat(n))),
        ("while at budget", format!("{}{DANGER}{}", "while true; do ".repeat(n), "; done".repeat(n))),
        ("case at budget", format!("{}{DANGER}{}", "case a in a) ".repeat(n), ";; esac".repeat(n))),
        // Each substitution level nests its own subshells: engine recursion
        // (source → list → group) stacks across levels.
        ("subshells inside substitutions", {
            let level = format!("{}x;{}", "{ ".repeat(n / 2), " }".repeat(n / 2));
            let mut c = DANGER.to_owned();
            for _ in 0..classifier::limits::MAX_DEPTH {
                c = format!("echo $( {} ; {c} )", level);
            }
            c
        }),
    ] {
        let len = cmd.len();
        let (v, took) = run_small(cmd);
        eprintln!("worst case {name}: {len} bytes, {} {} in {took:?}", class(&v), v.rule);
        assert_ne!(v.decision, Decision::Allow, "{name}: allowed");
        assert!(took < BOUND, "{name}: took {took:?}");
    }
}

#[test]
fn keyword_towers_and_quoted_closers_ask() {
    // No brackets at all, or closers hidden in quotes: a balance count sees
    // nothing, brush-parser recurses per level. Before the opener count these
    // aborted the process on stack overflow (fail open for the hook).
    let n = 3000;
    for (name, cmd) in [
        ("3k if", format!("{}ls{}", "if true; then ".repeat(n), "; fi".repeat(n))),
        ("3k while", format!("{}ls{}", "while true; do ".repeat(n), "; done".repeat(n))),
        ("3k for", format!("{}ls{}", "for i in a; do ".repeat(n), "; done".repeat(n))),
        ("3k case", format!("{}ls{}", "case a in a) ".repeat(n), ";; esac".repeat(n))),
        ("3k { with quoted }", format!("{}ls;{}", "{ : '}' ; ".repeat(n), " }".repeat(n))),
        ("3k ( with quoted )", format!("{}ls{}", "( : ')' ; ".repeat(n), " )".repeat(n))),
        ("15k if", format!("{}ls{}", "if a; then ".repeat(15_000), "; fi".repeat(15_000))),
    ] {
        let v = asks(name, cmd);
        assert_eq!(v.rule, "limits.nesting", "{name}");
    }
}

#[test]
fn spaced_double_parens_are_not_arithmetic() {
    // brush-parser 0.4 reads `( ( cmd ) )` as an arithmetic command ("nothing
    // runs"); bash runs nested subshells. Found by this file; fixed in parse/.
    asks("( ( … ) )", format!("( ( {DANGER} ) )"));
    asks("((… ) )", format!("(({DANGER}) )"));
    asks("backticked ( ( … ) )", format!("echo `( ( {DANGER} ) )`"));
    asks("bash -c ( ( … ) )", format!("bash -c '( ( {DANGER} ) )'"));
}

#[test]
fn towers_of_wrappers_and_payloads_ask() {
    let n = 10_000;
    asks("10k sudo", format!("{}{DANGER}", "sudo ".repeat(n)));
    asks("10k env", format!("{}{DANGER}", "env ".repeat(n)));
    asks("10k timeout 5", format!("{}{DANGER}", "timeout 5 ".repeat(n)));
    // Each eval level re-parses the rest of the line; the total parsed-bytes
    // budget (`limits::MAX_PARSED_BYTES`) bounds the tower.
    asks("10k eval", format!("{}{DANGER}", "eval ".repeat(n)));
    asks("10k xargs", format!("{}{DANGER}", "xargs ".repeat(n)));
    // bash -c inside bash -c, quoting doubling each level: depth budget, not bytes.
    let mut cmd = DANGER.to_owned();
    for _ in 0..40 {
        cmd = format!("bash -c {}", sq(&cmd));
        if cmd.len() > 200_000 {
            break;
        }
    }
    asks("nested bash -c", cmd);
}

#[test]
fn ten_thousand_heredocs_ask() {
    let mut cmd = String::new();
    for i in 0..10_000 {
        cmd.push_str(&format!("cat <<E{i}\nbody $(echo x > /etc/passwd)\nE{i}\n"));
    }
    asks("10k heredocs", cmd);
}

/// Thousands of heredoc tags none of whose end lines come: the paren pre-check
/// once looked for every tag's end from its line to the end of the source, a
/// quadratic scan (a 209 KB source took 2 s in release). After the first body
/// with no end it skips no more bodies, so the scan stays linear.
#[test]
fn twenty_thousand_unterminated_heredoc_tags_ask_in_bounded_time() {
    let mut cmd = String::from("cat <<a\n");
    for i in 0..20_000 {
        cmd.push_str(&format!("x <<b{i}\n"));
    }
    asks("20k unterminated heredoc tags", cmd);
}

/// Single-quotes `s` for bash.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A run of 40 `(` that is a comment or a heredoc body is text brush-parser reads
/// quickly, so the pre-check lets it through; the same run unclosed outside them
/// is refused before brush-parser backtracks on it (over 20 s).
#[test]
fn paren_runs_in_comments_and_heredoc_bodies_parse_in_bounded_time() {
    let run = "( ".repeat(40);
    for cmd in [format!("echo hi # {run}"), format!("cat <<'EOF' > notes.txt\n{run}\nEOF\nls")] {
        let (v, took) = run_small(cmd.clone());
        assert_ne!(v.rule, "parse.unsupported", "{cmd}");
        assert!(took < BOUND, "{cmd}: took {took:?} (bound {BOUND:?})");
    }
    let v = asks("unclosed paren run", format!("echo {run}"));
    assert_eq!(v.rule, "parse.unsupported");
}
