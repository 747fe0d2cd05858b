// The e2e tier: installs the pinned agent CLIs if missing (skip with DC_SKIP_TOOL_INSTALL=1),
// then runs mocha over the bundled e2e tests (out/test/e2e, built by `node esbuild.js`, which
// scripts/test.js runs first). Exits with mocha's code; counts go to $DC_STATS_FILE through the
// stats reporter.
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { listTests } = require("./list-tests");

const root = path.resolve(__dirname, "..");

if (process.env.DC_SKIP_TOOL_INSTALL !== "1") {
  const r = spawnSync(process.execPath, [path.join(__dirname, "install-test-tools.js")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[e2e] installing the test tools failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

const tests = listTests(path.join(root, "out", "test", "e2e"));
if (!tests.length) {
  console.error("[e2e] no tests under out/test/e2e; run `node esbuild.js` first");
  process.exit(1);
}

// Generous per-test timeout: each agent run has its own 60 s deadline inside the harness, and a
// test may make a few runs. Sequential on purpose: 2 cores, and the agents are CPU-heavy at start.
// --exit: a server a test forgot to close must not hang CI; the harness's exit handler still
// kills any agent process group left running.
const mocha = path.join(root, "node_modules", "mocha", "bin", "mocha.js");
const args = [mocha, "--reporter", path.join(root, "test", "support", "stats-reporter.js"), "--timeout", "180000", "--slow", "5000", "--exit", ...tests];
const r = spawnSync(process.execPath, args, {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
process.exit(r.status ?? 1);
