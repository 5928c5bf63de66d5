//! Windows commands typed bare (no `powershell -Command` wrapper, which is the
//! interpreter family's): cmd built-ins (`del`, `rd`, `move`, `attrib`, `taskkill`,
//! `format`, `diskpart` …), `reg`, `sc`, `vssadmin`, and PowerShell cmdlets by verb.
//!
//! Cmdlets are dispatched by name, so only the names listed in `mod.rs` reach this
//! file. Known gap (needs an engine change): an unlisted `Verb-Noun` name is an
//! unknown program, so it gets the default instead of its verb's tier.

use crate::call::args::ArgSpec;
use crate::call::{first_operand, Arg, Invocation};
use crate::lanes::scripts::Lang;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read-only Windows forms: `dir`, `type`, `findstr`, `reg query`, `sc query|qc`, `vssadmin list`, and cmdlets with
/// read verbs (`Get-ChildItem`, `Get-Content`, `Select-Object`, `Measure-Object`, `Format-Table`, `Out-String`, `Test-Path`).
/// ## Why this tier
/// They list, read or format output only.
pub static READ: Rule = Rule::t0("system.windows.read")
    .reason("reads files, processes or settings only")
    .matches(words![
        "Get-ChildItem C:\\x -Recurse", "Get-Content C:\\path\\Remove-Item-notes.txt", "Format-Table", "Out-String", "reg query HKCU\\x", "sc query foo",
        "vssadmin list shadows", "dir", "Get-Process", "Export-Csv -Path procs.csv",
    ])
    .not_matches(words!["Remove-Item foo", "reg delete HKCU\\x /f", "Get-ChildItem | ForEach-Object { Remove-Item $_ }"]);

/// ## What it matches
/// Windows changes: `del`, `erase`, `rd`, `move`, `ren`, `attrib`, `icacls`, `takeown`, `cipher`, `taskkill`, `reg add|delete|import`,
/// `sc create|delete|config|start|stop`, `vssadmin delete|resize`, and cmdlets with change verbs (`Remove-Item`, `Set-*`,
/// `Stop-*`, `Start-Process`, `Invoke-Expression`, `Out-File`, `Clear-Content` …); unknown `reg`/`sc`/`vssadmin` actions too.
/// ## Why this tier
/// They delete, move or rewrite files, kill processes, or change services, the registry or shadow copies.
pub static CHANGE: Rule = Rule::t3("system.windows.change")
    .reason("changes files, processes, services or the registry on Windows; ask the user first")
    .matches(words![
        "Remove-Item C:\\x -Recurse -Force", "del C:\\x /s /q", "rd /s /q C:\\x", "Set-ExecutionPolicy Bypass", "Stop-Computer", "reg delete HKCU\\x /f",
        "sc delete foo", "vssadmin delete shadows /all", "taskkill /F /IM node.exe", "Invoke-Expression $payload", "Clear-Content foo.txt",
        "reg frobnicate HKCU\\x", "move a b", "Out-File -FilePath log.txt",
    ])
    .not_matches(words!["Get-ChildItem", "reg query HKCU\\x"]);

/// ## What it matches
/// Disk formatting and wiping: `format X:`, `diskpart`, `Format-Volume`, `Clear-Disk`, `Initialize-Disk`, `Remove-Partition`.
/// ## Why this tier
/// The Windows `mkfs`: every file on the volume is destroyed. Never approvable.
pub static DISK: Rule = Rule::blocked("system.windows.disk")
    .reason("formats or wipes a disk or volume; the user must do this by hand")
    .matches(words!["Format-Volume -DriveLetter D", "Clear-Disk", "format C: /q", "diskpart /s wipe.txt", "Format-Volume"])
    .not_matches(words!["Format-Table", "Get-Disk"])
    .suggest("Get-Disk");

crate::table! {
    /// Verbs of the cmdlets listed in `mod.rs` that only read. `Out-*`, `Tee-Object` and
    /// `Export-Csv` have their own arms above; a script block handed to one of these
    /// (`ForEach-Object { … }`, `Where-Object { … }`) is code, read by the PowerShell analyser.
    PS_READ_VERBS = [
        "get", "measure", "select", "where", "sort", "compare", "test", "resolve", "convertfrom", "convertto", "group", "join", "split", "format", "foreach",
        "wait", "import",
    ];
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let p = inv.program.as_str();
    let lower = p.to_ascii_lowercase();
    let first = inv.arg(0).map(str::to_ascii_lowercase);
    match lower.as_str() {
        "format" | "diskpart" | "format-volume" | "clear-disk" | "initialize-disk" | "remove-partition" => cx.hit(&DISK),
        "dir" | "type" | "findstr" => cx.hit(&READ),
        "reg" => cx.hit(if matches!(first.as_deref(), Some("query" | "compare")) { &READ } else { &CHANGE }),
        "sc" => cx.hit(if first.as_deref().is_some_and(|v| v.starts_with('q') || matches!(v, "getdisplayname" | "getkeyname" | "enumdepend" | "sdshow")) {
            &READ
        } else {
            &CHANGE
        }),
        "vssadmin" => cx.hit(if first.as_deref() == Some("list") { &READ } else { &CHANGE }),
        "out-file" => {
            cx.hit(&CHANGE);
            if let Some(target) = first_operand(&inv.args, ArgSpec::values(words![])) {
                writes::check_write(cx, target.arg, inv.cwd.as_deref());
            }
        }
        "out-string" | "out-host" | "out-null" | "out-default" | "out-gridview" | "write-output" | "write-host" | "write-verbose" | "write-warning"
        | "write-error" | "write-information" | "write-debug" | "write-progress" => cx.hit(&READ),
        // `Export-Csv`/`Export-Clixml` and `Tee-Object -FilePath` write a file: authoring, judged by where it lands.
        "export-csv" | "export-clixml" | "tee-object" => {
            cx.hit(&READ);
            let mut it = inv.args.iter();
            while let Some(a) = it.next() {
                if a.text.eq_ignore_ascii_case("-path") || a.text.eq_ignore_ascii_case("-filepath") || a.text.eq_ignore_ascii_case("-literalpath") {
                    if let Some(v) = it.next() {
                        writes::check_write(cx, v, inv.cwd.as_deref());
                    }
                }
            }
        }
        name => match name.split_once('-') {
            Some((verb, _)) if PS_READ_VERBS.contains(verb) => {
                cx.hit(&READ);
                if inv.args.iter().any(|a| a.text.contains('{')) {
                    script_block(inv, cx);
                }
            }
            _ => cx.hit(&CHANGE),
        },
    }
}

/// `ForEach-Object { Remove-Item $_ }`: the block runs once per input object, so the
/// cmdlet is only as read-only as its block. The whole call is handed to the
/// PowerShell analyser, which reads each statement's command word.
fn script_block(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = std::iter::once(inv.program.as_str()).chain(inv.args.iter().map(|a| a.text.as_str())).collect();
    let code = Arg { text: words.join(" "), exact: inv.args.iter().all(|a| a.exact), ..inv.args[0].clone() };
    cx.code(inv, Lang::PowerShell, &[code]);
}

crate::tables![PS_READ_VERBS];
