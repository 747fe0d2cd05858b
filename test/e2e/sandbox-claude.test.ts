// Issue 34: the kernel enforces the rules on what a command's program does, which the hook never
// sees. The real Claude Code 2.1.332, wired by `damage-control install claude` (hooks AND its own
// sandbox, from the rules), runs `python3 cleanup.py`: a script that prints .env and rewrites then
// deletes config/ (read-only by the rules). The hook allows `python3 cleanup.py` (its text says
// nothing); the sandbox refuses the read and the writes. Control: the same run with our hooks and
// no sandbox: the secret is read and config/ is gone (the hook alone cannot see it).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { claudeBin } from "../../scripts/test-tools.js";
import { keepClaudeSandboxInStep } from "../../src/install/claude-sandbox";
import { bash, startAnthropicMock, toolUse, type AnthropicStep } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { CLI, SCENARIO_RULES, startGuarded, type Guarded } from "./support/guarded";
import { readRegistration, registrationFile } from "../../src/core/registry";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";
import { cleanupScript } from "../support/cleanup-script";
import { pathWithout } from "../support/path-without";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const V = "2.1.332";
const SECRET = "never-show-this";

const CLEANUP_PY = cleanupScript("config", { file: "config/app.yaml", content: "port: 666\n" });

async function guarded(opts: { rules?: string; files?: Record<string, string> } = {}): Promise<Guarded> {
  const g = await startGuarded({ rules: opts.rules, files: { "cleanup.py": CLEANUP_PY, ...opts.files } });
  addCleanup(() => g.close());
  const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) });
  assert.equal(r.status, 0, r.stderr);
  return g;
}

async function run(g: Guarded, steps: AnthropicStep[], env: Record<string, string | undefined> = {}, exit0 = true) {
  const mock = await startAnthropicMock({ steps });
  addCleanup(() => mock.close());
  const r = await runClaude({
    version: V,
    cwd: g.proj.dir,
    baseUrl: mock.url,
    prompt: "Clean up.",
    // Pre-allowed: Claude Code asks nobody; what stops a call is the hook or the kernel.
    allowedTools: ["Bash", "Read", "Write", "Edit"],
    env: { ...proxy.trap.env, ...g.env, ...env },
  });
  if (exit0) assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return { run: r, requests: mock.mainRequests().length, results: mock.toolResults().map((t) => ({ text: t.text, isError: t.isError })) };
}

/** The run's Bash output as the model read it. */
const seen = (results: { text: string }[]) => results.map((r) => r.text).join("\n");

describe("Claude Code 2.1.332 inside its own sandbox, configured from the rules (issue 34)", function () {
  requireTools("claude-2.1.332");

  it("install wrote the sandbox beside the hooks: absolute paths, 127.0.0.1 allowed, no way out", async function () {
    const g = await guarded();
    const s = JSON.parse(g.proj.read(".claude/settings.local.json"));
    assert.equal(s.sandbox.enabled, true);
    assert.equal(s.sandbox.failIfUnavailable, false, "auto: a machine without bubblewrap runs as before");
    assert.equal(s.sandbox.allowUnsandboxedCommands, false);
    // Claude Code's own default is true (approve every sandboxed Bash call): false where the user set nothing.
    assert.equal(s.sandbox.autoAllowBashIfSandboxed, false, "Bash approvals stay as the user had them");
    assert.ok(s.sandbox.filesystem.denyRead.includes(path.join(g.proj.dir, ".env")), JSON.stringify(s.sandbox.filesystem));
    assert.ok(s.sandbox.filesystem.denyWrite.includes(path.join(g.proj.dir, "config")), JSON.stringify(s.sandbox.filesystem));
    assert.ok(s.sandbox.network.allowedDomains.includes("127.0.0.1"), "our HTTP hooks go through the sandbox's proxy");
    assert.ok(s.hooks.PreToolUse, "the hooks are still there");
  });

  it("python3 cleanup.py: the secret is not in what the model read, config/ is unchanged", async function () {
    const g = await guarded();
    const { results } = await run(g, [[bash("python3 cleanup.py")]]);
    const out = seen(results);
    assert.ok(!out.includes(SECRET), `the secret reached the model:\n${out}`);
    assert.match(out, /read failed/, out);
    assert.equal(g.proj.read("config/app.yaml"), "port: 1\n", out);
    // The hook allowed it: the kernel, not the hook, refused.
    assert.ok(g.answers.length > 0 && g.answers.every((a) => !JSON.stringify(a.body).includes("deny")), JSON.stringify(g.answers));
  });

  it("control: our hooks without the sandbox, the same run reads the secret and deletes config/", async function () {
    const g = await guarded();
    const file = path.join(g.proj.dir, ".claude/settings.local.json");
    const s = JSON.parse(fs.readFileSync(file, "utf8"));
    delete s.sandbox;
    fs.writeFileSync(file, JSON.stringify(s, null, 2));
    const { results } = await run(g, [[bash("python3 cleanup.py")]]);
    const out = seen(results);
    assert.ok(out.includes(SECRET), `without the sandbox the script read .env:\n${out}`);
    assert.equal(g.proj.exists("config/app.yaml"), false, out);
  });

  it("a Bash call that asks to leave the sandbox is refused by the hook", async function () {
    const g = await guarded();
    const { results } = await run(g, [[toolUse("Bash", { command: "python3 cleanup.py", description: "clean", dangerouslyDisableSandbox: true })]]);
    assert.equal(results[0]!.isError, true);
    assert.match(results[0]!.text, /dangerouslyDisableSandbox/);
    assert.ok(!seen(results).includes(SECRET));
    assert.equal(g.proj.read("config/app.yaml"), "port: 1\n");
  });

  it("the policy follows the rules: a zero-access path added after install is unreadable in the next sandboxed call", async function () {
    const g = await guarded({ files: { "notes/private.txt": "diary-entry-42\n", "show.py": 'print("NOTES:", open("notes/private.txt").read())\n' } });
    // As serve and VS Code run the guard: rules files watched, the sandbox kept in step.
    g.guard.watch();
    addCleanup(keepClaudeSandboxInStep(g.guard));
    const before = await run(g, [[bash("python3 show.py")]]);
    assert.match(seen(before.results), /diary-entry-42/, "readable before the rule: the control");
    g.proj.write(".pi/damage-control-rules.yaml", SCENARIO_RULES.replace("zeroAccessPaths:\n", "zeroAccessPaths:\n  - notes/\n"));
    const settings = path.join(g.proj.dir, ".claude/settings.local.json");
    const want = path.join(g.proj.dir, "notes");
    for (let i = 0; i < 100 && !fs.readFileSync(settings, "utf8").includes(JSON.stringify(want)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(JSON.parse(fs.readFileSync(settings, "utf8")).sandbox.filesystem.denyRead.includes(want), "re-rendered on the rules change");
    const after = await run(g, [[bash("python3 show.py")]]);
    assert.ok(!seen(after.results).includes("diary-entry-42"), seen(after.results));
    assert.match(seen(after.results), /Permission denied|Operation not permitted|No such file/, seen(after.results));
  });
});

/** Tries to switch the guard off from inside: its rules, Claude Code's hook settings, our record, its token. */
const TAMPER_PY = `import os, shutil, subprocess, sys, tempfile
state, cli, forged = sys.argv[1], sys.argv[2], sys.argv[3]
# forged: the registry's entry for this folder, rewritten to point at another endpoint (issue 35's takeover).
for p in [".pi/damage-control-rules.yaml", ".claude/settings.local.json", ".damage-control/claude-sandbox.json", forged]:
    try:
        open(p, "w").write("{}")
        print("WROTE", p)
    except Exception as e:
        print("refused", p, e)
try:
    print("TOKEN", open(os.path.join(state, "token")).read())
except Exception as e:
    print("refused token", e)
# The product under another name: uninstall its hooks, then start a second endpoint for the folder.
copy = os.path.join(tempfile.mkdtemp(), "fmt.js")
shutil.copy(cli, copy)
for verb in (["uninstall", "claude", "--cwd", "."], ["serve", "--cwd", "."]):
    try:
        r = subprocess.run(["node", copy] + verb, capture_output=True, text=True, timeout=8)
        print("RAN", verb[0], "exit", r.returncode, (r.stdout + r.stderr).strip()[:300])
    except subprocess.TimeoutExpired:
        print("STILL RUNNING", verb[0])
`;

// Tampering from inside, through a script the hook sees only as `python3 tamper.py`: the rules, the
// hook settings, our record, the registry entry of the folder (a forged endpoint), the token, and
// the product run under another name to uninstall the hooks and start a second endpoint. Inside the
// sandbox the kernel refuses the writes (the state folder is not even visible) and the product
// refuses its own guard verbs in an agent's call; the folder keeps its endpoint. Control: without
// the sandbox the writes and the token read succeed (the CLI's own refusal still stops the verbs).
describe("tampering from inside the sandbox (Claude Code 2.1.332)", function () {
  requireTools("claude-2.1.332");

  for (const sandboxed of [true, false]) {
    it(sandboxed ? "the rules, the hook settings, our record and the token: each refused, and the guard keeps deciding" : "control: without the sandbox the same script rewrites them and reads the token", async function () {
      const g = await guarded({ files: { "tamper.py": TAMPER_PY } });
      const file = path.join(g.proj.dir, ".claude/settings.local.json");
      if (!sandboxed) {
        const s = JSON.parse(fs.readFileSync(file, "utf8"));
        delete s.sandbox;
        fs.writeFileSync(file, JSON.stringify(s, null, 2));
      }
      const before = readRegistration(g.proj.dir, g.stateDir);
      const { results } = await run(g, [[bash(`python3 tamper.py ${g.stateDir} ${CLI} ${registrationFile(g.proj.dir, g.stateDir)}`)], [bash("rm -rf data")]]);
      const out = seen(results.slice(0, 1));
      if (sandboxed) {
        assert.doesNotMatch(out, /WROTE/, out);
        assert.ok(!out.includes(g.token), "the token was read");
        assert.match(g.proj.read(".pi/damage-control-rules.yaml"), /zeroAccessPaths/);
        assert.ok(JSON.parse(fs.readFileSync(file, "utf8")).hooks.PreToolUse, "our hooks are still there (the uninstall under another name failed)");
        assert.doesNotMatch(out, /STILL RUNNING serve/, out);
        assert.deepEqual(readRegistration(g.proj.dir, g.stateDir), before, "the folder is still guarded by the same endpoint");
        // The guard keeps deciding.
        assert.match(results[1]!.text, /Blocked by Damage Control: recursive or forced rm/);
        assert.ok(g.proj.exists("data/keep.txt"));
      } else {
        assert.match(out, /WROTE \.pi\/damage-control-rules\.yaml/, out);
        assert.match(out, /WROTE \.claude\/settings\.local\.json/, out);
        assert.ok(out.includes(g.token), out);
        assert.match(out, /WROTE .*endpoints\/[0-9a-f]+\.json/, out);
      }
    });
  }
});

/** Every program on PATH but bubblewrap: a machine where the sandbox cannot run. */
function pathWithoutBwrap(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-nobwrap-"));
  addCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  pathWithout(path.join(dir, "bin"), ["bwrap"], [...(process.env.PATH ?? "").split(":"), path.dirname(process.execPath)].join(":"));
  assert.ok(!fs.existsSync(path.join(dir, "bin", "bwrap")));
  return path.join(dir, "bin");
}

describe("fail-closed matrix: sandbox unavailable under `required` (Claude Code 2.1.332)", function () {
  requireTools("claude-2.1.332");

  it("required: Claude Code refuses to start without a working sandbox; nothing ran", async function () {
    const g = await guarded({ rules: SCENARIO_RULES + "sandbox:\n  mode: required\n" });
    assert.equal(JSON.parse(g.proj.read(".claude/settings.local.json")).sandbox.failIfUnavailable, true);
    const { run: r, results } = await run(g, [[bash("python3 cleanup.py")]], { PATH: pathWithoutBwrap() }, false);
    assert.notEqual(r.exitCode, 0, explain(r));
    assert.match(r.stdout + r.stderr, /sandbox/i, explain(r));
    assert.equal(results.length, 0, "no tool ran");
    assert.ok(!seen(results).includes(SECRET));
    assert.equal(g.proj.read("config/app.yaml"), "port: 1\n");
  });

  it("control: auto on the same machine runs the call unsandboxed (doctor and the panel say so)", async function () {
    const g = await guarded();
    const { results } = await run(g, [[bash("python3 cleanup.py")]], { PATH: pathWithoutBwrap() });
    assert.ok(seen(results).includes(SECRET), JSON.stringify(results));
    const doctor = g.cli(["doctor", "--cwd", g.proj.dir], { PATH: pathWithoutBwrap() });
    assert.match(doctor.stdout, /warn +sandbox +sandbox auto but this machine cannot run it: bubblewrap \(bwrap\) is not installed/, doctor.stdout);
  });
});
