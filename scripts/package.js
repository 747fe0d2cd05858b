// `npm run package`: the .vsix, built with --production and `vsce package`, then checked: only
// what the extension needs (dist/, media/, the schema, README and the docs/ manual it links, CHANGELOG, LICENSE, package.json).
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
const pkg = require(path.join(root, "package.json"));
const out = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
const vsce = path.join(root, "node_modules", ".bin", "vsce");

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8" });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    process.exit(r.status ?? 1);
  }
  return r.stdout + r.stderr;
}

// Production bundles only (no test or bench output in dist/).
fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
run(process.execPath, ["esbuild.js", "--production"]);
const log = run(vsce, ["package", "--no-dependencies", "-o", out]);
const warnings = log.split("\n").filter((l) => /WARNING|warning/i.test(l));
if (warnings.length) {
  process.stderr.write(`vsce warned:\n${warnings.join("\n")}\n`);
  process.exit(1);
}
const files = run(vsce, ["ls", "--no-dependencies"]).trim().split("\n").filter(Boolean);
const allowed = /^(dist\/(extension|cli|pi-extension|pi-local-guard|decider-worker|telemetry|webview)\.js|dist\/codicons\/codicon\.(css|ttf)|media\/.+|schemas\/.+\.json|docs\/[a-z0-9-]+\.md|docs\/images\/[a-z0-9-]+\.png|README\.md|CHANGELOG\.md|LICENSE|package\.json|package\.nls\.json)$/;
const stray = files.filter((f) => !allowed.test(f));
if (stray.length) {
  process.stderr.write(`unexpected files in the package:\n${stray.join("\n")}\n`);
  process.exit(1);
}
console.log(`${path.relative(root, out)}: ${(fs.statSync(out).size / 1024).toFixed(0)} KB, ${files.length} files`);
for (const f of files) console.log(`  ${f}`);
