// Installs the pinned agent CLIs the e2e tier drives (real Claude Code builds, real pi, Node 22)
// into ${DC_TOOLS_DIR:-~/.cache/damage-control/tools}, one npm prefix per tool. Idempotent: a tool
// whose marker file and entry file are present is skipped. The marker is written only after the installed tool
// answered `--version` with the exact pinned version, so a half-finished or wrong install is
// never trusted. Needs only Node + npm and the npm registry.
//
//   node scripts/install-test-tools.js                  install whatever is missing
//   node scripts/install-test-tools.js pi-1.6.0 node22  only these (dependencies are added)
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const tools = require("./test-tools.js");

const { TOOLS } = tools;

/** Two at once: the machines this runs on have 2 cores, and npm is CPU-bound while extracting. */
const JOBS = Math.max(1, Number(process.env.DC_TOOLS_JOBS) || 2);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (msg) => console.error(`[test-tools] ${msg}`);

/**
 * npm 11.19 has an allowScripts policy. Claude Code's postinstall must run: it copies the native
 * binary over the bin/claude.exe placeholder. Everything else with a script is denied explicitly
 * (pi does not need them; koffi is Windows-only TUI support), so the outcome does not depend on
 * npm's default for unreviewed scripts (today: run with a warning; `strict-allow-scripts`: fail).
 * Name-only keys on purpose: a pinned `pkg@1.2.3` key never matched when the user's npmrc has
 * `omit-lockfile-registry-resolved=true` (the lockfile then has no "resolved" URL to pin against).
 * The version is pinned exactly in `dependencies` anyway.
 */
function allowScriptsFor(spec) {
  if (spec.kind === "claude") return { [spec.pkg]: true };
  if (spec.kind === "pi") return { "@google/genai": false, protobufjs: false, koffi: false };
  // Gemini CLI: keytar and node-pty only serve the interactive UI and keychain; -p never needs them.
  // OpenCode: its postinstall puts the platform's native binary at bin/opencode.exe.
  if (spec.pkg === "opencode-ai") return { "opencode-ai": true };
  if (spec.kind === "agent") return { "@github/keytar": false, "node-pty": false, "@lydell/node-pty": false, protobufjs: false };
  // Peer hook CLIs run from their published JavaScript; none of their install scripts is needed.
  return {};
}

/**
 * The child npm must act on the staging prefix only. `npm test` exports npm_config_prefix,
 * npm_config_local_prefix, npm_package_* and friends, which would point a nested npm back at
 * this repository. Keep only settings a user may deliberately set in the environment.
 */
function npmEnv() {
  const keep = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_cafile", "npm_config_strict_ssl", "npm_config_proxy", "npm_config_https_proxy", "npm_config_noproxy"]);
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.toLowerCase().startsWith("npm_") && !keep.has(k.toLowerCase())) continue;
    env[k] = v;
  }
  return env;
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...opts });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", (e) => resolve({ code: -1, out: out + String(e) }));
    child.on("close", (code) => resolve({ code: code ?? -1, out }));
  });
}

/** Version commands run with a throwaway HOME so a tool cannot write into the user's config. */
async function versionOf(id, prefixDir) {
  const spec = TOOLS[id];
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-tools-home-"));
  fs.mkdirSync(path.join(home, ".codex")); // Codex warns when CODEX_HOME does not exist
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    PI_CODING_AGENT_DIR: path.join(home, "agent"),
    // Codex, Gemini CLI, Copilot CLI: no update checks, no telemetry, nothing but --version.
    CODEX_HOME: path.join(home, ".codex"),
    GEMINI_CLI_NO_RELAUNCH: "true",
    COPILOT_OFFLINE: "true",
    NO_UPDATE_NOTIFIER: "1",
  };
  // Resolve paths inside the staging prefix by pointing DC_TOOLS_DIR-derived helpers at it.
  const rel = (abs) => path.join(prefixDir, path.relative(tools.toolDir(id), abs));
  let cmd;
  let args;
  if (spec.kind === "claude") [cmd, args] = [rel(tools.claudeBin(spec.version)), ["--version"]];
  else if (spec.kind === "node") [cmd, args] = [rel(tools.node22Bin()), ["--version"]];
  else if (spec.kind === "hook-cli") {
    // Read from the staging prefix: the final folder does not exist yet.
    const pkgDir = path.join(prefixDir, "node_modules", ...spec.pkg.split("/"));
    const bin = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).bin;
    [cmd, args] = [process.execPath, [path.join(pkgDir, typeof bin === "string" ? bin : bin[spec.pkg]), "--version"]];
  }
  else {
    const node = spec.node === "node22" ? tools.node22Bin() : process.execPath;
    const pkgDir = path.join(prefixDir, "node_modules", ...spec.pkg.split("/"));
    const bin = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).bin;
    const entry = path.join(pkgDir, typeof bin === "string" ? bin : bin[spec.bin ?? "pi"]);
    [cmd, args] = spec.node === "native" ? [entry, ["--version"]] : [node, [entry, "--version"]];
  }
  const r = await run(cmd, args, { env, cwd: home, timeout: 60_000 });
  fs.rmSync(home, { recursive: true, force: true });
  return { ...r, out: r.out.trim() };
}

function versionMatches(spec, out) {
  if (spec.kind === "claude") return out === `${spec.version} (Claude Code)`;
  if (spec.kind === "node") {
    const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(out);
    if (!m || out !== `v${spec.version}`) return false;
    const got = m.slice(1).map(Number);
    const min = tools.NODE22_MIN;
    return got[0] > min[0] || (got[0] === min[0] && (got[1] > min[1] || (got[1] === min[1] && got[2] >= min[2])));
  }
  // Copilot CLI says "GitHub Copilot CLI 1.0.102." (a sentence): trailing punctuation is not the version.
  return out.split(/\s+/).map((w) => w.replace(/[.,;:]+$/, "")).includes(spec.version);
}

function readMarker(id) {
  try {
    return JSON.parse(fs.readFileSync(tools.markerFile(id), "utf8"));
  } catch {
    return null;
  }
}

/** The file a run executes; a marker whose tool files were pruned since does not count. */
function entryExists(id) {
  const spec = TOOLS[id];
  try {
    if (spec.kind === "claude") return fs.existsSync(tools.claudeBin(spec.version));
    if (spec.kind === "node") return fs.existsSync(tools.node22Bin());
    if (spec.kind === "agent") return fs.existsSync(tools.binJs(id));
    if (spec.kind === "hook-cli") return fs.existsSync(tools.hookCliJs(id));
    return fs.existsSync(tools.piCliJs(spec.version));
  } catch {
    return false;
  }
}

function isInstalled(id) {
  const spec = TOOLS[id];
  const m = readMarker(id);
  return !!m && m.pkg === spec.pkg && m.version === spec.version && entryExists(id);
}

/**
 * Staging folders of our installers that died (their pid is gone) are removed; live ones are left
 * alone. Only our tool ids: the cache folder is shared with other tiers' installers.
 */
function removeStaleStaging(root) {
  if (!fs.existsSync(root)) return;
  for (const name of fs.readdirSync(root)) {
    const m = /^\.staging-(.+)-(\d+)$/.exec(name);
    if (!m || !TOOLS[m[1]]) continue;
    let alive = true;
    try {
      process.kill(Number(m[2]), 0);
    } catch (e) {
      alive = e.code === "EPERM";
    }
    if (!alive) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

async function install(id) {
  const spec = TOOLS[id];
  if (isInstalled(id)) {
    log(`${id}: already installed (${tools.toolDir(id)})`);
    return { id, cached: true, ms: 0 };
  }
  const started = Date.now();
  const root = tools.toolsDir();
  // Install into a private staging folder, then rename: the final folder only ever holds a
  // verified install, even if this process is killed or another installer runs at the same time.
  const staging = path.join(root, `.staging-${id}-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const manifest = {
    name: `dc-test-tool-${id.replace(/[^a-z0-9-]/g, "-")}`,
    private: true,
    description: "Pinned client for Damage Control's e2e tests (written by scripts/install-test-tools.js)",
    dependencies: { [spec.pkg]: spec.version },
    allowScripts: allowScriptsFor(spec),
  };
  fs.writeFileSync(path.join(staging, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  log(`${id}: npm install ${spec.pkg}@${spec.version} …`);
  const npmArgs = ["install", "--prefix", staging, "--no-audit", "--no-fund", "--no-update-notifier", "--save-exact", "--loglevel=warn"];
  const npm = await run("npm", npmArgs, { cwd: staging, env: npmEnv() });
  const npmMs = Date.now() - started;
  if (npm.code !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`${id}: npm install failed (exit ${npm.code}) after ${seconds(npmMs)}:\n${npm.out}`);
  }
  const v = await versionOf(id, staging);
  if (v.code !== 0 || !versionMatches(spec, v.out)) {
    const keep = path.join(root, `.failed-${id}`); // one per tool, replaced on the next failure
    fs.rmSync(keep, { recursive: true, force: true });
    fs.renameSync(staging, keep);
    throw new Error(`${id}: --version gave exit ${v.code}, output ${JSON.stringify(v.out)}; expected ${spec.version}. npm said:\n${npm.out}\n(kept in ${keep})`);
  }
  const marker = { pkg: spec.pkg, version: spec.version, versionOutput: v.out, installedAt: new Date().toISOString(), npm: npmArgs.join(" ") };
  fs.writeFileSync(path.join(staging, ".dc-installed.json"), JSON.stringify(marker, null, 2) + "\n");
  const final = tools.toolDir(id);
  if (isInstalled(id)) {
    fs.rmSync(staging, { recursive: true, force: true }); // another installer won the race
  } else {
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(staging, final);
  }
  const ms = Date.now() - started;
  log(`${id}: installed in ${seconds(ms)} (npm ${seconds(npmMs)}, verify ${seconds(ms - npmMs)}): ${v.out}`);
  return { id, cached: false, ms };
}

/** Tools a tool needs before it can be verified (pi 1.6.0 runs on the cached Node 22). */
function withDependencies(ids) {
  const out = new Set();
  for (const id of ids) {
    if (!TOOLS[id]) throw new Error(`unknown tool ${id}; known: ${Object.keys(TOOLS).join(", ")}`);
    if (TOOLS[id].node === "node22") out.add("node22");
    out.add(id);
  }
  return [...out];
}

async function installAll(ids = Object.keys(TOOLS)) {
  const started = Date.now();
  const wanted = withDependencies(ids);
  fs.mkdirSync(tools.toolsDir(), { recursive: true });
  removeStaleStaging(tools.toolsDir());
  // Simple pool, longest installs first (measured cold: pi 0.73.1 ~36 s, pi 1.6.0 ~30 s, each
  // claude ~10-18 s, node22 ~11 s). node22 still starts before pi 1.6.0, which waits on its promise.
  const ORDER = ["pi-0.73.1", "node22", "pi-1.6.0", "claude-2.1.332", "claude-2.1.197", "gemini-0.61.0", "copilot-1.0.102", "codex-0.171.0", "qwen-0.24.4", "opencode-1.18.33", "cline-3.0.65", "cc-safety-net-2.4.5"];
  const pending = new Map();
  const queue = [...ORDER.filter((id) => wanted.includes(id)), ...wanted.filter((id) => !ORDER.includes(id))];
  const results = [];
  const errors = [];
  const start = (id) => {
    const dep = TOOLS[id].node === "node22" ? pending.get("node22") : undefined;
    const p = dep ? dep.then(() => install(id), () => Promise.reject(new Error(`${id}: skipped, node22 failed`))) : install(id);
    pending.set(id, p);
    return p.then(
      (r) => results.push(r),
      (e) => errors.push(e),
    );
  };
  const workers = Array.from({ length: Math.min(JOBS, queue.length) }, async () => {
    while (queue.length) await start(queue.shift());
  });
  await Promise.all(workers);
  const fresh = results.filter((r) => !r.cached).length;
  log(`${fresh ? `${fresh} installed` : "all present"} in ${seconds(Date.now() - started)} (${tools.toolsDir()})`);
  if (errors.length) throw new AggregateError(errors, errors.map((e) => e.message).join("\n\n"));
  return results;
}

module.exports = { installAll, isInstalled };

if (require.main === module) {
  installAll(process.argv.length > 2 ? process.argv.slice(2) : undefined).catch((e) => {
    log(`FAILED: ${e.message}`);
    process.exit(1);
  });
}
