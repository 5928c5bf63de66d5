//! Programs that rewrite the files they are given, in place: `dos2unix` and its
//! siblings, `strip`, `ranlib`, `patchelf`, `upx`, `codesign`, `mogrify`. Unread,
//! they were "safe by elimination" (`strip /usr/local/bin/tool` was T0); each file
//! operand is now a written path and goes through `writes::check_write`, so inside
//! the tree they stay free (`coreutils.write`) and outside it they ask.
//!
//! Forms that only read (`patchelf --print-rpath`, `upx -t`, `codesign --verify|--validate-constraint`)
//! write nothing; an output option (`strip -o F`, `upx -o F`, `patchelf --output F`)
//! makes its value the written path instead of the operands.

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::rules::Cx;
use crate::words;
use crate::words::Words;

crate::table! {
    pub(super) PROGRAMS = ["dos2unix", "unix2dos", "mac2unix", "unix2mac", "strip", "ranlib", "patchelf", "upx", "codesign", "mogrify"];
    probe "{} /usr/local/bin/tool" => T3, "paths.write-system";
}

/// Value options per program; `output` are the ones naming the written file instead.
struct Spec {
    values: Words,
    output: Words,
    /// Options that make the whole command a read.
    reads: Words,
    /// Options that make it a write whatever `reads` say (`codesign -s ID -v`: `-v` is verbosity there).
    writes: Words,
    /// The help and version words, which make it a read too.
    help: Help,
}

fn spec(program: &str) -> Spec {
    match program {
        "strip" => Spec {
            values: words![
                "-F", "--target", "-I", "--input-target", "-O", "--output-target", "-R", "--remove-section", "-K", "--keep-symbol", "-N", "--strip-symbol",
                "-o",
            ],
            output: words!["-o"],
            reads: words!["--info"],
            writes: words![],
            help: Help::LONG.with(Help::VERSION),
        },
        "patchelf" => Spec {
            values: words![
                "--set-interpreter", "--set-rpath", "--add-rpath", "--add-needed", "--remove-needed", "--set-soname", "--output", "--page-size",
                "--set-os-abi", "--replace-needed",
            ],
            output: words!["--output"],
            reads: words!["--print-interpreter", "--print-rpath", "--print-needed", "--print-soname", "--print-os-abi", "--print-execstack"],
            writes: words![],
            help: Help::LONG.with(Help::VERSION),
        },
        "upx" => Spec {
            values: words!["-o"],
            output: words!["-o"],
            reads: words!["-t", "--test", "-l", "--list", "-V", "-h", "-L", "--license"],
            writes: words![],
            help: Help::VERSION.with(Help::LONG),
        },
        "codesign" => Spec {
            values: words!["-s", "--sign", "-i", "--identifier", "-r", "--requirements", "--entitlements", "-o", "--options", "--prefix", "--keychain"],
            output: words![],
            // `--validate-constraint PLIST` checks a launch-constraint file and signs nothing.
            reads: words!["-v", "--verify", "-d", "--display", "-h", "--hosting", "--validate-constraint"],
            writes: words!["-s", "--sign", "--remove-signature"],
            help: Help::NONE,
        },
        "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac" => Spec {
            values: words!["-c", "--convmode"],
            output: words![],
            reads: words!["-i", "--info", "-h", "-V", "-L", "--license"],
            writes: words![],
            help: Help::LONG.with(Help::VERSION),
        },
        // ranlib takes no value options; mogrify's values (`-resize 50%`) are relative
        // words, read as files they can only ask more, and `-path DIR` is its output.
        _ => Spec { values: words![], output: words![], reads: words!["-v", "-V"], writes: words![], help: Help::LONG.with(Help::VERSION) },
    }
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let s = spec(&inv.program);
    let mut outputs = Vec::new();
    let mut operands = Vec::new();
    let writes = Args::parse(&inv.args, ArgSpec::values(s.values).packed()).any(|t| t.name().is_some_and(|n| s.writes.contains(n)));
    for t in Args::parse(&inv.args, ArgSpec::values(s.values).with_flags(s.reads).packed()) {
        match t {
            Token::Opt { name, .. } if s.reads.contains(name) && !writes => return,
            // `--help`, `--version`: an option of their own, or after an undeclared one, as they were read when declared flags.
            _ if t.name().is_some_and(|n| s.help.holds(n)) => return,
            Token::Opt { name, index, value: Some(v), .. } if s.output.contains(name) => outputs.push(crate::call::value_arg(&inv.args, index, v)),
            Token::Operand(o) => operands.push(o.arg.clone()),
            _ => {}
        }
    }
    // An output option names the written file; the operands are then only read.
    for a in if outputs.is_empty() { &operands } else { &outputs } {
        super::write_to(cx, a, inv.cwd.as_deref());
    }
    super::wrote(cx);
}

/// `yq -i EXPR FILE…` (`--inplace`, the Python yq's `--in-place`): the files are
/// rewritten, each a written path like the programs above; without it yq only prints.
/// The expression is an operand too: read as a relative path it stays in the tree.
pub(super) fn yq(inv: &Invocation, cx: &mut Cx<'_>) {
    const SPEC: ArgSpec = ArgSpec::values(words![
        "-o", "--output-format", "-p", "--input-format", "-I", "--indent", "--from-file", "-s", "--split-exp", "--expression", "--arg", "--argjson",
    ])
    .with_flags(words!["-i", "--inplace", "--in-place"])
    .packed();
    let mut in_place = false;
    let mut operands = Vec::new();
    for t in Args::parse(&inv.args, SPEC) {
        match t {
            Token::Opt { name: "-i" | "--inplace" | "--in-place", .. } => in_place = true,
            Token::Operand(o) => operands.push(o.arg.clone()),
            _ => {}
        }
    }
    if !in_place {
        return;
    }
    for a in &operands {
        super::write_to(cx, a, inv.cwd.as_deref());
    }
    super::wrote(cx);
}

crate::tables![PROGRAMS];
