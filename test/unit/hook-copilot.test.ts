// `damage-control hook copilot` and the sh+curl launcher, with VS Code's real hook input shape
// (../shared/notes/vscode-agent-hooks.md §3). VS Code fails OPEN on exit 1, on non-JSON and on a
// timeout, so every case here must end as a deny JSON or exit 2, never exit 1, and — with no
// ask pending — well inside 10 s.
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { copilotCaller } from "../../src/engine/agents/copilot";
import { mapVsCodeTool, vscodeWire } from "../../src/engine/agents/vscode";
import type { Asker, AskRequest } from "../../src/core/asker";
import type { Decider } from "../../src/core/decider";
import { inProcessDecider } from "../../src/core/in-process-decider";
import { Guard } from "../../src/core/guard";
import { register } from "../../src/core/registry";
import type { AnswerInfo } from "../../src/hookserver/server";
import { startGuardEndpoint, type StartedEndpoint } from "../../src/hookserver/start";
import { loadOrCreateToken } from "../../src/core/token";
import { copilotHookFile, installCopilot, uninstallCopilot, userHookFile, repoHookFile, vscodeAgentCheck } from "../../src/install/copilot";
import { installLauncher } from "../../src/install/launcher";
import { repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");

const RULES = `bashToolPatterns:
  - pattern: '\\brm\\s+(-[^\\s]*)*-[rRf]'
    reason: recursive or forced rm
  - pattern: '\\bgit\\s+push\\b'
    reason: pushing changes the shared remote
    ask: true
zeroAccessPaths:
  - .env
readOnlyPaths:
  - config/
noDeletePaths:
  - data/
`;

/** VS Code's PreToolUse stdin for one tool call (the measured shape). */
function vscodeInput(ws: string, tool: string, input: unknown, id = `call_${Math.random().toString(36).slice(2)}__vscode-1`) {
  return { timestamp: new Date().toISOString(), hook_event_name: "PreToolUse", session_id: "3398f6c9-test", transcript_path: "/tmp/t.jsonl", tool_name: tool, tool_input: input, tool_use_id: id, cwd: ws };
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Set when the bound ran out and the process was killed. */
  error?: Error;
}

/** spawnSync without blocking the event loop: the endpoint under test runs in this process. */
function runAsync(cmd: string, args: string[], opts: { cwd: string; input: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<Ran> {
  return new Promise((resolve) => {
    const c = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let error: Error | undefined;
    c.stdout.on("data", (d) => (stdout += d));
    c.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      error = new Error(`killed after ${opts.timeout} ms`);
      c.kill("SIGKILL");
    }, opts.timeout);
    c.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, error });
    });
    c.stdin.on("error", () => undefined);
    c.stdin.end(opts.input);
  });
}

function decision(stdout: string): { decision?: string; reason?: string } {
  const body = JSON.parse(stdout);
  const out = body.hookSpecificOutput;
  return out ? { decision: out.permissionDecision, reason: out.permissionDecisionReason } : {};
}

describe("VS Code's agent: the wire", () => {
  const ws = "/ws";
  const read = (tool: string, input: unknown) => vscodeWire.read(vscodeInput(ws, tool, input));

  it("maps every built-in tool onto the engine's vocabulary", () => {
    const cases: [string, unknown, unknown][] = [
      ["run_in_terminal", { command: "rm -rf data", explanation: "x", goal: "y", mode: "sync", isBackground: false }, { tool: "bash", input: { command: "rm -rf data" } }],
      ["send_to_terminal", { id: "t1", command: "ls" }, { tool: "bash", input: { command: "ls" } }],
      ["create_file", { filePath: "/ws/a.txt", content: "secret" }, { tool: "write", input: { file_path: "/ws/a.txt" } }],
      ["replace_string_in_file", { filePath: "/ws/a.txt", oldString: "a", newString: "b" }, { tool: "edit", input: { file_path: "/ws/a.txt" } }],
      ["insert_edit_into_file", { filePath: "/ws/a.txt", code: "x", explanation: "e" }, { tool: "edit", input: { file_path: "/ws/a.txt" } }],
      ["edit_notebook_file", { filePath: "/ws/n.ipynb", cellId: "1" }, { tool: "edit", input: { file_path: "/ws/n.ipynb" } }],
      ["create_directory", { dirPath: "/ws/config/new" }, { tool: "write", input: { file_path: "/ws/config/new" } }],
      ["read_file", { filePath: "/ws/.env", startLine: 1, endLine: 9 }, { tool: "read", input: { file_path: "/ws/.env" } }],
      ["list_dir", { path: "/ws" }, { tool: "ls", input: { path: "/ws" } }],
      ["create_and_run_task", { task: { label: "clean", type: "shell", command: "rm", args: ["-rf", "data dir"] }, workspaceFolder: ws }, { tool: "bash", input: { command: "rm -rf 'data dir'" } }],
      ["run_vscode_command", { commandId: "workbench.action.terminal.sendSequence", args: { text: "rm -rf data\n" } }, { tool: "bash", input: { command: "rm -rf data\n" } }],
    ];
    for (const [tool, input, want] of cases) {
      const req = read(tool, input);
      assert.equal(req.malformed, undefined, tool);
      assert.deepEqual(req.call, want, tool);
      assert.equal(req.cwd, ws);
      assert.equal(req.sessionId, "3398f6c9-test");
    }
  });

  it("refuses Damage Control's own commands, and inputs without the field a tool needs", () => {
    assert.match(read("run_vscode_command", { commandId: "damageControl.uninstallHooks" }).malformed ?? "", /guard itself/);
    for (const [tool, input] of [["run_in_terminal", {}], ["create_file", { path: "/x" }], ["read_file", { filePath: 3 }], ["list_dir", {}], ["create_and_run_task", { task: { label: "x" } }], ["create_directory", {}], ["run_vscode_command", {}]] as const) {
      assert.ok(read(tool, input).malformed, tool);
    }
  });

  it("another VS Code command and tools without effects get no opinion; other events too", () => {
    assert.equal(mapVsCodeTool("run_vscode_command", { commandId: "workbench.action.files.save" }), undefined);
    assert.deepEqual(read("memory", { command: "view" }).call, { tool: "memory", input: { command: "view" } });
    assert.equal(vscodeWire.read({ hook_event_name: "PostToolUse", tool_name: "run_in_terminal", tool_input: {} }).call, undefined);
    assert.deepEqual(vscodeWire.render(read("list_dir", { path: "/" }), { kind: "neutral" }), { body: {}, exitCode: 0 });
  });

  it("renders a deny as exit 0 + permissionDecision deny, and never turns anything into allow", () => {
    const req = read("run_in_terminal", { command: "x" });
    assert.deepEqual(vscodeWire.render(req, { kind: "deny", reason: "R" }), { body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "R" } }, exitCode: 0 });
    assert.equal(JSON.stringify(vscodeWire.render(req, { kind: "neutral" })).includes("allow"), false);
  });

  it("hook copilot tells VS Code's stdin from Copilot CLI's", () => {
    assert.equal(copilotCaller(vscodeInput(ws, "run_in_terminal", { command: "ls" })).id, "vscode");
    assert.equal(copilotCaller({ timestamp: 1, cwd: ws, toolName: "bash", toolArgs: '{"command":"ls"}' }).id, "copilot-cli");
    assert.equal(copilotCaller("garbage").id, "vscode");
  });
});

describe("hook copilot and the launcher against a real endpoint", function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let state: string;
  let launcher: string;
  let token: string;
  let endpoint: StartedEndpoint | undefined;
  let guard: Guard | undefined;
  const answers: AnswerInfo[] = [];
  const asks: AskRequest[] = [];
  let askAnswer: (r: AskRequest) => Promise<{ approved: boolean; why: string }> = async () => ({ approved: false, why: "denied in the test" });
  const asker: Asker = { ask: (r: AskRequest) => (asks.push(r), askAnswer(r)) };
  /** The tool-call ids the guard has judged, in order: a copy of a call that has been judged is
   *  past the point where it joins the pending first copy (the dedupe tests wait for this). */
  const judged: string[] = [];
  /** Each judged call's hook input, as the guard received it. */
  const received: unknown[] = [];
  const decider: Decider = {
    judge: async (req, rules, ctx, posture) => {
      received.push(req.raw);
      const j = await inProcessDecider.judge(req, rules, ctx, posture);
      const raw = req.raw as { tool_use_id?: unknown } | undefined;
      judged.push(String(raw?.tool_use_id ?? ""));
      return j;
    },
    close: () => inProcessDecider.close(),
  };
  /** Resolves once `id` has been judged `n` times (and the guard has gone on past the judgement). */
  const judgedTimes = async (id: string, n: number) => {
    while (judged.filter((j) => j === id).length < n) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setImmediate(r));
  };

  const env = () => {
    const e: NodeJS.ProcessEnv = { ...process.env, DAMAGE_CONTROL_STATE_DIR: state, HOME: root };
    delete e.DAMAGE_CONTROL_TOKEN;
    delete e.DAMAGE_CONTROL_URL;
    return e;
  };
  /** The launcher, as VS Code runs it: sh, in the workspace folder, stdin = the hook input. */
  const viaLauncher = (input: string, timeout = 30_000) => runAsync("sh", [launcher, "copilot"], { cwd: ws, input, env: env(), timeout });
  const viaNode = (input: string, timeout = 30_000) => runAsync(process.execPath, [CLI, "hook", "copilot"], { cwd: ws, input, env: env(), timeout });
  const both = async (input: string) => [await viaLauncher(input), await viaNode(input)];

  async function startEndpoint(): Promise<void> {
    guard = new Guard({ folders: [ws], decider });
    endpoint = await startGuardEndpoint(guard, token, { port: 0, host: "test", stateDir: state, asker, onAnswer: (a) => answers.push(a) });
  }
  async function stopEndpoint(): Promise<void> {
    await endpoint?.close();
    guard?.close();
    endpoint = undefined;
  }

  before(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-hook-copilot-")));
    ws = path.join(root, "ws");
    state = path.join(root, "state");
    fs.mkdirSync(path.join(ws, ".pi"), { recursive: true });
    fs.mkdirSync(path.join(ws, "data"));
    fs.writeFileSync(path.join(ws, "data", "a.csv"), "1\n");
    fs.writeFileSync(path.join(ws, ".pi", "damage-control-rules.yaml"), RULES);
    token = loadOrCreateToken(state);
    launcher = installLauncher({ stateDir: state, distDir: path.join(repoRoot, "dist"), nodePath: process.execPath }).sh;
    await startEndpoint();
  });
  after(async () => {
    await stopEndpoint();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("the endpoint answers: rm -rf refused with the rule, ls no opinion (exit 0), through the launcher and through Node", async () => {
    const before = answers.length;
    for (const r of await both(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "rm -rf data" })))) {
      assert.equal(r.status, 0, r.stderr);
      const d = decision(r.stdout);
      assert.equal(d.decision, "deny");
      assert.match(d.reason ?? "", /recursive or forced rm.*Do not work around this/);
    }
    for (const r of await both(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "ls" })))) {
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), {});
    }
    // All four went to the endpoint (hook copilot picks /hook/vscode for VS Code's input), none was decided locally.
    assert.deepEqual(answers.slice(before).map((a) => a.route), ["/hook/vscode", "/hook/vscode", "/hook/vscode", "/hook/vscode"]);
  });

  it("the launcher passes the input on unchanged: shell metacharacters, one line or pretty-printed, 200 KB", async () => {
    // The fast path reads the input with the shell's read and posts it from a here-document: what
    // the shell could expand or strip must reach the guard as the agent sent it. Compared as JSON:
    // the whitespace between tokens may differ (the here-document ends the body with a newline),
    // every value must not.
    const tricky = 'rm -rf data # $HOME ${PATH} `id` $(whoami) \\ \\n "q" \'s\' é\ttab\r\nBODY\nEOF';
    const big = "x".repeat(200_000);
    const cases: [string, string, string | undefined][] = [
      ["one line, no newline at the end", JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: tricky })), "deny"],
      ["one line and a newline", JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: tricky })) + "\n", "deny"],
      ["pretty-printed", JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: tricky }), null, 2), "deny"],
      ["pretty-printed, newline at the end", JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "ls" }), null, 2) + "\n", undefined],
      ["200 KB on one line", JSON.stringify(vscodeInput(ws, "create_file", { filePath: path.join(ws, "notes.txt"), content: big })), undefined],
      ["200 KB to a protected file", JSON.stringify(vscodeInput(ws, "create_file", { filePath: path.join(ws, ".env"), content: big })), "deny"],
    ];
    for (const [what, stdin, want] of cases) {
      const before = answers.length;
      received.length = 0;
      const r = await viaLauncher(stdin);
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.equal(decision(r.stdout).decision, want, what);
      // Decided by the endpoint (not the local fallback), from exactly the input that was sent.
      assert.deepEqual(answers.slice(before).map((a) => a.route), ["/hook/vscode"], what);
      assert.equal(received.length, 1, what);
      assert.ok(isDeepStrictEqual(received[0], JSON.parse(stdin)), `${what}: the guard received other input than was sent`);
    }
  });

  it("every VS Code file tool is judged by the path rules", async () => {
    const cases: [string, unknown, string | undefined][] = [
      ["read_file", { filePath: path.join(ws, ".env") }, "deny"],
      ["create_file", { filePath: path.join(ws, ".env"), content: "K=V" }, "deny"],
      ["replace_string_in_file", { filePath: path.join(ws, "config", "app.json"), oldString: "a", newString: "b" }, "deny"],
      ["insert_edit_into_file", { filePath: path.join(ws, "config", "app.json"), code: "x" }, "deny"],
      ["edit_notebook_file", { filePath: path.join(ws, "config", "n.ipynb") }, "deny"],
      ["create_directory", { dirPath: path.join(ws, "config", "sub") }, "deny"],
      ["create_and_run_task", { task: { label: "c", type: "shell", command: "rm -rf data" } }, "deny"],
      ["send_to_terminal", { id: "1", command: "rm -rf data" }, "deny"],
      ["run_vscode_command", { commandId: "damageControl.uninstallHooks" }, "deny"],
      ["create_file", { filePath: path.join(ws, "notes.txt"), content: "hi" }, undefined],
      ["read_file", { filePath: path.join(ws, "README.md") }, undefined],
      ["list_dir", { path: ws }, undefined],
    ];
    for (const [tool, input, want] of cases) {
      const r = await viaLauncher(JSON.stringify(vscodeInput(ws, tool, input)));
      assert.equal(r.status, 0, `${tool}: ${r.stderr}`);
      assert.equal(decision(r.stdout).decision, want, `${tool} ${JSON.stringify(input)}`);
    }
  });

  it("Copilot CLI's own stdin through the same command", async () => {
    const r = await viaLauncher(JSON.stringify({ timestamp: Date.now(), cwd: ws, toolName: "bash", toolArgs: JSON.stringify({ command: "rm -rf data" }) }));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).permissionDecision, "deny");
  });

  it("malformed or empty stdin: exit 2 and a deny JSON, never exit 1", async () => {
    for (const input of ["", "   \n", "not json", "[1,2]", "42", '{"hook_event_name":"PreToolUse"}', '{"tool_name":"run_in_terminal"}', JSON.stringify(vscodeInput(ws, "run_in_terminal", { cmd: "x" }))]) {
      for (const r of await both(input)) {
        assert.notEqual(r.status, 1, `exit 1 fails open: ${JSON.stringify(input)}`);
        assert.ok(r.status === 2 || decision(r.stdout).decision === "deny", `${JSON.stringify(input)} → ${r.status} ${r.stdout}`);
        assert.equal(decision(r.stdout).decision, "deny", JSON.stringify(input));
      }
    }
  });

  it("an ask that takes longer than the launcher's idle limit is waited for (keep-alive), and only a human's Allow is allow", async () => {
    askAnswer = () => new Promise((r) => setTimeout(() => r({ approved: true, why: "" }), 6500));
    const asked = asks.length;
    const child = spawn("sh", [launcher, "copilot"], { cwd: ws, env: env(), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stdin.end(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "git push origin main" })));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    askAnswer = async () => ({ approved: false, why: "denied in the test" });
    assert.equal(code, 0);
    assert.equal(asks.length, asked + 1, "asked once, at the endpoint");
    assert.equal(decision(out.trim()).decision, "allow", out);
  });

  it("decided once: two copies of one call (same session and tool_use_id) ask once and leave one ledger line", async () => {
    let release!: () => void;
    askAnswer = () => new Promise((r) => (release = () => r({ approved: false, why: "denied in the test" })));
    const asked = asks.length;
    const input = JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "git push --tags" }, "call_same__vscode-7"));
    const run = () =>
      new Promise<string>((resolve) => {
        const c = spawn("sh", [launcher, "copilot"], { cwd: ws, env: env(), stdio: ["pipe", "pipe", "ignore"] });
        let o = "";
        c.stdout.on("data", (d) => (o += d));
        c.on("close", () => resolve(o));
        c.stdin.end(input);
      });
    const a = run();
    const b = run();
    while (asks.length === asked) await new Promise((r) => setTimeout(r, 50));
    await judgedTimes("call_same__vscode-7", 2); // the second copy has arrived while the first is pending
    release();
    const [oa, ob] = await Promise.all([a, b]);
    askAnswer = async () => ({ approved: false, why: "denied in the test" });
    assert.equal(asks.length, asked + 1, "the human is asked once");
    assert.equal(decision(oa.trim()).decision, "deny");
    assert.equal(decision(ob.trim()).decision, "deny");
    await guard!.drain();
    const lines = fs.readFileSync(path.join(ws, ".damage-control", "audit.jsonl"), "utf8").split("\n").filter((l) => l.includes("git push --tags"));
    assert.equal(lines.length, 1, lines.join("\n"));
    // A different call is not shared.
    const other = await viaLauncher(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "git push --tags" }, "call_other__vscode-8")));
    assert.equal(decision(other.stdout).decision, "deny");
    assert.equal(asks.length, asked + 2);
  });

  it("decided once across routes: VS Code running a Claude-format hook too (chat.useClaudeHooks) asks once, one ledger line", async () => {
    let release!: () => void;
    askAnswer = () => new Promise((r) => (release = () => r({ approved: false, why: "denied in the test" })));
    const asked = asks.length;
    const input = vscodeInput(ws, "run_in_terminal", { command: "git push --all" }, "call_both__vscode-9");
    const viaClaude = guard!.handle("claude", input, { asker });
    const viaVsCode = guard!.handle("vscode", input, { asker });
    while (asks.length === asked) await new Promise((r) => setTimeout(r, 20));
    await judgedTimes("call_both__vscode-9", 2); // the copy on the other route has arrived while the first is pending
    release();
    const [a, b] = await Promise.all([viaClaude, viaVsCode]);
    askAnswer = async () => ({ approved: false, why: "denied in the test" });
    assert.equal(asks.length, asked + 1, "asked once");
    assert.deepEqual(a.body, b.body);
    assert.equal((a.body as any).hookSpecificOutput.permissionDecision, "deny");
    await guard!.drain();
    const lines = fs.readFileSync(path.join(ws, ".damage-control", "audit.jsonl"), "utf8").split("\n").filter((l) => l.includes("git push --all"));
    assert.equal(lines.length, 1, lines.join("\n"));
  });

  it("401 (the token file does not match): decided locally, still refused", async () => {
    const file = path.join(state, "token");
    fs.writeFileSync(file, "x".repeat(43) + "\n", { mode: 0o600 });
    try {
      const before = answers.length;
      for (const r of await both(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "rm -rf data" })))) {
        assert.equal(r.status, 0, r.stderr);
        assert.equal(decision(r.stdout).decision, "deny");
      }
      // Each of the two hooks asked the endpoint once and was turned away (an empty list would
      // mean neither asked: decided locally without the 401 this test is about).
      assert.deepEqual(
        answers.slice(before).map((a) => [a.route, a.status]),
        [
          ["/hook/vscode", 401],
          ["/hook/vscode", 401],
        ],
      );
    } finally {
      fs.writeFileSync(file, token + "\n", { mode: 0o600 });
    }
  });

  it("endpoint down: decided locally from the same rules; an ask is refused (nobody to ask)", async () => {
    await stopEndpoint();
    try {
      for (const r of await both(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "rm -rf data" })))) {
        assert.equal(r.status, 0, r.stderr);
        assert.match(decision(r.stdout).reason ?? "", /recursive or forced rm/);
      }
      for (const r of await both(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "git push" })))) {
        assert.equal(decision(r.stdout).decision, "deny");
        assert.match(decision(r.stdout).reason ?? "", /could not be reached/);
      }
      for (const r of await both(JSON.stringify(vscodeInput(ws, "list_dir", { path: ws })))) assert.deepEqual(JSON.parse(r.stdout), {});
    } finally {
      await startEndpoint();
    }
  });

  it("endpoint hanging (accepts, never answers): refused within 10 s, no child left behind", async () => {
    await stopEndpoint();
    const hung = net.createServer(() => undefined);
    await new Promise<void>((r) => hung.listen(0, "127.0.0.1", r));
    const port = (hung.address() as net.AddressInfo).port;
    register([ws], `http://127.0.0.1:${port}`, port, "hung", state);
    try {
      for (const run of [viaLauncher, viaNode]) {
        // The bound: a hook still running at 10 s is killed and fails here.
        const r = await run(JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "rm -rf data" })), 10_000);
        assert.equal(r.error, undefined, `still running after 10 s: ${r.error}`);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(decision(r.stdout).decision, "deny");
      }
    } finally {
      hung.close();
      await startEndpoint();
    }
  });

  it("the launcher without its copy of the CLI and without an endpoint: exit 2 + deny", async () => {
    await stopEndpoint();
    const lib = path.join(state, "lib", "cli.js");
    fs.renameSync(lib, lib + ".away");
    try {
      const r = await viaLauncher(JSON.stringify(vscodeInput(ws, "list_dir", { path: ws })));
      assert.equal(r.status, 2);
      assert.equal(decision(r.stdout).decision, "deny");
    } finally {
      fs.renameSync(lib + ".away", lib);
      await startEndpoint();
    }
  });
});

describe("install copilot", () => {
  let home: string;
  let ws: string;
  let state: string;
  before(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-copilot-home-")));
    ws = path.join(home, "project");
    state = path.join(home, "state");
    fs.mkdirSync(ws);
  });
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  it("user level: one preToolUse entry both callers read, the stable launcher, timeout = ask + 15 s", () => {
    const r = installCopilot({ scope: "user", home, stateDir: state, askTimeoutSeconds: 30 });
    assert.equal(r.file, path.join(home, ".copilot/hooks/damage-control.json"));
    const file = JSON.parse(fs.readFileSync(r.file, "utf8"));
    assert.deepEqual(Object.keys(file.hooks), ["preToolUse"]);
    assert.equal(file.hooks.preToolUse.length, 1);
    const e = file.hooks.preToolUse[0];
    assert.equal(e.type, "command");
    assert.equal(e.bash, `'${path.join(state, "bin/damage-control-hook")}' copilot`);
    assert.equal(e.timeoutSec, 45);
    assert.equal(installCopilot({ scope: "user", home, stateDir: state, askTimeoutSeconds: 30 }).changed, false);
  });

  it("--repo: no machine path, no secret; a teammate without Damage Control gets exit 127 (VS Code goes on)", () => {
    const r = installCopilot({ scope: "repo", folder: ws });
    assert.equal(r.file, path.join(ws, ".github/hooks/damage-control.json"));
    const text = fs.readFileSync(r.file, "utf8");
    assert.equal(text.includes(home), false, "no machine path");
    assert.equal(text.includes(os.homedir()), false);
    assert.equal(/[A-Za-z0-9_-]{40,}/.test(text), false, "no token");
    const bash = JSON.parse(text).hooks.preToolUse[0].bash as string;
    const e = { PATH: process.env.PATH ?? "", HOME: path.join(home, "teammate") };
    const teammate = spawnSync("sh", ["-c", bash], { input: "{}", encoding: "utf8", env: e, cwd: ws });
    assert.equal(teammate.status, 127, teammate.stderr);
    // With Damage Control, the same line runs the launcher in that user's state folder.
    installLauncher({ stateDir: state, distDir: path.join(repoRoot, "dist"), nodePath: process.execPath });
    const withDc = spawnSync("sh", ["-c", bash], { input: JSON.stringify(vscodeInput(ws, "run_in_terminal", { command: "rm -rf /" })), encoding: "utf8", env: { ...e, DAMAGE_CONTROL_STATE_DIR: state }, cwd: ws });
    assert.equal(withDc.status, 0, withDc.stderr);
    assert.equal(decision(withDc.stdout).decision, "deny");
  });

  it("doctor's line, and uninstall removes exactly our file", () => {
    assert.equal(vscodeAgentCheck({ home, stateDir: state }).status, "ok");
    assert.equal(vscodeAgentCheck({ home, stateDir: state, trusted: false }).status, "fail");
    assert.equal(vscodeAgentCheck({ home, stateDir: state, useHooks: false }).status, "fail");
    assert.equal(uninstallCopilot({ scope: "user", home }).removed, true);
    assert.equal(fs.existsSync(userHookFile(home)), false);
    assert.equal(vscodeAgentCheck({ home, stateDir: state }).status, "warn");
    fs.mkdirSync(path.dirname(userHookFile(home)), { recursive: true });
    fs.writeFileSync(userHookFile(home), JSON.stringify({ hooks: { preToolUse: [{ type: "command", bash: "someone-elses-hook" }] } }));
    assert.equal(uninstallCopilot({ scope: "user", home }).removed, false, "not ours: left alone");
    assert.equal(uninstallCopilot({ scope: "repo", folder: ws }).removed, true);
    assert.equal(fs.existsSync(repoHookFile(ws)), false);
    assert.deepEqual(Object.keys(copilotHookFile({ scope: "repo" }).hooks as object), ["preToolUse"]);
  });

  it("CLI: install copilot writes the hook file and the launcher; uninstall removes it", () => {
    const e = { ...process.env, HOME: home, DAMAGE_CONTROL_STATE_DIR: path.join(home, "cli-state") };
    const i = spawnSync(process.execPath, [CLI, "install", "copilot"], { encoding: "utf8", env: e });
    assert.equal(i.status, 0, i.stderr);
    assert.ok(fs.existsSync(path.join(home, "cli-state/bin/damage-control-hook")));
    assert.ok(fs.existsSync(path.join(home, "cli-state/lib/cli.js")));
    assert.match(fs.readFileSync(userHookFile(home), "utf8"), /cli-state\/bin\/damage-control-hook/);
    const u = spawnSync(process.execPath, [CLI, "uninstall", "copilot"], { encoding: "utf8", env: e });
    assert.equal(u.status, 0, u.stderr);
    assert.equal(fs.existsSync(userHookFile(home)), false);
  });
});
