// Damage Control with the real Claude Code: hooks installed by `damage-control install claude`
// (version detected from the real binary), the real endpoint deciding, a scripted model asking
// for tool calls. Each scenario checks the file system AND the text the model read next.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { claudeBin } from "../../scripts/test-tools.js";
import { bash, startAnthropicMock, toolUse, type AnthropicStep } from "./support/anthropic-mock";
import { runClaude, type ClaudeRun } from "./support/claude";
import { startGuarded, type Guarded } from "./support/guarded";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const BLOCKED = /Blocked by Damage Control: .*Do not work around this; report it to the user\./s;

/** Hook latency as the endpoint measured it, for the closing figures. */
const latencies: number[] = [];
after(() => {
  if (latencies.length === 0) return;
  const s = [...latencies].sort((a, b) => a - b);
  console.log(`      endpoint handling per Claude Code hook call: median ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms, max ${s[s.length - 1]!.toFixed(2)} ms over ${s.length} calls`);
});

async function guarded(version: string): Promise<Guarded> {
  const g = await startGuarded();
  addCleanup(() => {
    latencies.push(...g.answers.filter((a) => a.route === "/claude/hook" || a.route === "/hook/claude").map((a) => a.ms));
    return g.close();
  });
  const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(version as "2.1.332") });
  assert.equal(r.status, 0, r.stderr);
  return g;
}

async function run(g: Guarded, version: string, steps: AnthropicStep[], env: Record<string, string> = {}): Promise<{ run: ClaudeRun; results: { text: string; isError: boolean }[] }> {
  const mock = await startAnthropicMock({ steps });
  addCleanup(() => mock.close());
  const r = await runClaude({
    version: version as "2.1.332",
    cwd: g.proj.dir,
    baseUrl: mock.url,
    prompt: "Do the work.",
    // Pre-allowed: if anything stops these calls, it is Damage Control.
    allowedTools: ["Bash", "Read", "Write", "Edit"],
    env: { ...proxy.trap.env, ...g.env, ...env },
  });
  assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return { run: r, results: mock.toolResults().map((t) => ({ text: t.text, isError: t.isError })) };
}

describe("Claude Code 2.1.332 (HTTP hooks, onFailure block)", function () {
  const V = "2.1.332";
  requireTools("claude-2.1.332");

  it("install wrote HTTP hooks with onFailure block for the detected version", async function () {
    const g = await guarded(V);
    const s = JSON.parse(g.proj.read(".claude/settings.local.json"));
    const hook = s.hooks.PreToolUse[0].hooks[0];
    assert.equal(hook.type, "http");
    assert.equal(hook.url, `${g.endpoint!.url}/claude/hook`);
    assert.equal(hook.onFailure, "block");
    assert.deepEqual(Object.keys(s.hooks), ["PreToolUse", "PermissionRequest", "PreSkillShellCommand", "ConfigChange"]);
  });

  it("rm -rf is blocked; the model reads the rule and the instruction", async function () {
    const g = await guarded(V);
    const { results, run: r } = await run(g, V, [[bash("rm -rf data")]]);
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.equal(results.length, 1);
    assert.equal(results[0]!.isError, true);
    assert.match(results[0]!.text, /^PreToolUse:Bash hook error: Blocked by Damage Control: recursive or forced rm/);
    assert.match(results[0]!.text, BLOCKED);
    assert.deepEqual(r.result?.permission_denials?.map((d) => d.tool_input.command), ["rm -rf data"]);
  });

  it("reading .env is blocked", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[toolUse("Read", { file_path: ".env" })]]);
    assert.equal(results[0]!.isError, true);
    assert.match(results[0]!.text, /zero-access/);
    assert.ok(!results[0]!.text.includes("never-show-this"), "the secret did not reach the model");
  });

  it("writing into a read-only folder is blocked", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[toolUse("Write", { file_path: "config/new.yaml", content: "x: 1\n" })]]);
    assert.equal(g.proj.exists("config/new.yaml"), false);
    assert.match(results[0]!.text, /read-only/);
    assert.equal(results[0]!.isError, true);
  });

  it("a harmless command runs, and no allow was sent for it", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[bash("echo hi > out.txt")]]);
    assert.equal(g.proj.read("out.txt"), "hi\n");
    assert.equal(results[0]!.isError, false);
    const hookAnswers = g.answers.filter((a) => a.route === "/claude/hook");
    assert.ok(hookAnswers.length >= 1);
    for (const a of hookAnswers) assert.deepEqual(a.body, {}, "no opinion, never allow");
  });

  it("an ask rule with nobody to ask is a refusal that says so", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[bash("touch needs-a-human")]]);
    assert.equal(g.proj.exists("needs-a-human"), false);
    assert.match(results[0]!.text, /creating this file needs a human .*nobody could confirm it/s);
  });

  it("the endpoint stopped: still blocked (Claude Code's onFailure)", async function () {
    const g = await guarded(V);
    await g.stopEndpoint();
    const { results } = await run(g, V, [[bash("rm -rf data")]]);
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(results[0]!.text, /failed; blocking because onFailure is "block"/);
    // Behaviour change on purpose (issue 34): install claude turns Claude Code's sandbox on, and its
    // HTTP hooks then go through the sandbox's proxy, which answers a refused connection with 502.
    assert.match(results[0]!.text, /ECONNREFUSED|HTTP 502 from http:\/\/127\.0\.0\.1:\d+\/claude\/hook/);
  });

  it("a wrong token: blocked, not allowed", async function () {
    const g = await guarded(V);
    // The hook carries the token itself (issue 14 §2); a wrong one in the file is refused.
    const file = g.proj.path(".claude/settings.local.json");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").split(g.token).join("wrong-token"));
    const { results } = await run(g, V, [[bash("echo should-not-run > ran.txt")]], { DAMAGE_CONTROL_TOKEN: "wrong-token" });
    assert.equal(g.proj.exists("ran.txt"), false, "a call with a wrong token ran");
    assert.match(results[0]!.text, /blocking because onFailure is "block"/);
    assert.match(results[0]!.text, /401/);
    assert.ok(g.answers.some((a) => a.status === 401));
  });

  it("the rules file edited on disk: the next call follows the new rules", async function () {
    const g = await guarded(V);
    const first = await run(g, V, [[bash("echo one > made.txt")]]);
    assert.equal(first.results[0]!.isError, false);
    const rulesFile = g.proj.path(".pi/damage-control-rules.yaml");
      fs.writeFileSync(rulesFile, fs.readFileSync(rulesFile, "utf8").replace("  - config/\n", "  - config/\n  - made.txt\n"));
    const second = await run(g, V, [[bash("echo two > made.txt")]]);
    assert.equal(g.proj.read("made.txt"), "one\n");
    assert.match(second.results[0]!.text, /made\.txt is read-only/);
  });
});

describe("Claude Code 2.1.197 (command hook: ignores onFailure)", function () {
  const V = "2.1.197";
  requireTools("claude-2.1.197");

  it("install chose the command hook for the detected version", async function () {
    const g = await guarded(V);
    const s = JSON.parse(g.proj.read(".claude/settings.local.json"));
    assert.equal(s.hooks.PreToolUse[0].hooks[0].type, "command");
    // The stable sh+curl launcher in the state folder (issue 14 §1), not a path into dist/.
    assert.match(s.hooks.PreToolUse[0].hooks[0].command, /\/bin\/damage-control-hook'? claude$/);
    assert.deepEqual(Object.keys(s.hooks), ["PreToolUse", "PermissionRequest", "ConfigChange"]);
  });

  it("rm -rf is blocked through the endpoint", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[bash("rm -rf data")]]);
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(results[0]!.text, /^Blocked by Damage Control: recursive or forced rm/);
    assert.equal(results[0]!.isError, true);
    assert.ok(g.answers.some((a) => a.route === "/hook/claude"), "the endpoint decided");
  });

  it("a harmless command runs", async function () {
    const g = await guarded(V);
    const { results } = await run(g, V, [[bash("echo hi > out.txt")]]);
    assert.equal(g.proj.read("out.txt"), "hi\n");
    assert.equal(results[0]!.isError, false);
  });

  it("the endpoint stopped: the command hook decides locally, still blocked", async function () {
    const g = await guarded(V);
    await g.stopEndpoint();
    const { results } = await run(g, V, [[bash("rm -rf data")], [toolUse("Read", { file_path: ".env" })], [bash("echo ok > fine.txt")]]);
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(results[0]!.text, /^Blocked by Damage Control: recursive or forced rm/);
    assert.match(results[1]!.text, /zero-access/);
    assert.equal(g.proj.read("fine.txt"), "ok\n", "harmless work goes on without the endpoint");
  });

  it("a wrong token: the hook decides locally, still blocked", async function () {
    const g = await guarded(V);
    // The launcher reads the token from <state>/token (not DAMAGE_CONTROL_TOKEN): corrupt that, so
    // the endpoint turns the call away (401) and the hook's local decision is what refuses it.
    fs.writeFileSync(path.join(g.stateDir, "token"), "wrong-token\n");
    const { results } = await run(g, V, [[bash("rm -rf data")]]);
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(results[0]!.text, BLOCKED);
    assert.ok(g.answers.length > 0 && g.answers.every((a) => a.status === 401), `the endpoint answered ${JSON.stringify(g.answers.map((a) => a.status))}, not only 401s`);
  });
});
