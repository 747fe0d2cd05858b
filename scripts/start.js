// `npm start`: from a fresh clone to Damage Control running in a real VS Code.
//   1. installs node_modules if missing, builds the .vsix (npm run package);
//   2. with a desktop `code` on PATH: installs the .vsix there and opens the demo workspace;
//      otherwise: code-server (installed on first use into ~/.cache/damage-control/tools, pinned,
//      as in the tests) with the .vsix installed, on the demo workspace, and prints the URL.
// Ctrl-C stops everything it started. DC_START_CODE_SERVER=1 forces the code-server route;
// DC_START_PORT picks the port (default 8123); DC_DEMO_DIR the demo workspace.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn, spawnSync } = require("node:child_process");
const { codeServerEnv, userConfigDir } = require("./start-env.js");

const root = path.resolve(__dirname, "..");
const started = Date.now();
const step = (msg) => console.log(`[start ${((Date.now() - started) / 1000).toFixed(1)} s] ${msg}`);

function mustRun(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

mustRun(process.execPath, ["scripts/ensure-deps.js"]);
step("building the .vsix");
mustRun(process.execPath, ["scripts/package.js"], { stdio: ["ignore", "ignore", "inherit"] });
const pkg = require(path.join(root, "package.json"));
const vsix = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
// dist/ now holds the production bundles; the CLI below is the one inside the .vsix.
const cli = path.join(root, "dist", "cli.js");

const demo = path.resolve(process.env.DC_DEMO_DIR || path.join(os.homedir(), "damage-control-demo"));
makeDemo(demo);

function makeDemo(dir) {
  fs.mkdirSync(path.join(dir, ".pi"), { recursive: true });
  fs.mkdirSync(path.join(dir, "data"), { recursive: true });
  const rules = path.join(dir, ".pi", "damage-control-rules.yaml");
  if (!fs.existsSync(rules)) {
    const { DEFAULT_RULES_TEXT } = loadDefaults();
    fs.writeFileSync(rules, DEFAULT_RULES_TEXT.replace("bashToolPatterns:\n", "bashToolPatterns:\n  - pattern: '\\bgit\\s+push\\b'\n    reason: pushing leaves this machine, so a human decides\n    ask: true\n"));
  }
  if (!fs.existsSync(path.join(dir, "data", "keep.txt"))) fs.writeFileSync(path.join(dir, "data", "keep.txt"), "precious\n");
  if (!fs.existsSync(path.join(dir, ".env"))) fs.writeFileSync(path.join(dir, ".env"), "API_KEY=demo-secret\n");
  if (!fs.existsSync(path.join(dir, "README.md"))) fs.writeFileSync(path.join(dir, "README.md"), "# Damage Control demo\n\nRules: .pi/damage-control-rules.yaml. Try: node scripts/demo-ask.js in the Damage Control clone.\n");
}

function loadDefaults() {
  const text = fs.readFileSync(path.join(root, "src", "engine", "rules", "default-rules.yaml"), "utf8");
  return { DEFAULT_RULES_TEXT: text };
}

function howToConnect() {
  // Each agent is guarded wherever it starts once wired (the hooks carry what they need to
  // authenticate), so one command per agent is all there is to say.
  console.log(`
Wire an agent to the guard of ${demo} (one command each; then start it anywhere):
  Claude Code:     node ${cli} install claude --cwd ${demo}
  pi:              node ${cli} install pi
  Codex CLI:       node ${cli} install codex
  Gemini CLI:      node ${cli} install gemini --cwd ${demo}
  Copilot CLI:     node ${cli} install copilot
  VS Code's agent: the command "Damage Control: Guard VS Code's Agent"
See a modal ask without an agent: node ${path.join(root, "scripts", "demo-ask.js")} ${demo}
Your Damage Control configuration (exceptions, user rules): ${userConfigDir()}
  the extension and the CLI share it: node ${cli} exceptions list
What guards the demo, and what is missing: node ${cli} doctor --cwd ${demo}
`);
}

const codeOnPath = spawnSync("code", ["--version"], { stdio: "ignore" }).status === 0;
if (codeOnPath && process.env.DC_START_CODE_SERVER !== "1") {
  step("installing into the desktop VS Code (`code` is on PATH)");
  mustRun("code", ["--install-extension", vsix, "--force"]);
  mustRun("code", [demo]);
  step(`opened ${demo} in VS Code`);
  howToConnect();
  process.exit(0);
}

step("code-server: installing on first use (pinned, cached outside the clone)");
const { ensureVscodeHost } = require("./install-vscode-host.js");
const host = ensureVscodeHost();
const profile = path.join(host.toolsDir, "start-profile");
const flags = ["--config", path.join(profile, "config.yaml"), "--user-data-dir", path.join(profile, "data"), "--extensions-dir", path.join(profile, "extensions")];
// XDG_CONFIG_HOME stays the user's (start-env.js): the extension and the CLI share one configuration.
const env = codeServerEnv(profile);
fs.mkdirSync(path.join(profile, "data", "User"), { recursive: true });
// Auto save off, as in desktop VS Code (the web workbench saves every edit after a second): an
// edit to the rules file, a quick fix included, is in force only once the user saves it.
fs.writeFileSync(
  path.join(profile, "data", "User", "settings.json"),
  JSON.stringify({ "remote.autoForwardPorts": false, "git.openRepositoryInParentFolders": "never", "security.workspace.trust.enabled": false, "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoUpdate": false, "extensions.autoCheckUpdates": false, "workbench.tips.enabled": false, "files.autoSave": "off" }, null, 2),
);
step("installing the .vsix into code-server");
mustRun(host.node24Bin, [host.codeServerEntry, ...flags, "--install-extension", vsix, "--force"], { env, stdio: ["ignore", "ignore", "inherit"] });
const port = Number(process.env.DC_START_PORT || 8123);
const server = spawn(
  host.node24Bin,
  [host.codeServerEntry, ...flags, "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--ignore-last-opened", "--reconnection-grace-time", "5", demo],
  { env, stdio: ["ignore", "ignore", "inherit"], detached: true },
);
const stop = () => {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    /* already gone */
  }
};
process.on("SIGINT", () => {
  stop();
  process.exit(0);
});
process.on("SIGTERM", () => {
  stop();
  process.exit(0);
});
server.on("exit", (code) => {
  console.log(`code-server exited (${code})`);
  process.exit(code ?? 1);
});
waitForHealth(`http://127.0.0.1:${port}/healthz`, 30_000).then((ok) => {
  if (!ok) {
    console.error("code-server did not come up");
    stop();
    process.exit(1);
  }
  step(`ready: open http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)} in a browser (Ctrl-C stops it)`);
  howToConnect();
});

async function waitForHealth(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url);
      if (r.ok) return true;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}
