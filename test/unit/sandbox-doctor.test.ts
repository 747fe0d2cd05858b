// Issue 34: doctor and the panel say whether this machine can run the sandbox the rules ask for,
// and print the fix; and whether Claude Code's own sandbox is written from the rules.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseRules } from "../../src/engine/rules/parse";
import { sandboxMachine } from "../../src/core/sandbox/machine";
import { sandboxChecks, sandboxHealthCheck } from "../../src/install/doctor-sandbox";
import { agentLines } from "../../src/views/panel/agent-health";
import { needsSandbox } from "../support/needs-sandbox";

const rules = (text: string) => parseRules(text).rules;

describe("sandbox: doctor and the panel", () => {
  let dir: string;
  let bin: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sbx-doc-"));
    bin = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sbx-bin-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(bin, { recursive: true, force: true });
  });

  it("no bubblewrap on PATH: auto warns, required fails, both print the fix", () => {
    const env = { ...process.env, PATH: bin };
    const m = sandboxMachine(env, "linux");
    assert.equal(m.bwrap, false);
    assert.equal(m.fix, "sudo apt-get install bubblewrap socat ripgrep");
    const auto = sandboxChecks(dir, rules(""), env)[0]!;
    assert.equal(auto.status, "warn");
    assert.match(auto.message, /sandbox auto but this machine cannot run it: bubblewrap \(bwrap\) is not installed.*run unsandboxed.*fix: sudo apt-get install bubblewrap/);
    const req = sandboxChecks(dir, rules("sandbox:\n  mode: required\n"), env)[0]!;
    assert.equal(req.status, "fail");
    assert.match(req.message, /refused/);
    const off = sandboxChecks(dir, rules("sandbox:\n  mode: off\n"), env);
    assert.deepEqual(off.map((c) => c.status), ["ok"]);
    const line = agentLines([sandboxHealthCheck(dir, rules(""), env)]);
    assert.equal(line[0]!.state, "not-guarding", "the panel never shows a sandbox that cannot run as guarding");
  });

  it("bubblewrap, socat and rg here (the suite's machines): ok", function () {
    needsSandbox(this, "agentSandboxes");
    assert.equal(sandboxChecks(dir, rules(""), process.env)[0]!.status, "ok");
  });

  it("Claude Code's sandbox: reported on, or a warning when a command may leave it", () => {
    fs.mkdirSync(path.join(dir, ".claude"));
    const write = (s: object) => fs.writeFileSync(path.join(dir, ".claude/settings.local.json"), JSON.stringify(s));
    write({ hooks: {}, sandbox: { enabled: true, failIfUnavailable: false, allowUnsandboxedCommands: false, filesystem: { denyRead: ["/a"], denyWrite: ["/b", "/c"] } } });
    const c = sandboxChecks(dir, rules(""), process.env)[1]!;
    assert.equal(c.status, "ok");
    assert.match(c.message, /on, 1 unreadable and 2 unwritable paths/);
    write({ hooks: {}, sandbox: { enabled: true, failIfUnavailable: false, filesystem: {} } });
    assert.match(sandboxChecks(dir, rules(""), process.env)[1]!.message, /allowUnsandboxedCommands is not false/);
    write({ hooks: {} });
    assert.equal(sandboxChecks(dir, rules(""), process.env)[1]!.status, "warn");
  });
});
