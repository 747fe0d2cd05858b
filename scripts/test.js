// `npm test`: every tier, in order, on a fresh clone. Installs what is missing first.
//   unit    plain Node mocha over the engine, CLI and endpoint (no agents, no VS Code)
//   e2e     the real Claude Code, pi, Codex, Gemini and Copilot CLIs against mock model servers
//   vscode  a real VS Code (code-server) driven by Playwright, its built-in agent against a mock
//           model, plus mocha in the extension host (e2e and vscode run side by side)
//   package the .vsix (npm run package) and the production CLI
// Before the tiers: the build, the type check and ESLint (with the layer rule).
// `npm test -- unit e2e` runs only the named tiers. Prints one "N passed, N failed" line at the end.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn, spawnSync } = require("node:child_process");
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

/**
 * Tiers run in phases. The two slow tiers drive real agents and a real VS Code and share no state
 * (each has its own temp folders, state dir, profile and ports; the tools cache is only read), so
 * they run side by side; each one's output is kept in a log and printed whole when it ends.
 * DC_SERIAL_TIERS=1 runs them one after the other.
 */
const PHASES = [["unit"], ["e2e", "vscode"], ["package"]];
const parallel = process.env.DC_SERIAL_TIERS !== "1";

function startTier(tier, logFile) {
  const [cmd, args] = tierCommands[tier]();
  const statsFile = path.join(os.tmpdir(), `dc-stats-${process.pid}-${tier}.json`);
  fs.rmSync(statsFile, { force: true });
  const started = Date.now();
  if (cmd === "node" && !fs.existsSync(path.join(root, args[0]))) {
    console.error(`[test] tier ${tier}: ${args[0]} is missing`);
    return Promise.resolve({ tier, code: 1, stats: { passes: 0, failures: 1, pending: 0 }, seconds: 0 });
  }
  if (!logFile) console.log(`\n=== tier: ${tier} ===`);
  const out = logFile ? fs.openSync(logFile, "w") : "inherit";
  const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", out, out], env: { ...process.env, DC_STATS_FILE: statsFile } });
  return new Promise((resolve) => {
    child.on("error", (e) => console.error(`[test] tier ${tier}: ${e.message}`));
    child.on("close", (status) => {
      if (typeof out === "number") fs.closeSync(out);
      let stats = { passes: 0, failures: 0, pending: 0 };
      if (fs.existsSync(statsFile)) stats = JSON.parse(fs.readFileSync(statsFile, "utf8"));
      fs.rmSync(statsFile, { force: true });
      const code = status ?? 1;
      // A tier that crashed before reporting, or exited non-zero with no failure counted, still fails.
      if (code !== 0 && stats.failures === 0) stats.failures = 1;
      resolve({ tier, code, stats, seconds: (Date.now() - started) / 1000 });
    });
  });
}

function finish(r) {
  if (r.code !== 0) failedTiers.push(r.tier);
  console.log(`=== tier ${r.tier}: ${r.stats.passes} passed, ${r.stats.failures} failed, ${r.stats.pending} pending in ${r.seconds.toFixed(1)} s ===`);
  for (const k of Object.keys(totals)) totals[k] += r.stats[k];
}

(async () => {
  for (const phase of PHASES) {
    const wanted = phase.filter((t) => tiers.includes(t));
    if (wanted.length === 0) continue;
    if (!parallel || wanted.length === 1) {
      for (const tier of wanted) finish(await startTier(tier));
      continue;
    }
    const started = Date.now();
    console.log(`\n=== tiers side by side: ${wanted.join(" + ")} (output follows as each ends) ===`);
    const logs = Object.fromEntries(wanted.map((t) => [t, path.join(os.tmpdir(), `dc-tier-${process.pid}-${t}.log`)]));
    await Promise.all(
      wanted.map((t) =>
        startTier(t, logs[t]).then((r) => {
          console.log(`\n=== tier: ${t} ===`);
          process.stdout.write(fs.readFileSync(logs[t], "utf8"));
          fs.rmSync(logs[t], { force: true });
          finish(r);
        }),
      ),
    );
    console.log(`=== ${wanted.join(" + ")} together: ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  }
  if (failedTiers.length) console.error(`[test] failed tiers: ${failedTiers.join(", ")}`);
  console.log(`${totals.passes} passed, ${totals.failures} failed` + (totals.pending ? `, ${totals.pending} skipped` : ""));
  process.exit(failedTiers.length ? 1 : 0);
})();
