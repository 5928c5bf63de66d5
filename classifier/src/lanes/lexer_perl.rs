//! Perl's own sink readers for the lexer lane (lexer_sinks.rs finds the call and
//! its arguments; what a Perl `open` does depends on its mode string).

use super::lexer::Tok;
use super::lexer_sinks::lit;
use super::scripts::Effect;

/// Perl `open`: 2-arg (`">out"`, `"cmd |"`) and 3-arg (`'>', $f`; `'-|', 'cmd'`) forms.
/// A mode the code computes (`open(F, $spec)`) may be `"cmd |"` or `-|`: a
/// command no one has seen. The one-argument form reads the handle's own variable.
pub(super) fn open(args: &[Vec<Tok>]) -> Option<Effect> {
    let Some(spec) = lit(args.get(1)) else {
        return (args.len() >= 2).then_some(Effect::ExecUnseen);
    };
    let s = spec.trim();
    if args.len() >= 3 {
        let target = lit(args.get(2));
        return match s {
            "<" | "<:encoding(UTF-8)" | "<:utf8" | "<:raw" => None,
            // The list form (`'-|', 'rm', '-rf', $d`) runs its words without a shell.
            "-|" | "|-" if args.len() > 3 => Some(args[2..].iter().map(|a| lit(Some(a))).collect::<Option<Vec<_>>>().map_or(Effect::ExecUnseen, Effect::Argv)),
            "-|" | "|-" => Some(target.map_or(Effect::ExecUnseen, Effect::Shell)),
            m if m.starts_with('<') && !m.contains('+') => None,
            _ => Some(Effect::Write(target)),
        };
    }
    if let Some(cmd) = s.strip_suffix('|').or_else(|| s.strip_prefix('|')) {
        return Some(Effect::Shell(cmd.trim().to_owned()));
    }
    if let Some(path) = s.strip_prefix(">>").or_else(|| s.strip_prefix('>')).or_else(|| s.strip_prefix("+<")) {
        return Some(Effect::Write(Some(path.trim().to_owned())));
    }
    None
}
