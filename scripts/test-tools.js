// Where the pinned agent CLIs used by the e2e tier live, and how to start them.
// Plain CommonJS with no dependencies: scripts/install-test-tools.js runs it before any build,
// and the e2e support code (bundled by esbuild) imports it for the same paths.
// The cache sits outside the clone because the Claude Code builds are ~400 MB each and must
// survive `git clean` and fresh checkouts.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** Node 22 from npm, as a plain binary (pi 1.6.0 needs >= 22.19; the repo itself runs on 20). */
const NODE22_VERSION = "22.23.5";
const NODE22_MIN = [22, 19, 0];

/**
 * Every pinned client. Exact versions only: builds differ in exactly what the tests check
 * (2.1.197 ignores onFailure), and a range could silently resolve to another build.
 */
const TOOLS = {
  "claude-2.1.332": { pkg: "@anthropic-ai/claude-code", version: "2.1.332", kind: "claude" },
  "claude-2.1.197": { pkg: "@anthropic-ai/claude-code", version: "2.1.197", kind: "claude" },
  node22: { pkg: `node-${nodePlatform()}`, version: NODE22_VERSION, kind: "node" },
  "pi-1.6.0": { pkg: "@earendil-works/pi-coding-agent", version: "1.6.0", kind: "pi", node: "node22" },
  "pi-0.73.1": { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1", kind: "pi", node: "default" },
  // The other agent CLIs of issue 18, the versions /work/shared/notes/more-agents.md measured.
  // `bin` names the package.json bin entry that starts each (run with `node`, like pi).
  "codex-0.171.0": { pkg: "@openai/codex", version: "0.171.0", kind: "agent", bin: "codex", node: "default" },
  "gemini-0.61.0": { pkg: "@google/gemini-cli", version: "0.61.0", kind: "agent", bin: "gemini", node: "default" },
  "copilot-1.0.102": { pkg: "@github/copilot", version: "1.0.102", kind: "agent", bin: "copilot", node: "default" },
  // Issue 25's agents, the versions more-agents.md measured. Qwen Code needs Node >= 22.
  "qwen-0.24.4": { pkg: "@qwen-code/qwen-code", version: "0.24.4", kind: "agent", bin: "qwen", node: "node22" },
  // OpenCode's bin is its native binary (its postinstall links the platform package's build there).
  "opencode-1.18.33": { pkg: "opencode-ai", version: "1.18.33", kind: "agent", bin: "opencode", node: "native" },
  "cline-3.0.65": { pkg: "cline", version: "3.0.65", kind: "agent", bin: "cline", node: "default" },
  // A peer guard, measured beside ours by `npm run bench` (its documented Claude Code command hook).
  "cc-safety-net-2.4.5": { pkg: "cc-safety-net", version: "2.4.5", kind: "hook-cli" },
};

/** npm publishes Node as `node-<platform>-<arch>` packages; only linux-x64 is exercised here. */
function nodePlatform() {
  const plat = process.platform === "win32" ? "win" : process.platform;
  return `${plat}-${process.arch}`;
}

function toolsDir() {
  return process.env.DC_TOOLS_DIR || path.join(os.homedir(), ".cache", "damage-control", "tools");
}

function toolDir(id) {
  if (!TOOLS[id]) throw new Error(`unknown test tool ${id}; known: ${Object.keys(TOOLS).join(", ")}`);
  return path.join(toolsDir(), id);
}

function modulesDir(id) {
  return path.join(toolDir(id), "node_modules");
}

/** The native claude binary (npm's bin link points at bin/claude.exe, replaced by the postinstall). */
function claudeBin(version) {
  return path.join(modulesDir(`claude-${version}`), "@anthropic-ai", "claude-code", "bin", "claude.exe");
}

function node22Bin() {
  const bin = process.platform === "win32" ? "node.exe" : path.join("bin", "node");
  return path.join(modulesDir("node22"), TOOLS.node22.pkg, bin);
}

/** The pi entry script, from the package's own `bin` field. */
function piCliJs(version) {
  const id = `pi-${version}`;
  const spec = TOOLS[id];
  if (!spec) throw new Error(`no pinned pi ${version}`);
  const pkgDir = path.join(modulesDir(id), ...spec.pkg.split("/"));
  // Read, not require(): esbuild bundles this file into the tests and would trip on a dynamic require.
  const bin = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).bin;
  return path.join(pkgDir, typeof bin === "string" ? bin : bin.pi);
}

/** The entry script of a pinned tool of kind "agent"/"pi", from the package's own `bin` field. */
function binJs(id) {
  const spec = TOOLS[id];
  if (!spec) throw new Error(`unknown test tool ${id}`);
  const pkgDir = path.join(modulesDir(id), ...spec.pkg.split("/"));
  const bin = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).bin;
  return path.join(pkgDir, typeof bin === "string" ? bin : bin[spec.bin ?? "pi"]);
}

/** The argv prefix of an agent CLI: [node, entry.js] as its spec says, or [binary] for a native one. */
function agentCommand(id) {
  const spec = TOOLS[id];
  if (!spec || spec.kind !== "agent") throw new Error(`${id} is not a pinned agent CLI`);
  if (spec.node === "native") return [binJs(id)];
  const node = spec.node === "node22" ? node22Bin() : process.execPath;
  return [node, binJs(id)];
}

/** [node binary, cli.js]: 1.6.0 runs on the cached Node 22, 0.73.1 on the Node running the tests. */
function piCommand(version) {
  const spec = TOOLS[`pi-${version}`];
  if (!spec) throw new Error(`no pinned pi ${version}`);
  const node = spec.node === "node22" ? node22Bin() : process.execPath;
  return [node, piCliJs(version)];
}

/** A peer's hook CLI entry script (run with the Node running the bench), from its `bin` field. */
function hookCliJs(id) {
  const spec = TOOLS[id];
  if (!spec || spec.kind !== "hook-cli") throw new Error(`no pinned hook CLI ${id}`);
  const pkgDir = path.join(modulesDir(id), ...spec.pkg.split("/"));
  const bin = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).bin;
  return path.join(pkgDir, typeof bin === "string" ? bin : bin[spec.pkg]);
}

/** Marker written by the installer only after the tool answered `--version` correctly. */
function markerFile(id) {
  return path.join(toolDir(id), ".dc-installed.json");
}

module.exports = {
  TOOLS,
  NODE22_VERSION,
  NODE22_MIN,
  toolsDir,
  toolDir,
  modulesDir,
  claudeBin,
  node22Bin,
  piCliJs,
  piCommand,
  binJs,
  agentCommand,
  hookCliJs,
  markerFile,
};
