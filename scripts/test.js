// `npm test`: every tier, in order, on a fresh clone. Installs what is missing first.
//   unit    plain Node mocha over the engine, CLI and endpoint (no agents, no VS Code)
//   e2e     the real Claude Code and pi CLIs against mock model servers (test/e2e)
//   vscode  a real VS Code (code-server) driven by Playwright, plus mocha in the extension host
//   package the .vsix (npm run package) and the production CLI
// Before the tiers: the build, the type check and ESLint (with the layer rule).
// `npm test -- unit e2e` runs only the named tiers. Prints one "N passed, N failed" line at the end.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { listTests } = require("./list-tests");

const root = path.resolve(__dirname, "..");
const all = ["unit", "e2e", "vscode", "package"];
const asked = process.argv.slice(2).filter((a) => all.includes(a));
const tiers = asked.length ? asked : all;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function mustRun(cmd, args) {
  const code = run(cmd, args);
  if (code !== 0) {
    console.error(`[test] ${cmd} ${args.join(" ")} failed (exit ${code})`);
    console.log("0 passed, 1 failed");
    process.exit(code);
  }
}

/** Each tier is a mocha run (or a script speaking the same stats protocol). */
const tierCommands = {
  unit: () => ["node_modules/.bin/mocha", ["--expose-gc", "--reporter", "test/support/stats-reporter.js", "--timeout", "20000", ...listTests(path.join(root, "out/test/unit"), ".test.js")]],
  e2e: () => ["node", ["scripts/run-e2e.js"]],
  vscode: () => ["node", ["scripts/run-vscode-tests.js"]],
  package: () => ["node", ["scripts/check-package.js"]],
};

mustRun("node", ["scripts/ensure-deps.js"]);
mustRun("node", ["esbuild.js"]);
mustRun("node_modules/.bin/tsc", ["-p", ".", "--noEmit"]);
// ESLint (eslint.config.mjs): typescript-eslint's recommended rules and the layer rule
// (engine ← core ← adapters). Before the tiers: a broken layer fails fast.
{
  const started = Date.now();
  mustRun("node_modules/.bin/eslint", ["--max-warnings", "0", "src"]);
  console.log(`[test] eslint: clean in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const totals = { passes: 0, failures: 0, pending: 0 };
const failedTiers = [];
for (const tier of tiers) {
  const [cmd, args] = tierCommands[tier]();
  if (cmd === "node" && !fs.existsSync(path.join(root, args[0]))) {
    console.error(`[test] tier ${tier}: ${args[0]} is missing`);
    failedTiers.push(tier);
    totals.failures += 1;
    continue;
  }
  const statsFile = path.join(os.tmpdir(), `dc-stats-${process.pid}-${tier}.json`);
  fs.rmSync(statsFile, { force: true });
  console.log(`\n=== tier: ${tier} ===`);
  const started = Date.now();
  const code = run(cmd, args, { DC_STATS_FILE: statsFile });
  let stats = { passes: 0, failures: 0, pending: 0 };
  if (fs.existsSync(statsFile)) stats = JSON.parse(fs.readFileSync(statsFile, "utf8"));
  fs.rmSync(statsFile, { force: true });
  // A tier that crashed before reporting, or exited non-zero with no failure counted, still fails.
  if (code !== 0 && stats.failures === 0) stats.failures = 1;
  if (code !== 0) failedTiers.push(tier);
  console.log(`=== tier ${tier}: ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} pending in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  for (const k of Object.keys(totals)) totals[k] += stats[k];
}

if (failedTiers.length) console.error(`[test] failed tiers: ${failedTiers.join(", ")}`);
console.log(`${totals.passes} passed, ${totals.failures} failed` + (totals.pending ? `, ${totals.pending} skipped` : ""));
process.exit(failedTiers.length ? 1 : 0);
