// The `vscode` tier of `npm test` (scripts/test.js runs it with DC_STATS_FILE set):
//   1. installs code-server + Node 24 into the tools cache (scripts/install-vscode-host.js),
//      unless DC_SKIP_TOOL_INSTALL=1; checks that Chromium is there;
//   2. extension host suite: out/test/vscode/run-host-suite.main.js (mocha inside VS Code);
//   3. UI suite: mocha over out/test/vscode/ui/*.test.js (Playwright driving the workbench);
//   4. adds both suites' counts into $DC_STATS_FILE and exits non-zero on any failure.
// Everything it starts runs in process groups that are killed at the end, on SIGINT/SIGTERM, and
// when the tier's time runs out (DC_VSCODE_TIER_TIMEOUT_MS, default 20 min, install included).
// Expects `node esbuild.js` to have run (scripts/test.js does it first).
// Env passed through: DC_TOOLS_DIR, DC_CHROMIUM, DC_HOST_GREP, DC_KEEP_PROFILE.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { hostPaths } = require("./install-vscode-host.js");

const root = path.resolve(__dirname, "..");
const started = Date.now();
const deadline = started + Number(process.env.DC_VSCODE_TIER_TIMEOUT_MS || 20 * 60_000);
const pgidDir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-vscode-pgids-"));
const totals = { passes: 0, failures: 0, pending: 0 };
let current = null; // pgid of the step running now

function log(msg) {
  console.log(`[vscode] ${msg}`);
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Kills the running step and every process group a step registered in DC_PGID_DIR (code-server, Chromium). */
function killLeftovers(signal = "SIGKILL") {
  if (current) killGroup(current, signal);
  let names = [];
  try {
    names = fs.readdirSync(pgidDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const file = path.join(pgidDir, name);
    const label = fs.readFileSync(file, "utf8").trim();
    if (killGroup(Number(name), signal) && signal === "SIGKILL") log(`killed leftover process group ${name} (${label})`);
    if (signal === "SIGKILL") fs.rmSync(file, { force: true });
  }
}

function finish(code) {
  killLeftovers("SIGKILL");
  fs.rmSync(pgidDir, { recursive: true, force: true });
  if (process.env.DC_STATS_FILE) fs.writeFileSync(process.env.DC_STATS_FILE, JSON.stringify(totals));
  log(`${totals.passes} passed, ${totals.failures} failed, ${totals.pending} pending in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(code);
}

for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(sig, () => {
    log(`${sig}: stopping`);
    killLeftovers("SIGTERM");
    totals.failures += 1;
    finish(sig === "SIGINT" ? 130 : 143);
  });
}
process.on("exit", () => killLeftovers("SIGKILL"));

/** Runs one step in its own process group; kills the group when the tier's time is up. */
function step(name, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const left = deadline - t0;
    if (left <= 0) {
      log(`${name}: no time left`);
      return resolve({ code: 1, timedOut: true });
    }
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
      env: { ...process.env, DC_PGID_DIR: pgidDir, ...env },
    });
    current = child.pid;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      log(`${name}: tier timeout reached, stopping it`);
      killGroup(child.pid, "SIGTERM");
      setTimeout(() => killGroup(child.pid, "SIGKILL"), 5000).unref();
    }, left);
    child.on("error", (e) => log(`${name}: ${e.message}`));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid, "SIGKILL"); // anything the step left in its own group
      current = null;
      log(`${name}: exit ${code ?? signal} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      resolve({ code: code ?? 1, timedOut });
    });
  });
}

/** Runs a step that reports through DC_STATS_FILE and adds its counts; a crash counts as a failure. */
async function suiteStep(name, cmd, args) {
  const statsFile = path.join(os.tmpdir(), `dc-vscode-stats-${process.pid}-${name}.json`);
  fs.rmSync(statsFile, { force: true });
  const { code } = await step(name, cmd, args, { DC_STATS_FILE: statsFile });
  let stats = { passes: 0, failures: 0, pending: 0 };
  if (fs.existsSync(statsFile)) stats = JSON.parse(fs.readFileSync(statsFile, "utf8"));
  fs.rmSync(statsFile, { force: true });
  if (code !== 0 && stats.failures === 0) stats.failures = 1;
  for (const k of Object.keys(totals)) totals[k] += stats[k] || 0;
  killLeftovers("SIGKILL");
  return code === 0 && stats.failures === 0;
}

function listFiles(dir, suffix) {
  const full = path.join(root, dir);
  return fs.existsSync(full) ? fs.readdirSync(full).filter((f) => f.endsWith(suffix)).sort().map((f) => path.join(dir, f)) : [];
}

async function main() {
  // 1. Tools.
  if (process.env.DC_SKIP_TOOL_INSTALL === "1") {
    const p = hostPaths();
    if (!fs.existsSync(p.codeServerMarker) || !fs.existsSync(p.node24Marker)) {
      log(`DC_SKIP_TOOL_INSTALL=1 but code-server is not installed in ${p.toolsDir}: run node scripts/install-vscode-host.js`);
      totals.failures += 1;
      return finish(1);
    }
  } else {
    const { code } = await step("install", process.execPath, [path.join(__dirname, "install-vscode-host.js")]);
    if (code !== 0) {
      log("installing code-server failed (see above); needs g++, make, python3, libkrb5-dev: bash scripts/install-system-deps.sh");
      totals.failures += 1;
      return finish(1);
    }
  }
  const chromium = process.env.DC_CHROMIUM || "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    log(`${chromium} not found. Install it with 'sudo bash scripts/install-system-deps.sh' (Debian's chromium), or point DC_CHROMIUM at a Chromium binary.`);
    totals.failures += 1;
    return finish(1);
  }
  const hostRunner = "out/test/vscode/run-host-suite.main.js";
  if (!fs.existsSync(path.join(root, hostRunner))) {
    log(`${hostRunner} is missing: run node esbuild.js first`);
    totals.failures += 1;
    return finish(1);
  }

  // 2. Mocha inside the extension host.
  console.log("\n--- extension host suite (mocha inside code-server) ---");
  const hostOk = await suiteStep("host-suite", process.execPath, [hostRunner]);

  // 3. Playwright UI suite.
  console.log("\n--- UI suite (playwright + chromium) ---");
  const uiFiles = listFiles("out/test/vscode/ui", ".test.js");
  const mocha = path.join(root, "node_modules", "mocha", "bin", "mocha.js");
  const uiOk = uiFiles.length
    ? await suiteStep("ui-suite", process.execPath, [mocha, "--ui", "tdd", "--reporter", "test/support/stats-reporter.js", "--timeout", "120000", "--exit", ...uiFiles])
    : (log("no UI tests in out/test/vscode/ui"), true);

  finish(hostOk && uiOk ? 0 : 1);
}

main().catch((e) => {
  log(`runner crashed: ${e?.stack ?? e}`);
  totals.failures += 1;
  finish(1);
});
