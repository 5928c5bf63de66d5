//! The batch runner: a hung line becomes an error row and the rows after it still
//! get answers from a fresh child.

use std::time::Duration;

use replay::build::Subject;
use replay::runner::{run, Job};

use crate::repo::{check, Repo};

#[test]
fn a_line_that_hangs_becomes_an_error_row_not_a_hang() {
    let repo = Repo::new();
    assert_eq!(check(&repo.config("HEAD")).0, 0);
    let bin = repo.root.join("target/release/tiergate").display().to_string();
    let subject = Subject { argv: vec![bin, "batch".into()], build_id: None, label: "head".into() };
    let job = |c: &str| Job::new(c, None);
    let jobs = [job("ls"), job("sleep-forever"), job("rm -rf /"), job("cargo test")];
    let t = std::time::Instant::now();
    let v = run(&subject, &jobs, Duration::from_millis(700), &|| {}).unwrap();
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(v.len(), 4);
    assert_eq!(v[0].rule, "default");
    assert!(v[1].error.as_deref().unwrap_or("").contains("no answer within"), "{:?}", v[1]);
    assert_eq!((v[2].class, v[2].rule.as_str()), (replay::protocol::Class::Blocked, "fs.rm.root"));
    assert_eq!(v[3].rule, "cargo.test");
}
