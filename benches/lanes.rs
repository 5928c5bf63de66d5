//! Per-lane microbenchmarks of the classifier library, in ns per command:
//! plain, compound, heredoc, inline code, script file; the worst-case set
//! (`classifier/tests/it/worst_cases.rs`) in ms each, median of 5; plus
//! library-only throughput over a corpus file when one is given. Prints one JSON object on
//! stdout for `cargo xtask bench` to read; it judges nothing itself.
//!
//! Built as a `harness = false` bench of the classifier crate so it compiles
//! with the release profile: `cargo bench -p classifier --bench lanes [-- CSV]`.

// A bench times itself and reads corpus files: `classifier/clippy.toml`'s purity list is the library's.
#![allow(clippy::disallowed_methods)]

use std::hint::black_box;
use std::time::{Duration, Instant};

mod corpus_csv;

use classifier::{classify_with, FileSource, MemFiles, NoFiles, Request};

const CWD: &str = "/work/proj";
const HOME: &str = "/home/user";
/// Time each lane runs for after warm-up; long enough to average out the
/// scheduler on a busy 2-core machine, short enough for a routine check.
const RUN_FOR: Duration = Duration::from_millis(600);

fn lanes() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("plain", vec!["git status", "ls -la src", "rm -rf build", "kubectl get pods -n web", "cargo test --release"]),
        (
            "compound",
            vec![
                "cd src && ls | grep main; git diff --stat || true", "for f in *.rs; do wc -l \"$f\"; done | sort -n | tail -3",
                "if [ -f Cargo.toml ]; then cargo check; else echo none; fi", "git log --oneline | head -5 && echo $(git rev-parse HEAD)",
            ],
        ),
        (
            "heredoc",
            vec![
                "cat <<EOF > notes.txt\nhello $(date)\nEOF",
                "python3 <<'PY'\nimport os\nprint(os.getcwd())\nPY",
                "kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nEOF",
            ],
        ),
        (
            "inline_code",
            vec![
                "python3 -c 'import os; print(os.listdir(\".\"))'",
                "node -e 'require(\"fs\").readdirSync(\".\").forEach(f => console.log(f))'",
                "bash -c 'cd /tmp && ls -la | grep x'",
                "perl -ne 'print if /TODO/' src/main.rs",
            ],
        ),
        ("script_file", vec!["bash ./scripts/build.sh", "./scripts/build.sh --fast", "sh scripts/check.sh", "npm run build"]),
    ]
}

fn files() -> MemFiles {
    MemFiles::new()
        .with("/work/proj/scripts/build.sh", "#!/bin/sh\nset -e\ncargo build --release\ncp target/release/app dist/\necho done\n")
        .with("/work/proj/scripts/check.sh", "#!/bin/sh\ncargo fmt --check\ncargo clippy -- -D warnings\ncargo test\n")
        .with("/work/proj/package.json", "{\"scripts\": {\"build\": \"tsc -p . && node scripts/bundle.js\"}}")
}

/// Mean ns per command over `cmds`, cycling for `RUN_FOR` after a warm-up pass.
fn time_lane(cmds: &[&str], files: &dyn FileSource) -> f64 {
    let reqs: Vec<Request> = cmds.iter().map(|c| Request::new(c).with_cwd(CWD).with_home(HOME)).collect();
    for r in &reqs {
        black_box(classify_with(r, files));
    }
    let (mut n, start) = (0u64, Instant::now());
    while start.elapsed() < RUN_FOR {
        for r in &reqs {
            black_box(classify_with(black_box(r), files));
        }
        n += reqs.len() as u64;
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

/// The heaviest inputs of the worst-case test set, rebuilt here so release
/// timings can be measured (the test asserts only a loose debug bound).
fn worst_cases() -> Vec<(&'static str, String)> {
    let d = "echo x > /etc/passwd";
    vec![
        ("1mib_command", format!("echo {}", "a".repeat(1 << 20))),
        ("nested_subst_10k", format!("echo {}x{}", "$(echo ".repeat(10_000), ")".repeat(10_000))),
        ("and_10k", vec!["true"; 10_001].join(" && ")),
        ("pipe_10k", vec!["cat"; 10_001].join(" | ")),
        ("semicolon_10k", vec!["ls"; 10_001].join("; ")),
        ("flat_subst_10k", format!("echo {}", vec!["$(true)"; 10_000].join(" "))),
        ("word_100k_plain", format!("echo {}", "a".repeat(100_000))),
        ("word_100k_quotes", format!("echo {}", "'a'\"b\"\\c".repeat(12_500))),
        ("word_100k_dollar", format!("echo {}", "$a".repeat(50_000))),
        ("parens_10k", format!("{}true{}", "(".repeat(10_000), ")".repeat(10_000))),
        ("braces_10k", format!("{}true;{}", "{ ".repeat(10_000), " }".repeat(10_000))),
        ("if_3k", format!("{}ls{}", "if true; then ".repeat(3000), "; fi".repeat(3000))),
        ("quoted_closers_3k", format!("{}ls;{}", "{ : '}' ; ".repeat(3000), " }".repeat(3000))),
        ("sudo_10k", format!("{}{d}", "sudo ".repeat(10_000))),
        ("eval_10k", format!("{}{d}", "eval ".repeat(10_000))),
        ("timeout_10k", format!("{}{d}", "timeout 5 ".repeat(10_000))),
        ("heredoc_unterminated_10k_subst", format!("cat <<EOF\n{}", "line $(echo x > /etc/passwd)\n".repeat(8_000))),
        ("heredoc_tags_unterminated_20k", format!("cat <<a\n{}", (0..20_000).map(|i| format!("x <<b{i}\n")).collect::<String>())),
        ("nul", "ls\0rm -rf /".to_owned()),
    ]
}

/// Median ms of 5 classifications of `cmd`.
fn time_one(cmd: &str) -> f64 {
    let req = Request::new(cmd).with_cwd(CWD).with_home(HOME);
    let mut ms: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            black_box(classify_with(&req, &NoFiles));
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    ms[2]
}

fn corpus(path: &str) -> Vec<String> {
    corpus_csv::commands(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let files = files();
    let mut fields = Vec::new();
    for (name, cmds) in lanes() {
        let ns = if name == "script_file" { time_lane(&cmds, &files) } else { time_lane(&cmds, &NoFiles) };
        fields.push(format!("\"{name}_ns\": {ns:.0}"));
    }
    let mut worst_max = 0.0f64;
    for (name, cmd) in worst_cases() {
        let ms = time_one(&cmd);
        worst_max = worst_max.max(ms);
        fields.push(format!("\"worst_{name}_ms\": {ms:.3}"));
    }
    fields.push(format!("\"worst_max_ms\": {worst_max:.3}"));
    if let Some(path) = args.first() {
        let cmds = corpus(path);
        let reqs: Vec<Request> = cmds.iter().map(|c| Request::new(c).with_cwd(CWD).with_home(HOME)).collect();
        let start = Instant::now();
        for r in &reqs {
            black_box(classify_with(r, &NoFiles));
        }
        let secs = start.elapsed().as_secs_f64();
        fields.push(format!("\"library_corpus_commands\": {}", reqs.len()));
        fields.push(format!("\"library_commands_per_s\": {:.0}", reqs.len() as f64 / secs));
    }
    println!("{{{}}}", fields.join(", "));
}
