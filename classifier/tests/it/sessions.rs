//! A session's commands classified in order through an `Overlay` of what earlier
//! steps wrote (`classify_recording`): the one check replays steps and gives the
//! last step's class.

use classifier::lanes::{Overlay, MAX_OVERLAY_BYTES};
use classifier::{classify_recording, NoFiles};

use crate::check::{class, request, CWD};

/// Replays `steps` in order through one overlay; the class of every step.
fn replay(steps: &[&str]) -> Vec<String> {
    let mut overlay = Overlay::new();
    let mut budget = MAX_OVERLAY_BYTES;
    let mut out = Vec::new();
    for s in steps {
        let (v, writes) = classify_recording(&request(s), &overlay.over(&NoFiles));
        overlay.apply(&writes, &NoFiles, &mut budget);
        out.push(format!("{} {}", class(&v), v.rule));
    }
    out
}

#[track_caller]
fn check_last(steps: &[&str], expect: &str) {
    let got = replay(steps);
    let last = got.last().map(String::as_str).unwrap_or("");
    assert!(last.starts_with(expect), "last step of {steps:?} → {last} (all: {got:?})");
}

const PRINTS: &str = "cat > x.py <<'EOF'\nprint('hello')\nEOF";
const DELETES: &str = "cat > x.py <<'EOF'\nimport shutil\nshutil.rmtree('/home/user/projects')\nEOF";

#[test]
fn a_script_written_by_a_heredoc_is_read_when_it_runs() {
    check_last(&[PRINTS, "python3 x.py"], "T0");
    check_last(&[DELETES, "python3 x.py"], "T3");
    // Alone, the script is missing, and a missing script asks.
    check_last(&["python3 x.py"], "T3 interp.script.unreadable");
    // The later write wins; `cd` is threaded; an absolute path reads the same file.
    check_last(&[DELETES, PRINTS, "python3 x.py"], "T0");
    check_last(&[PRINTS, &format!("cd /tmp && python3 {CWD}/x.py")], "T0");
}

#[test]
fn echo_printf_and_tee_writes_carry_their_text() {
    check_last(&["echo 'print(1)' > a.py", "python3 a.py"], "T0");
    check_last(&["echo 'import os' > a.py", "echo 'os.remove(\"/etc/hosts\")' >> a.py", "python3 a.py"], "T3");
    check_last(&["printf 'import os\\nos.system(\"rm -rf /\")\\n' > a.py", "python3 a.py"], "BLOCKED");
    check_last(&["echo 'print(2)' | tee a.py", "python3 a.py"], "T0");
}

#[test]
fn a_write_whose_text_is_not_on_the_command_line_is_unreadable_not_stale() {
    // `sed -i` rewrites the script; the overlay forgets its text instead of keeping the old one.
    check_last(&[PRINTS, "sed -i 's/hello/bye/' x.py", "python3 x.py"], "T3");
    check_last(&[PRINTS, "python3 gen.py > x.py", "python3 x.py"], "T3");
    // An expanding heredoc's text is the shell's to build.
    check_last(&["cat > x.py <<EOF\nprint('$HOME')\nEOF", "python3 x.py"], "T3");
}

#[test]
fn recording_adds_no_hit() {
    for cmd in [PRINTS, DELETES, "echo hi > /etc/motd", "tee -a .claude/settings.json < x", "git commit -m x && cp a b"] {
        let (v, _) = classify_recording(&request(cmd), &NoFiles);
        assert_eq!(v, classifier::classify_with(&request(cmd), &NoFiles), "{cmd}");
    }
}
