//! Renames in the tree read the real file system (issue 29, item 1): the hook asks
//! `FileSource::entry` whether a name exists before it calls a rename authoring.
//! A name that exists (a file, a directory's entry, a symlink) asks; a new name
//! in the tree is free; a symlink leading out of the tree asks.

use super::hook_harness::*;

#[test]
fn a_rename_is_free_only_onto_a_name_that_does_not_exist() {
    let env = Env::new("renames");
    let work = &env.work;
    std::fs::create_dir_all(work.join("src")).unwrap();
    std::fs::write(work.join("src/app.py"), "x = 1\n").unwrap();
    std::fs::write(work.join("app.py_new"), "x = 2\n").unwrap();
    std::os::unix::fs::symlink("/tmp", work.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("src/app.py", work.join("link.py")).unwrap();
    let mut bad = Vec::new();
    for (cmd, expect) in [
        ("mv app.py_new src/new.py", "allow"),
        ("mv app.py_new src/", "allow"),
        ("mv app.py_new src/app.py", "ask"),
        ("mv src/app.py .", "allow"),
        ("mv app.py_new link.py", "ask"),
        ("mv app.py_new elsewhere/x.py", "ask"),
        ("mv app.py_new elsewhere", "ask"),
        ("chmod +x src/app.py", "allow"),
        ("chmod +x elsewhere/x.sh", "ask"),
        ("cd src && mv app.py ../app.py_new", "ask"),
    ] {
        let a = env.bash(&[], cmd);
        if a.decision != expect {
            bad.push(format!("`{cmd}`: expected {expect}, got {} {}", a.decision, a.reason));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
