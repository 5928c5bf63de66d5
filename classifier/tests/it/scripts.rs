//! Script files: interpreters and direct execution read the file (hermetic
//! `MemFiles`), pick the language by interpreter, shebang or extension, and
//! classify what the script really runs.

use crate::check::{check, check_with};
use classifier::MemFiles;

const P: &str = "/work/proj";

fn files() -> MemFiles {
    MemFiles::new()
        .with(&format!("{P}/report.py"), "import json\nprint(json.dumps({'ok': True}))\n")
        .with(&format!("{P}/clean.py"), "import shutil\nshutil.rmtree('build')\n")
        .with(&format!("{P}/nuke.py"), "#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['dropdb', 'prod'])\n")
        .with(&format!("{P}/deploy.py"), "import sys, shutil\nDRY = '--dry-run' in sys.argv\nif not DRY:\n    shutil.rmtree('/srv/app')\n")
        .with(&format!("{P}/build.mjs"), "import fs from 'fs';\nfs.writeFileSync('dist/out.js', 'x');\nconsole.log('ok');\n")
        .with(&format!("{P}/wipe.js"), "const fs = require('fs');\nfs.rmSync('dist', { recursive: true });\n")
        .with(&format!("{P}/run.sh"), "#!/bin/sh\necho building\nls -la\n")
        .with(&format!("{P}/drop.sh"), "#!/bin/bash\npsql -c 'DROP DATABASE prod'\n")
        .with(&format!("{P}/tools/x"), "#!/usr/bin/env python3\nimport os\nos.remove('x')\n")
        .with(&format!("{P}/tools/noshebang"), "dropdb prod\n")
        .with(&format!("{P}/tools/jl"), "#!/usr/bin/env julia\nprintln(1)\n")
        .with(&format!("{P}/x.rb"), "puts 'hi'\n")
        .with(&format!("{P}/m.pl"), "system('dropdb prod');\n")
        .with(&format!("{P}/pkg/cli.py"), "print('usage')\n")
        .with(&format!("{P}/self.sh"), "#!/bin/sh\n./self.sh\n")
        .with(&format!("{P}/app.py"), "import helpers\nfrom tasks.db import reset\nprint('ok')\n")
        .with(&format!("{P}/helpers.py"), "import os\nprint(os.getcwd())\n")
        .with(&format!("{P}/tasks/db.py"), "from .wipe import go\n")
        .with(&format!("{P}/tasks/wipe.py"), "import subprocess\nsubprocess.run(['dropdb', 'prod'])\n")
        .with(&format!("{P}/safe.py"), "import helpers\nimport json\n")
        .with(&format!("{P}/cli.js"), "const d = require('./lib/deploy');\nd.run();\n")
        .with(&format!("{P}/lib/deploy.js"), "const { execSync } = require('child_process');\nexecSync('dropdb prod');\n")
        .with(&format!("{P}/lib/util.mjs"), "export const x = 1;\n")
        .with(&format!("{P}/main.mjs"), "import { x } from './lib/util';\nconsole.log(x);\n")
        .with(&format!("{P}/manage.py"), "import sys\nfrom django.core.management import execute_from_command_line\nexecute_from_command_line(sys.argv)\n")
}

#[test]
fn scripts_are_read_and_judged_by_their_code() {
    let f = files();
    check_with("python3 report.py", &f, "T0");
    check_with("python3 clean.py", &f, "T3");
    check_with("python3 nuke.py", &f, "BLOCKED");
    check_with("node build.mjs", &f, "T0");
    check_with("node wipe.js", &f, "T3");
    check_with("ruby x.rb", &f, "T0");
    check_with("perl m.pl", &f, "BLOCKED");
    check_with("python3 -m pkg.cli", &f, "T0");
    check_with("sudo python3 nuke.py", &f, "BLOCKED");
    check_with("cd tools && ./x", &f, "T3");
}

#[test]
fn direct_execution_uses_the_shebang_or_the_shell() {
    let f = files();
    check_with("./run.sh", &f, "T0");
    check_with("./drop.sh", &f, "BLOCKED");
    check_with("./nuke.py", &f, "BLOCKED");
    check_with("tools/x", &f, "T3");
    check_with("tools/noshebang", &f, "BLOCKED");
    check_with("tools/jl", &f, "T3");
    check_with("/work/proj/run.sh", &f, "T0");
    check_with("./self.sh", &f, "T3");
}

#[test]
fn missing_or_unseen_scripts_ask() {
    let f = files();
    check_with("python3 missing.py", &f, "T3");
    check_with("./missing.sh", &f, "T3");
    check_with("node definitely/not/here-xyz.mjs", &f, "T3");
    check_with("python3 \"$SCRIPT\"", &f, "T3");
    check("./unknown-binary --flag", "T3");
    check("/usr/bin/ls -la", "T0");
}

#[test]
fn simulation_flags_count_only_when_the_script_handles_them() {
    let f = files();
    check_with("python3 deploy.py --dry-run", &f, "T2");
    check_with("python3 deploy.py", &f, "T3");
    check_with("python3 clean.py --dry-run", &f, "T3");
    check_with("python3 nuke.py --dry-run", &f, "BLOCKED");
}

#[test]
fn a_mutating_verb_counts_when_the_script_file_shows_nothing() {
    let f = files();
    check_with("python3 manage.py migrate", &f, "T3");
    check_with("python3 manage.py flush --no-input", &f, "T3");
    check_with("python3 manage.py runserver", &f, "T0");
    check_with("python3 manage.py showmigrations", &f, "T0");
    check("python3 -m alembic upgrade head", "T3");
    check("python3 -m alembic history", "T0");
}

#[test]
fn local_python_imports_are_read_too() {
    let f = files();
    check_with("python3 app.py", &f, "BLOCKED");
    check_with("python3 safe.py", &f, "T0");
    check_with("python3 -c 'from tasks.db import reset; reset()'", &f, "BLOCKED");
    check_with("python3 -c 'import helpers'", &f, "T0");
    check_with("node cli.js", &f, "BLOCKED");
    check_with("node -e \"require('./lib/deploy')\"", &f, "BLOCKED");
    check_with("node main.mjs", &f, "T0");
}

#[test]
fn syntax_checks_never_run_the_script() {
    let f = files();
    check_with("node --check wipe.js", &f, "T1");
    check_with("python3 -m py_compile nuke.py", &f, "T1");
}
