// damage-control doctor and managed settings: every check, with temp state, HOME and managed file
// (never /etc).
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { startGuardEndpoint, type StartedEndpoint } from "../../src/hookserver/start";
import { loadOrCreateToken } from "../../src/core/token";
import { addOurHooks } from "../../src/engine/claude-settings";
import { formatReport, noProxyCoversLoopback, runDoctor, type DoctorReport } from "../../src/install/doctor";
import { inspectManaged, managedWarnings, renderManagedSettings } from "../../src/install/managed";
import { repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");

describe("managed settings", () => {
  const rendered = renderManagedSettings({ url: "http://127.0.0.1:42345", version: "2.1.332" });

  it("renders our HTTP hooks for the governed events: empty matcher, onFailure block, timeout; loopback only; managed hooks only", () => {
    assert.equal(rendered.allowManagedHooksOnly, true);
    assert.deepEqual(rendered.allowedHttpHookUrls, ["http://127.0.0.1:*", "http://localhost:*"]);
    assert.deepEqual(rendered.httpHookAllowedEnvVars, ["DAMAGE_CONTROL_TOKEN"]);
    const hooks = rendered.hooks as Record<string, { matcher: string; hooks: Record<string, unknown>[] }[]>;
    assert.deepEqual(Object.keys(hooks), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "PostToolUse", "TaskCreated", "ConfigChange", "PreModelSwitch"]);
    for (const [event, groups] of Object.entries(hooks)) {
      assert.equal(groups.length, 1, event);
      assert.equal(groups[0].matcher, "", event);
      assert.equal(groups[0].hooks[0].type, "http");
      assert.equal(groups[0].hooks[0].onFailure, "block");
      assert.equal(groups[0].hooks[0].timeout, 45);
      assert.equal(groups[0].hooks[0].url, "http://127.0.0.1:42345/claude/hook");
    }
    assert.deepEqual(managedWarnings(rendered), [], "the rendered file has nothing to warn about");
  });

  it("warns when PreToolUse is gated without allowManagedHooksOnly, and about wide or empty URL lists", () => {
    const { allowManagedHooksOnly: _a, ...loose } = rendered;
    assert.match(managedWarnings(loose).join("\n"), /without allowManagedHooksOnly.*shadow/);
    const someoneElses = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "/opt/audit" }] }] } };
    assert.match(managedWarnings(someoneElses).join("\n"), /without allowManagedHooksOnly/);
    assert.match(managedWarnings({ ...rendered, allowedHttpHookUrls: ["https://hooks.example.com/*"] }).join("\n"), /non-loopback/);
    assert.match(managedWarnings({ ...rendered, allowedHttpHookUrls: [] }).join("\n"), /every HTTP hook is blocked/);
  });

  it("detects allowManagedHooksOnly without our hooks: project hooks silently disabled", () => {
    assert.equal(inspectManaged({ allowManagedHooksOnly: true }, "/x").projectHooksDisabled, true);
    assert.equal(inspectManaged(rendered, "/x").projectHooksDisabled, false, "ours are managed");
    assert.equal(inspectManaged({}, "/x").projectHooksDisabled, false);
    assert.equal(inspectManaged(undefined, "/x").exists, false);
  });

  it("CLI: install claude --managed [--out FILE], with warnings about the machine's file on stderr", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-managed-"));
    try {
      const existing = path.join(dir, "managed-settings.json");
      fs.writeFileSync(existing, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "", hooks: [{ type: "command", command: "/opt/x" }] }] } }));
      const env = { ...process.env, DAMAGE_CONTROL_MANAGED_SETTINGS: existing, HOME: dir, DAMAGE_CONTROL_STATE_DIR: dir };
      const r = spawnSync(process.execPath, [CLI, "install", "claude", "--managed", "--port", "43000", "--claude-version", "2.1.332"], { encoding: "utf8", env });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.allowManagedHooksOnly, true);
      assert.equal(out.hooks.PreToolUse[0].hooks[0].url, "http://127.0.0.1:43000/claude/hook");
      assert.match(r.stderr, /managed-settings\.json: the managed settings gate PreToolUse without allowManagedHooksOnly/);
      const file = path.join(dir, "out/managed.json");
      const w = spawnSync(process.execPath, [CLI, "install", "claude", "--managed", "--out", file], { encoding: "utf8", env });
      assert.equal(w.status, 0, w.stderr);
      assert.equal(w.stdout, "");
      assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).allowManagedHooksOnly, true);
      const bad = spawnSync(process.execPath, [CLI, "install", "claude", "--managed", "--url", "http://10.0.0.1:80"], { encoding: "utf8", env });
      assert.equal(bad.status, 2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("doctor", () => {
  let dir: string;
  let state: string;
  let home: string;
  let managed: string;
  let guard: Guard | undefined;
  let ep: StartedEndpoint | undefined;
  let token: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-doctor-"));
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-doctor-state-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-doctor-home-"));
    managed = path.join(home, "managed-settings.json");
    token = loadOrCreateToken(state);
  });
  afterEach(async () => {
    guard?.close();
    await ep?.close();
    guard = ep = undefined;
    for (const d of [dir, state, home]) fs.rmSync(d, { recursive: true, force: true });
  });

  const start = async () => {
    guard = new Guard({ folders: [dir], home, ledger: false });
    ep = await startGuardEndpoint(guard, token, { port: 0, host: "test", stateDir: state });
    return ep;
  };
  const installHooks = (url: string, file = path.join(dir, ".claude/settings.local.json")) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(addOurHooks({}, ["PreToolUse", "PermissionRequest", "ConfigChange"], { kind: "http", url }), null, 2));
  };
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ DAMAGE_CONTROL_STATE_DIR: state, HOME: home, PI_CODING_AGENT_DIR: path.join(home, "pi"), ...extra });
  const doctor = (extra: Record<string, string> = {}, claudeVersion: string | null = "2.1.332") => runDoctor({ folder: dir, env: env(extra), managedFile: managed, claudeVersion });
  const status = (r: DoctorReport, id: string) => r.checks.filter((c) => c.id === id).map((c) => c.status);
  const msg = (r: DoctorReport, id: string) => r.checks.filter((c) => c.id === id).map((c) => c.message).join("\n");

  it("a guarded folder: every check ok (pi only warns), guarded", async () => {
    const e = await start();
    installHooks(e.url);
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token });
    assert.deepEqual(r.checks.filter((c) => c.status === "fail"), []);
    assert.equal(r.guarded, true);
    for (const id of ["endpoint", "token", "claude", "hooks", "rules", "proxy"]) assert.deepEqual(status(r, id), ["ok"], `${id}: ${msg(r, id)}`);
    assert.deepEqual(status(r, "pi"), ["warn"]);
    assert.match(formatReport(r), /^guarded$/m);
  });

  it("nothing running, nothing installed: not guarded", async () => {
    const r = await doctor({}, null);
    assert.equal(r.guarded, false);
    assert.deepEqual(status(r, "endpoint"), ["fail"]);
    assert.deepEqual(status(r, "hooks"), ["fail"]);
    assert.deepEqual(status(r, "claude"), ["warn"]);
  });

  it("an endpoint but no agent wired yet: no 'FAIL token'; the summary says no agent is wired and the command that wires one (issue 38)", async () => {
    await start();
    const r = await doctor();
    assert.deepEqual(status(r, "token"), ["ok"], msg(r, "token"));
    assert.match(msg(r, "token"), /no Claude Code hooks yet/);
    assert.deepEqual(status(r, "hooks"), ["fail"]);
    const text = formatReport(r);
    assert.ok(text.includes(`NOT GUARDED: no agent is wired to this folder yet. Wire one: damage-control install claude --cwd ${dir}`), text);
    assert.doesNotMatch(text, /FAIL {2}token/);
  });

  it("token missing or stale", async () => {
    const e = await start();
    installHooks(e.url);
    assert.deepEqual(status(await doctor(), "token"), ["fail"]);
    assert.deepEqual(status(await doctor({ DAMAGE_CONTROL_TOKEN: "x".repeat(43) }), "token"), ["fail"]);
  });

  it("an old Claude Code with HTTP hooks fails open: fail", async () => {
    const e = await start();
    installHooks(e.url);
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token }, "2.1.197");
    assert.deepEqual(status(r, "claude"), ["fail"]);
    assert.match(msg(r, "claude"), /ignores onFailure/);
  });

  it("managed allowManagedHooksOnly silently disables our project hooks: fail, with the reason", async () => {
    const e = await start();
    installHooks(e.url);
    fs.writeFileSync(managed, JSON.stringify({ allowManagedHooksOnly: true }));
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token });
    assert.deepEqual(status(r, "hooks"), ["fail"]);
    assert.match(msg(r, "hooks"), /allowManagedHooksOnly.*ignores the project-level/);
    assert.equal(r.guarded, false);
  });

  it("our hooks in the managed file itself (rendered by install --managed) are fine", async () => {
    const e = await start();
    fs.writeFileSync(managed, JSON.stringify(renderManagedSettings({ url: e.url })));
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token });
    assert.deepEqual(status(r, "hooks"), ["ok"], msg(r, "hooks"));
    assert.match(msg(r, "hooks"), /managed/);
    assert.equal(r.guarded, true);
  });

  it("disableAllHooks, a non-loopback allowedHttpHookUrls and a moved port are reported", async () => {
    const e = await start();
    installHooks(e.url);
    fs.writeFileSync(path.join(dir, ".claude/settings.json"), JSON.stringify({ disableAllHooks: true }));
    assert.deepEqual(status(await doctor({ DAMAGE_CONTROL_TOKEN: token }), "hooks"), ["fail"]);
    fs.rmSync(path.join(dir, ".claude/settings.json"));
    fs.writeFileSync(managed, JSON.stringify({ allowedHttpHookUrls: ["https://hooks.example.com/*"] }));
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token });
    assert.deepEqual(status(r, "hooks"), ["fail"]);
    assert.match(msg(r, "managed"), /non-loopback/);
    fs.rmSync(managed);
    installHooks("http://127.0.0.1:1");
    assert.deepEqual(status(await doctor({ DAMAGE_CONTROL_TOKEN: token }), "hooks"), ["warn"]);
  });

  it("a broken rules file: fail", async () => {
    const e = await start();
    installHooks(e.url);
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(path.join(dir, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '(['\n    reason: x\n");
    const r = await doctor({ DAMAGE_CONTROL_TOKEN: token });
    assert.deepEqual(status(r, "rules"), ["fail"], msg(r, "rules"));
  });

  it("proxy variables that would send hook traffic away from loopback", async () => {
    assert.deepEqual(status(await doctor({ HTTPS_PROXY: "http://proxy:3128" }), "proxy"), ["fail"]);
    assert.deepEqual(status(await doctor({ HTTPS_PROXY: "http://proxy:3128", NO_PROXY: "example.com,127.0.0.1" }), "proxy"), ["ok"]);
    assert.equal(noProxyCoversLoopback("localhost"), true);
    assert.equal(noProxyCoversLoopback("example.com"), false);
  });

  it("CLI: readable report, --json, exit 1 when not guarded and 0 when guarded", async () => {
    const fakeClaude = path.join(home, "claude");
    fs.writeFileSync(fakeClaude, "#!/bin/sh\necho '2.1.332 (Claude Code)'\n", { mode: 0o755 });
    const run = (args: string[], extra: Record<string, string> = {}) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const { spawn } = require("node:child_process") as typeof import("node:child_process");
        const p = spawn(process.execPath, [CLI, "doctor", "--cwd", dir, "--managed-file", managed, ...args], { env: { ...process.env, ...env(extra), DAMAGE_CONTROL_CLAUDE_BIN: fakeClaude, HTTP_PROXY: "", HTTPS_PROXY: "", http_proxy: "", https_proxy: "" } });
        let stdout = "";
        p.stdout.on("data", (d) => (stdout += d));
        p.on("close", (status) => resolve({ status, stdout }));
      });
    const bare = await run([]);
    assert.equal(bare.status, 1);
    assert.match(bare.stdout, /FAIL {2}endpoint/);
    assert.match(bare.stdout, /NOT GUARDED/);
    const e = await start();
    installHooks(e.url);
    const ok = await run([], { DAMAGE_CONTROL_TOKEN: token });
    assert.equal(ok.status, 0, ok.stdout);
    assert.match(ok.stdout, /ok {4}claude {3}Claude Code 2\.1\.332 honours onFailure/);
    const json = await run(["--json"], { DAMAGE_CONTROL_TOKEN: token });
    const report = JSON.parse(json.stdout) as DoctorReport;
    assert.equal(report.guarded, true);
    assert.ok(report.checks.every((c) => ["ok", "warn", "fail"].includes(c.status)));
  });
});
