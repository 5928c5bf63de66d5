//! `tmux`: a wrapper only for the subcommands that run a shell command
//! (`new-session CMD`, `send-keys …`, `run-shell`); the rest run nothing given.

use super::{Peeled, Wrapper};
use crate::call::Arg;

/// tmux subcommands whose trailing words are a shell command, with their
/// value-taking options. Other subcommands (`ls`, `attach`, `kill-session`) run
/// nothing given and are left to the fallback family.
const TMUX_RUNNERS: &[(&[&str], &[&str])] = &[
    (&["new-session", "new"], &["-c", "-e", "-f", "-F", "-n", "-s", "-t", "-x", "-y"]),
    (&["new-window", "neww"], &["-c", "-e", "-F", "-n", "-t"]),
    (&["split-window", "splitw"], &["-c", "-e", "-l", "-t", "-F", "-p"]),
    (&["respawn-pane", "respawnp", "respawn-window", "respawnw"], &["-c", "-e", "-t"]),
    (&["run-shell", "run"], &["-c", "-d", "-t"]),
    (&["if-shell", "if"], &["-t"]),
    (&["pipe-pane", "pipep"], &["-t"]),
    (&["display-popup", "popup"], &["-b", "-c", "-d", "-e", "-h", "-s", "-S", "-t", "-T", "-w", "-x", "-y"]),
    (&["send-keys", "send"], &["-N", "-t"]),
];

pub(super) fn tmux<'a>(w: &'static Wrapper, words: &'a [Arg]) -> Peeled<'a> {
    // Global options first; `tmux -c CMD` runs CMD through the shell.
    let mut i = 1;
    while let Some(a) = words.get(i).map(|a| a.text.as_str()).filter(|a| a.starts_with('-')) {
        if a == "-c" {
            return match words.get(i + 1) {
                Some(cmd) => Peeled::Shell { name: w.name, script: cmd.text.clone() },
                None => Peeled::UnknownOption { name: w.name, option: a },
            };
        }
        if w.value_opts.contains(a) {
            i += 2;
        } else if w.flag_opts.contains(a) {
            i += 1;
        } else {
            return Peeled::UnknownOption { name: w.name, option: a };
        }
    }
    let Some(sub) = words.get(i).map(|a| a.text.as_str()) else {
        // Bare `tmux` opens a new session running an interactive shell.
        return Peeled::Nothing { name: w.name, harmless: false };
    };
    let Some((names, value_opts)) = TMUX_RUNNERS.iter().find(|(names, _)| names.contains(&sub)) else {
        return Peeled::NotWrapper;
    };
    let mut j = i + 1;
    while let Some(a) = words.get(j).map(|a| a.text.as_str()) {
        if a == "--" {
            j += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        // `-d -s name`, `-dPs name`: flags may be packed; a value option ends the cluster.
        let last = format!("-{}", a.chars().last().unwrap_or('-'));
        j += if value_opts.contains(&a) || (a.len() > 2 && value_opts.contains(&last.as_str())) { 2 } else { 1 };
    }
    let rest: Vec<&str> = words[j.min(words.len())..].iter().map(|a| a.text.as_str()).collect();
    if names[0] == "send-keys" {
        // Keys typed into a pane's shell: the words, less key names, are a command line.
        let typed: Vec<&str> = rest.iter().copied().filter(|k| !matches!(*k, "Enter" | "C-m" | "C-j" | "KPEnter" | "Space")).collect();
        if typed.is_empty() {
            return Peeled::Nothing { name: w.name, harmless: true };
        }
        return Peeled::Shell { name: w.name, script: typed.join(" ") };
    }
    if names[0] == "if-shell" {
        return match rest.first() {
            Some(cond) => Peeled::Shell { name: w.name, script: (*cond).to_owned() },
            None => Peeled::Nothing { name: w.name, harmless: true },
        };
    }
    if rest.is_empty() {
        // A new session, window or pane with no command runs the default shell;
        // `run-shell`/`pipe-pane` without one do nothing.
        let harmless = matches!(names[0], "run-shell" | "pipe-pane");
        return Peeled::Nothing { name: w.name, harmless };
    }
    Peeled::Shell { name: w.name, script: rest.join(" ") }
}
