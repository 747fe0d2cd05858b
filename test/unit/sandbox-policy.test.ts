// Issue 34: the sandbox policy made from the rules in force, the `sandbox:` key (parse, lint,
// layers), our entries in an agent's settings, and the refusal of a call that leaves the sandbox.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";
import { additionsOnly, looseningItems, loosens, mergeLayers } from "../../src/engine/rules/layers";
import { parseRules } from "../../src/engine/rules/parse";
import { claudeSandboxWant, vscodeSandboxWant } from "../../src/engine/sandbox/agents";
import { applyOurs } from "../../src/engine/sandbox/ours";
import { buildSandboxPolicy, sandboxMode, type SandboxFacts } from "../../src/engine/sandbox/policy";
import type { RuleSet } from "../../src/engine/types";
import { globMatcher, guardFiles, hostOf, listedHomeFolders, writableFolders } from "../../src/core/sandbox/facts";
import { sandboxPolicyFor } from "../../src/core/sandbox/policy-for";
import { withGuardPaths } from "../../src/core/rules-store";

const rules = (text: string): RuleSet => {
  const p = parseRules(text);
  assert.equal(p.ok, true, JSON.stringify(p.diagnostics));
  return p.rules;
};

const facts = (over: Partial<SandboxFacts> = {}): SandboxFacts => ({
  folder: "/w",
  home: "/h",
  guard: [{ path: "/h/.local/state/damage-control/token", what: "token", secret: true }, { path: "/h/.config/damage-control", what: "config folder" }],
  matches: () => [],
  writable: ["/tmp"],
  hosts: ["127.0.0.1"],
  ...over,
});

describe("sandbox: the rules file key", () => {
  it("parses mode, updatedByTools, hosts", () => {
    const r = rules("sandbox:\n  mode: required\n  updatedByTools: [x.lock]\n  allowedHosts: [registry.example.com, '*.corp.example']\n  deniedHosts: [evil.example]\n");
    assert.deepEqual(r.sandbox, { mode: "required", updatedByTools: ["x.lock"], allowedHosts: ["registry.example.com", "*.corp.example"], deniedHosts: ["evil.example"] });
  });

  it("lints an unknown mode, an unknown key (with a fix) and a URL where a host goes", () => {
    const p = parseRules("sandbox:\n  mode: sometimes\n  allowHosts: [a.b]\n  deniedHosts: ['https://x.example/path']\n");
    assert.equal(p.ok, false);
    const msgs = p.diagnostics.map((d) => d.message).join("\n");
    assert.match(msgs, /sandbox\.mode must be one of auto, required, off/);
    assert.match(msgs, /Unknown key "allowHosts" in sandbox\. Did you mean "allowedHosts"\?/);
    assert.match(msgs, /is not a host name/);
  });

  it("layers: the strictest mode wins; an unapproved workspace may tighten, not switch off or open hosts", () => {
    const user = rules("sandbox:\n  mode: off\n");
    const ws = rules("sandbox:\n  mode: required\n");
    assert.equal(sandboxMode(mergeLayers([{ name: "user", rules: user, trusted: true }, { name: "workspace", rules: ws, trusted: false }, { name: "default", rules: defaultRules(), trusted: true }])), "required");
    const wsOff = rules("sandbox:\n  mode: off\n  allowedHosts: [leak.example]\n  updatedByTools: [.pi/]\n  deniedHosts: [bad.example]\n");
    assert.equal(loosens(wsOff), true, "switching the sandbox off needs the user's approval");
    assert.deepEqual(looseningItems(wsOff), ["sandbox:allowedHosts:leak.example", "sandbox:mode:off", "sandbox:updatedByTools:.pi/"]);
    const unapproved = mergeLayers([{ name: "workspace", rules: additionsOnly(wsOff), trusted: false }, { name: "default", rules: defaultRules(), trusted: true }]);
    assert.equal(sandboxMode(unapproved), "auto");
    assert.deepEqual(unapproved.sandbox?.allowedHosts, undefined);
    assert.deepEqual(unapproved.sandbox?.deniedHosts, ["bad.example"]);
    assert.ok(!unapproved.sandbox?.updatedByTools?.includes(".pi/"));
    const approved = mergeLayers([{ name: "workspace", rules: wsOff, trusted: true }, { name: "default", rules: defaultRules(), trusted: true }]);
    assert.equal(sandboxMode(approved), "off");
    assert.equal(sandboxMode(defaultRules()), "auto", "the default");
  });
});

describe("sandbox: the policy from the rules", () => {
  const merged = mergeLayers([{ name: "default", rules: defaultRules(), trusted: true }]);
  const all = withGuardPaths(merged, "/w", "/w/.pi/damage-control-rules.yaml");
  const found: Record<string, string[]> = { ".env": ["/w/.env", "/w/sub/.env"], "*.pem": ["/w/certs/a.pem"], "package-lock.json": ["/w/package-lock.json"], ".claude/settings*.json": ["/w/.claude/settings.local.json"] };
  const p = buildSandboxPolicy(all, facts({ matches: (e) => found[e] ?? [] }));
  const has = (l: { path: string }[], x: string) => l.some((e) => e.path === x);

  it("zero-access → unreadable: names and globs as found, folders under HOME, the token", () => {
    for (const x of ["/w/.env", "/w/sub/.env", "/w/certs/a.pem", "/h/.ssh", "/h/.aws", "/h/.local/state/damage-control/token"]) assert.ok(has(p.denyRead, x), x);
    assert.ok(!p.denyRead.some((e) => e.path.startsWith("/proc")), "a glob outside the workspace and HOME is left to the hook");
    assert.equal(p.denyRead.find((e) => e.path === "/w/.env")?.rule, "zero-access-env");
  });

  it("read-only → unwritable: the guard's files, agents' settings, system folders; not the lock files tools update", () => {
    for (const x of ["/w/.pi", "/w/.damage-control", "/w/.claude/settings.local.json", "/etc", "/usr/bin", "/h/.config/damage-control"]) assert.ok(has(p.denyWrite, x), x);
    assert.ok(!has(p.denyWrite, "/w/package-lock.json"), "npm install must still update it");
    assert.ok(!p.denyWrite.some((e) => e.path === "/w/.pi/damage-control-rules.yaml"), "inside /w/.pi: listed once");
  });

  it("no-delete paths have no kernel form: nothing is written for .git/", () => {
    // The .git/ folder itself (credential stores such as ~/.git-credentials are zero-access files of their own).
    assert.ok(![...p.denyRead, ...p.denyWrite].some((e) => e.path.split("/").includes(".git")), JSON.stringify([...p.denyRead, ...p.denyWrite].map((e) => e.path)));
  });

  it("updatedByTools never frees the guard's own entries", () => {
    const r = withGuardPaths(mergeLayers([{ name: "user", rules: rules("sandbox:\n  updatedByTools: [.pi/, damage-control-rules.yaml]\n"), trusted: true }]), "/w", "/w/.pi/damage-control-rules.yaml");
    const q = buildSandboxPolicy(r, facts());
    assert.ok(has(q.denyWrite, "/w/.pi/damage-control-rules.yaml"));
  });

  it("network: 127.0.0.1 and everyday hosts, the rules' allowed ones, minus the denied", () => {
    const r = mergeLayers([{ name: "user", rules: rules("sandbox:\n  allowedHosts: [git.corp.example]\n  deniedHosts: [registry.npmjs.org]\n"), trusted: true }]);
    const q = buildSandboxPolicy(r, facts({ hosts: ["127.0.0.1", "registry.npmjs.org"] }));
    assert.deepEqual(q.network, { allowedDomains: ["127.0.0.1", "git.corp.example"], deniedDomains: ["registry.npmjs.org"] });
  });
});

describe("sandbox: the core's facts and cache", () => {
  it("toolchains' install folders under HOME are writable; the guard's state below ~/.local is not", () => {
    const env = { HOME: "/h" };
    const w = writableFolders(env);
    for (const p of ["/h/.local", "/h/.cargo", "/h/.rustup", "/h/.npm", "/h/.cache", "/h/.gem", "/tmp"]) assert.ok(w.includes(p), p);
    assert.ok(!w.includes("/h") && !w.some((p) => p.startsWith("/h/.ssh") || p.startsWith("/h/.config")), "HOME itself, ~/.ssh and ~/.config stay read-only");
    // bwrap-args applies denyWrite after allowWrite: the guard's state folder under ~/.local stays unwritable.
    assert.ok(guardFiles("/w", env).some((g) => g.path === "/h/.local/state/damage-control"), JSON.stringify(guardFiles("/w", env)));
  });

  let dir: string;
  let home: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sbx-"));
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sbx-home-"));
    fs.mkdirSync(path.join(dir, "a/b"), { recursive: true });
    fs.writeFileSync(path.join(dir, "a/b/server.pem"), "x");
    fs.writeFileSync(path.join(dir, ".env"), "x");
    fs.mkdirSync(path.join(dir, "node_modules/pkg"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules/pkg/test.pem"), "x");
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.writeFileSync(path.join(home, ".ssh/id.pem"), "x");
    fs.writeFileSync(path.join(home, "cacert.pem"), "x");
    fs.writeFileSync(path.join(dir, ".git-config-probe"), "");
    fs.mkdirSync(path.join(dir, ".git"));
    fs.writeFileSync(path.join(dir, ".git/config"), '[remote "origin"]\n\turl = git@git.example.org:o/r.git\n');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("a glob is expanded in the workspace and the listed HOME folders only, never machine-wide", () => {
    const r = rules("zeroAccessPaths:\n  - '*.pem'\n  - ~/.ssh/\n");
    const m = globMatcher(dir, home, listedHomeFolders(r, home));
    const got = m("*.pem").sort();
    assert.deepEqual(got, [path.join(dir, "a/b/server.pem"), path.join(home, ".ssh/id.pem")].sort());
    assert.ok(!got.includes(path.join(home, "cacert.pem")), "a cacert.pem elsewhere in HOME stays readable");
  });

  it("sandboxPolicyFor: cached per rule set, rebuilt for a new one at once and after the TTL off the caller's path; remotes' hosts allowed", async () => {
    const env = { HOME: home, DAMAGE_CONTROL_STATE_DIR: path.join(home, "state") };
    const r1 = rules("zeroAccessPaths:\n  - '*.key'\n");
    const p1 = sandboxPolicyFor(dir, r1, { env, now: 1000 });
    assert.equal(sandboxPolicyFor(dir, r1, { env, now: 1500 }), p1, "cached");
    fs.writeFileSync(path.join(dir, "new.key"), "x");
    assert.ok(!p1.denyRead.some((e) => e.path.endsWith("new.key")));
    assert.equal(sandboxPolicyFor(dir, r1, { env, now: 1000 + 5000 }), p1, "after the TTL the caller gets the cached policy at once…");
    await new Promise((r) => setImmediate(r));
    const p2 = sandboxPolicyFor(dir, r1, { env, now: 1000 + 5000 });
    assert.ok(p2.denyRead.some((e) => e.path === path.join(dir, "new.key")), "…and the next call a fresh one: a matching file created later is found");
    const p3 = sandboxPolicyFor(dir, rules("zeroAccessPaths:\n  - secret/\n"), { env, now: 1600 });
    assert.ok(p3.denyRead.some((e) => e.path === path.join(dir, "secret")), "a new rule set builds at once");
    assert.ok(p3.network?.allowedDomains.includes("git.example.org"));
    assert.ok(p3.network?.allowedDomains.includes("127.0.0.1"));
  });

  it("hostOf reads URLs and scp-like remotes", () => {
    assert.equal(hostOf("https://github.com/o/r.git"), "github.com");
    assert.equal(hostOf("git@gitlab.example:o/r.git"), "gitlab.example");
    assert.equal(hostOf("http://127.0.0.1:4873/"), "127.0.0.1");
    assert.equal(hostOf("/srv/repos/r.git"), undefined);
  });
});

describe("sandbox: our entries in an agent's settings", () => {
  const policy = buildSandboxPolicy(rules("zeroAccessPaths:\n  - /w/secret/\nreadOnlyPaths:\n  - /w/config/\n"), facts());

  it("Claude Code: added beside the user's entries, replaced on re-render, the user's restored on removal", () => {
    const user = { sandbox: { enabled: false, filesystem: { denyRead: ["/mine"] } }, hooks: { x: 1 } };
    const first = applyOurs(user, claudeSandboxWant(policy, "auto"));
    const s = first.settings as any;
    assert.deepEqual(s.sandbox.filesystem.denyRead, ["/mine", "/h/.local/state/damage-control/token", "/w/secret"]);
    assert.equal(s.sandbox.enabled, true);
    assert.equal(s.sandbox.failIfUnavailable, false);
    assert.equal(s.sandbox.allowUnsandboxedCommands, false);
    // Claude Code's autoAllowBashIfSandboxed defaults to true: left unset, turning the sandbox on
    // would approve sandboxed Bash calls the user used to be asked about.
    assert.equal(s.sandbox.autoAllowBashIfSandboxed, false);
    const theirs = applyOurs({ sandbox: { autoAllowBashIfSandboxed: true } }, claudeSandboxWant(policy, "auto")).settings as any;
    assert.equal(theirs.sandbox.autoAllowBashIfSandboxed, true, "the user's own choice stands");
    assert.equal(applyOurs(user, claudeSandboxWant(policy, "required")).settings.sandbox && (applyOurs(user, claudeSandboxWant(policy, "required")).settings as any).sandbox.failIfUnavailable, true);
    const other = buildSandboxPolicy(rules("zeroAccessPaths:\n  - /w/other/\n"), facts());
    const second = applyOurs(first.settings, claudeSandboxWant(other, "auto"), first.ours);
    assert.deepEqual((second.settings as any).sandbox.filesystem.denyRead, ["/mine", "/h/.local/state/damage-control/token", "/w/other"]);
    const off = applyOurs(second.settings, claudeSandboxWant(other, "off"), second.ours);
    assert.deepEqual(off.settings, user, "off: exactly the user's settings back");
  });

  it("VS Code: never switches auto-approval on; a user's own choice stands; enabled only under required", () => {
    const s = applyOurs({}, vscodeSandboxWant(policy, "auto")).settings as any;
    // Enabling VS Code's sandbox makes it run sandboxed commands without asking (measured): not under auto.
    assert.equal(s["chat.agent.sandbox.enabled"], undefined);
    assert.equal((applyOurs({}, vscodeSandboxWant(policy, "required")).settings as any)["chat.agent.sandbox.enabled"], true);
    assert.equal(s["chat.agent.sandbox.allowAutoApprove"], false);
    assert.equal(s["chat.agent.sandbox.allowUnsandboxedCommands"], false);
    assert.deepEqual(s["chat.agent.sandbox.fileSystem.linux"].denyWrite, ["/h/.config/damage-control", "/w/config"]);
    const mine = applyOurs({ "chat.agent.sandbox.allowAutoApprove": true }, vscodeSandboxWant(policy, "auto")).settings as any;
    assert.equal(mine["chat.agent.sandbox.allowAutoApprove"], true);
  });
});

describe("sandbox: a call that asks to leave it", () => {
  it("Bash with dangerouslyDisableSandbox is refused whatever its command", () => {
    const v = decide({ tool: "bash", input: { command: "echo hi", dangerouslyDisableSandbox: true } }, defaultRules(), { cwd: "/w", home: "/h" }, "claude");
    assert.equal(v.action, "block");
    assert.match(v.reason, /dangerouslyDisableSandbox/);
    assert.equal(decide({ tool: "bash", input: { command: "echo hi", dangerouslyDisableSandbox: false } }, defaultRules(), { cwd: "/w", home: "/h" }, "claude").action, "allow");
  });
});
