//! The parser, run on words as typed: every task, typed value and error.
use super::*;

fn p(s: &str) -> Result<Cli, ParseFailure> {
    parse(&s.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
}

fn replay(s: &str) -> ReplayArgs {
    match p(&format!("replay {s}")).unwrap_or_else(|f| panic!("{}", f.message)).task {
        Task::Replay(r) => r,
        other => panic!("{other:?}"),
    }
}

fn ok(s: &str) -> Task {
    p(s).unwrap_or_else(|f| panic!("`{s}`: {}", f.message)).task
}

fn err(s: &str) -> ParseFailure {
    match p(s) {
        Ok(cli) => panic!("`{s}` parsed: {cli:?}"),
        Err(f) => f,
    }
}

#[test]
fn accept_takes_several_only_ids() {
    let r = replay("accept --only a b,c --check");
    assert!(matches!(r.action, Some(ReplayAction::Accept)) && r.flags.check);
    assert_eq!(r.flags.only(), ["a", "b", "c"]);
    // Flags before the subcommand count too (they are global to `replay`).
    let r = replay("--base main accept --only x,,y");
    assert_eq!((r.flags.base.as_deref(), r.flags.only()), (Some("main"), vec!["x".to_owned(), "y".to_owned()]));
}

#[test]
fn typed_values_parse_and_bad_ones_are_usage_errors() {
    let r = replay("--shard 2/3 --timeout 2.5 --corpus curated,truth,curated --history a --history b --require-base");
    assert_eq!(r.flags.shard.map(Shard::pair), Some((2, 3)));
    assert_eq!(r.flags.timeout, Some(2.5));
    assert_eq!(r.flags.corpora(), [Kind::Curated, Kind::Truth]);
    assert_eq!(r.flags.history, [PathBuf::from("a"), PathBuf::from("b")]);
    assert!(r.flags.require_base && r.action.is_none());
    assert_eq!(replay("").flags.corpora(), Kind::ALL);
    assert_eq!(replay("--base=main").flags.base.as_deref(), Some("main"));
    for bad in ["--shard 4/3", "--shard x", "--shard 0/2", "--timeout x", "--timeout -1", "--base", "--runs 3"] {
        let f = err(&format!("replay {bad}"));
        assert!(f.to_stderr && f.code == replay::exit::USAGE, "{bad}: {}", f.message);
    }
}

#[test]
fn an_unknown_corpus_is_an_error_listing_the_valid_ones() {
    // The valid names are the registered kinds, in their order.
    let valid = format!("[possible values: {}]", replay::corpus::Kind::ALL.map(|k| k.as_str()).join(", "));
    assert!(valid.contains("truth, history, curated"), "{valid}");
    let f = err("replay --corpus truth,histroy");
    assert_eq!(f.code, replay::exit::USAGE);
    assert!(f.message.contains("'histroy'") && f.message.contains(&valid), "{}", f.message);
    assert!(f.message.contains("a similar value exists: 'history'"), "{}", f.message);
    assert!(err("bench replay --corpus nope").message.contains(&valid));
}

#[test]
fn a_misspelt_flag_or_task_suggests_the_right_one() {
    let f = err("replay --requre-base");
    assert!(f.message.contains("unexpected argument '--requre-base'") && f.message.contains("a similar argument exists: '--require-base'"), "{}", f.message);
    assert_eq!(f.code, replay::exit::USAGE);
    assert!(err("replya").message.contains("a similar subcommand exists: 'replay'"));
    assert!(err("replay acept").message.contains("a similar subcommand exists: 'accept'"));
    assert!(err("coverage --chek").message.contains("'--check'"));
    assert!(err("bench clasify").message.contains("a similar value exists: 'classify'"));
}

#[test]
fn against_is_split_like_a_shell() {
    let args: Vec<String> = ["replay", "--against", r#"env 'A=b c' "./t g" batch"#].map(str::to_owned).to_vec();
    let Task::Replay(r) = parse(&args).ok().unwrap().task else { panic!() };
    assert_eq!(r.flags.against, Some(Argv(vec!["env".into(), "A=b c".into(), "./t g".into(), "batch".into()])));
    assert_eq!(argv_of(r"a\ b"), Ok(Argv(vec!["a b".into()])));
    for bad in ["'open", "  ", ""] {
        let args: Vec<String> = ["replay", "--against", bad].map(str::to_owned).to_vec();
        let f = parse(&args).err().unwrap();
        assert!(f.code == replay::exit::USAGE && f.message.contains("--against"), "{bad:?}: {}", f.message);
    }
}

#[test]
fn help_exits_zero_and_probe_usage_errors_exit_128() {
    for h in ["--help", "replay --help", "help replay", "corpus curated --help", "mutants merge --help"] {
        let f = err(h);
        assert!(!f.to_stderr && f.code == 0, "{h}");
        assert!(f.message.contains("Usage: cargo xtask"), "{h}: {}", f.message);
    }
    assert!(err("replay --help").message.contains("--require-base"));
    let none = err("");
    assert!(none.code == replay::exit::USAGE && none.message.contains("replay"));
    assert_eq!(err("probe --command ls").code, crate::probe::USAGE);
    assert_eq!(err("probe --command ls --expect maybe").code, crate::probe::USAGE);
}

#[test]
fn the_other_tasks_keep_their_spellings() {
    let Task::Mutants(m) = ok("mutants --shard 2/4 --rules git --sample 10 --ops tier,widen --list") else { panic!() };
    assert_eq!((m.shard.map(Shard::pair), m.rules.as_deref(), m.sample, m.list), (Some((2, 4)), Some("git"), Some(10), true));
    assert_eq!(m.ops.as_deref(), Some(&["tier".to_owned(), "widen".to_owned()][..]));
    assert!(p("mutants --shard 5/4").is_err() && p("mutants --bogus").is_err());
    let Task::Mutants(m) = ok("mutants --per-family 12 --ids survivors.txt") else { panic!() };
    assert_eq!((m.per_family, m.ids.as_deref()), (Some(12), Some(std::path::Path::new("survivors.txt"))));
    assert!(p("mutants --per-family x").is_err());
    let Task::Mutants(m) = ok("mutants --population code --in-diff HEAD~1 --sample 24 --check") else { panic!() };
    let o = m.options();
    assert_eq!((o.population, o.in_diff.as_deref(), o.sample, o.check), (vec![mutation::mutant::Population::Code], Some("HEAD~1"), Some(24), true));
    assert_eq!(ok_mutants("mutants --population tables,code").population.len(), 2);
    let bad = err("mutants --population cod");
    assert!(bad.message.contains("code"), "a did-you-mean names the population: {}", bad.message);
    assert!(matches!(ok("mutants merge a b"), Task::Mutants(MutantsArgs { merge: Some(MutantsMerge::Merge { .. }), .. })));
    let m = ok_mutants("mutants --unreached --out target/u");
    assert!(m.unreached && m.out.as_deref() == Some(std::path::Path::new("target/u")));
    assert!(p("mutants --unreached --sample 3").is_err(), "--unreached runs no mutant, so it takes no selection");
    let Task::Bench(b) = ok("bench lanes hook --check") else { panic!() };
    assert_eq!((b.groups, b.check, b.replay.is_none()), (vec![BenchGroup::Lanes, BenchGroup::Hook], true, true));
    let Task::Bench(BenchArgs { replay: Some(BenchReplay::Replay(r)), .. }) = ok("bench replay --runs 5 --save") else { panic!() };
    assert_eq!((r.runs, r.save, r.base.as_str()), (5, true, "HEAD~1"));
    assert!(p("bench replay --runs x").is_err() && p("bench replay --runs 0").is_err());
    let Task::Bench(BenchArgs { replay: Some(BenchReplay::Batch(b)), .. }) = ok("bench batch --base 24b3604") else { panic!() };
    assert_eq!(b.base, "24b3604");
    assert!(p("bench batch --bsae x").is_err());
    let Task::Bisect(b) = ok("bisect --corpus-row git-1 --regress loosened") else { panic!() };
    assert_eq!((b.corpus_row.as_deref(), b.regress, b.bad.as_str()), (Some("git-1"), Regress::Loosened, "HEAD"));
    assert!(p("bisect --good HEAD~2").is_err() && p("bisect --command a --corpus-row b").is_err() && p("bisect --command a --regress up").is_err());
    assert!(matches!(ok("corpus refresh --check --wheel w.whl"), Task::Corpus { task: CorpusTask::Refresh { check: true, wheel: Some(_) } }));
    assert!(p("corpus curated --wheel w").is_err());
    assert!(matches!(ok("replay merge d/ --base main"), Task::Replay(ReplayArgs { action: Some(ReplayAction::Merge { .. }), .. })));
    assert!(p("replay merge").is_err());
    let Task::Oracle(o) = ok("oracle --sample 400 --shard 2/3 --corpus=truth --timeout 5") else { panic!() };
    assert_eq!((o.sample, o.shard.map(Shard::pair), o.corpus.as_slice(), o.timeout), (Some(400), Some((2, 3)), &["truth".to_owned()][..], Some(5)));
    let Task::Oracle(o) = ok("oracle") else { panic!() };
    assert_eq!(o.corpus, ["tldr", "truth"]);
    assert!(p("oracle --corpus bogus").is_err() && p("oracle --shard 0/3").is_err() && p("oracle --check").is_err());
    assert!(matches!(ok("oracle --metamorphic --check"), Task::Oracle(OracleArgs { check: true, metamorphic: true, .. })));
}

fn ok_mutants(s: &str) -> MutantsArgs {
    match ok(s) {
        Task::Mutants(m) => m,
        other => panic!("{other:?}"),
    }
}
