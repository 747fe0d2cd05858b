// Proves the e2e harness itself with the real clients and no Damage Control code: each test puts
// a minimal stand-in guard where the product will sit (an HTTP hook server, a command hook, a pi
// extension), has the scripted model ask for `rm -rf data`, and checks both that the folder
// survived and the exact text the model was shown next. If these pass, a later failure in a
// product scenario is about the product, not about the harness.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ToolId } from "../../scripts/test-tools.js";
import { bash, startAnthropicMock, type AnthropicMock } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { sendJson, startLoopbackServer, unusedPort, type LoopbackServer } from "./support/loopback-server";
import { piBash, startOpenAIMock, type OpenAIMock } from "./support/openai-mock";
import { runPi, type PiVersion } from "./support/pi";
import { makeProject, type Project } from "./support/project";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";
import { tempDir } from "./support/tmp";

const DENY = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "HARNESS-DENY" } };

const proxy = useProxyTrap();
const assertNoEscapes = proxy.assertNoEscapes;
const addCleanup = useCleanups();

async function anthropic(steps: Parameters<typeof startAnthropicMock>[0]["steps"]): Promise<AnthropicMock> {
  const m = await startAnthropicMock({ steps });
  addCleanup(() => m.close());
  return m;
}

async function hookServer(answer: unknown): Promise<LoopbackServer> {
  const s = await startLoopbackServer((_req, res) => sendJson(res, 200, answer));
  addCleanup(() => s.close());
  return s;
}

function project(): Project {
  const p = makeProject({ files: { "data/keep.txt": "precious\n" } });
  addCleanup(() => p.remove());
  return p;
}

const httpHook = (url: string, extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "http", url, timeout: 5, ...extra }] }] } });

describe("e2e harness: Claude Code 2.1.332, HTTP hook", function () {
  requireTools("claude-2.1.332");

  it("a deny answer blocks rm -rf; the model sees the reason as an error tool_result", async function () {
    const proj = project();
    const hook = await hookServer(DENY);
    const mock = await anthropic([[bash("rm -rf data", "Delete data folder")]]);
    const token = "harness-token-123";
    const run = await runClaude({
      version: "2.1.332",
      cwd: proj.dir,
      baseUrl: mock.url,
      prompt: "Delete the data folder.",
      // The product writes .claude/settings.local.json, so this test uses that placement.
      settingsTarget: "local",
      settings: httpHook(`${hook.url}/hook`, { headers: { Authorization: "Bearer $DAMAGE_CONTROL_TOKEN" }, allowedEnvVars: ["DAMAGE_CONTROL_TOKEN"] }),
      // Pre-allowed, so only the hook can be what stopped it.
      allowedTools: ["Bash"],
      env: { ...proxy.trap.env, DAMAGE_CONTROL_TOKEN: token },
    });
    assert.equal(run.exitCode, 0, explain(run));
    assert.ok(proj.exists("data/keep.txt"), "data/ was deleted");
    assert.deepEqual(
      mock.toolResults().map((r) => ({ text: r.text, isError: r.isError })),
      [{ text: "PreToolUse:Bash hook error: HARNESS-DENY", isError: true }],
    );
    assert.equal(hook.requests.length, 1);
    assert.equal(hook.requests[0]!.headers.authorization, `Bearer ${token}`, "the env var was interpolated into the header");
    assert.equal(hook.requests[0]!.body.tool_name, "Bash");
    assert.equal(hook.requests[0]!.body.tool_input.command, "rm -rf data");
    assert.deepEqual(run.result?.permission_denials?.map((d) => d.tool_input.command), ["rm -rf data"]);
    assertNoEscapes();
  });

  it("a {} answer (no opinion) lets a pre-allowed harmless command run", async function () {
    const proj = project();
    const hook = await hookServer({});
    const mock = await anthropic([[bash("echo hi > out.txt", "Write a file")]]);
    const run = await runClaude({ version: "2.1.332", cwd: proj.dir, baseUrl: mock.url, prompt: "Write out.txt.", settings: httpHook(`${hook.url}/hook`), allowedTools: ["Bash"], env: proxy.trap.env });
    assert.equal(run.exitCode, 0, explain(run));
    assert.equal(proj.read("out.txt"), "hi\n");
    const results = mock.toolResults();
    assert.equal(results.length, 1);
    assert.equal(results[0]!.isError, false, results[0]!.text);
    assert.equal(hook.requests.length, 1);
    assert.equal(hook.requests[0]!.body.tool_input.command, "echo hi > out.txt");
    assert.equal(run.result?.is_error, false);
    assertNoEscapes();
  });

  it('onFailure:"block" with nothing listening fails closed', async function () {
    const proj = project();
    const port = await unusedPort();
    const mock = await anthropic([[bash("rm -rf data", "Delete data folder")]]);
    const run = await runClaude({
      version: "2.1.332",
      cwd: proj.dir,
      baseUrl: mock.url,
      prompt: "Delete the data folder.",
      settings: httpHook(`http://127.0.0.1:${port}/hook`, { onFailure: "block" }),
      allowedTools: ["Bash"], // without the hook, this would run
      env: proxy.trap.env,
    });
    assert.equal(run.exitCode, 0, explain(run));
    assert.ok(proj.exists("data/keep.txt"), "data/ was deleted");
    const results = mock.toolResults();
    assert.equal(results.length, 1);
    assert.equal(results[0]!.isError, true);
    assert.match(results[0]!.text, /^PreToolUse:Bash hook error: \[http:\/\/127\.0\.0\.1:\d+\/hook\]: failed; blocking because onFailure is "block"\n.*ECONNREFUSED/s);
    assertNoEscapes();
  });
});

describe("e2e harness: Claude Code 2.1.197, command hook", function () {
  requireTools("claude-2.1.197");

  it("a command hook printing deny JSON blocks rm -rf", async function () {
    const proj = project();
    const dir = tempDir("hook");
    const seen = path.join(dir, "stdin.json");
    const script = path.join(dir, "deny.js");
    // Records the payload it got on stdin, then answers deny on stdout.
    fs.writeFileSync(
      script,
      `let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {\n` +
        `  require("fs").writeFileSync(${JSON.stringify(seen)}, s);\n` +
        `  process.stdout.write(${JSON.stringify(JSON.stringify(DENY))});\n});\n`,
    );
    const mock = await anthropic([[bash("rm -rf data", "Delete data folder")]]);
    const run = await runClaude({
      version: "2.1.197",
      cwd: proj.dir,
      baseUrl: mock.url,
      prompt: "Delete the data folder.",
      settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `node ${JSON.stringify(script)}`, timeout: 10 }] }] } },
      allowedTools: ["Bash"],
      env: proxy.trap.env,
    });
    assert.equal(run.exitCode, 0, explain(run));
    assert.ok(proj.exists("data/keep.txt"), "data/ was deleted");
    assert.deepEqual(
      mock.toolResults().map((r) => ({ text: r.text, isError: r.isError })),
      [{ text: "HARNESS-DENY", isError: true }],
    );
    const payload = JSON.parse(fs.readFileSync(seen, "utf8"));
    assert.equal(payload.hook_event_name, "PreToolUse");
    assert.equal(payload.tool_input.command, "rm -rf data");
    assertNoEscapes();
  });
});

/** A pi extension as the product will ship one: type-only imports, default export, tool_call. */
function writeExtension(body: string): string {
  const file = path.join(tempDir("pi-ext"), "harness-guard.ts");
  fs.writeFileSync(
    file,
    `import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";\n` +
      `export default function (pi: ExtensionAPI) {\n` +
      `  pi.on("tool_call", async (event, ctx) => {\n` +
      `    const cmd = event.toolName === "bash" ? String((event.input as { command?: unknown }).command) : "";\n` +
      `    if (!cmd.startsWith("rm ")) return undefined;\n${body}\n  });\n}\n`,
  );
  return file;
}

const PI_VERSIONS: { version: PiVersion; tool: ToolId }[] = [
  { version: "1.6.0", tool: "pi-1.6.0" },
  { version: "0.73.1", tool: "pi-0.73.1" },
];

for (const { version, tool } of PI_VERSIONS) {
  describe(`e2e harness: pi ${version}, extension`, function () {
    requireTools(tool, "node22");

    let mock: OpenAIMock;
    beforeEach(async function () {
      // A harmless command first (proves tools really run through the extension), then rm.
      mock = await startOpenAIMock({ steps: [[piBash("echo hi > out.txt")], [piBash("rm -rf data")]] });
      addCleanup(() => mock.close());
    });

    it("print mode: {block:true} stops rm -rf; the reason is the model's tool result", async function () {
      const proj = project();
      const ext = writeExtension(`    return { block: true, reason: "HARNESS-BLOCK" };`);
      const run = await runPi({ version, cwd: proj.dir, baseUrl: mock.baseUrl, prompt: "Clean up.", extensions: [ext], env: proxy.trap.env });
      assert.equal(run.exitCode, 0, explain(run));
      assert.equal(proj.read("out.txt"), "hi\n");
      assert.ok(proj.exists("data/keep.txt"), "data/ was deleted");
      const results = mock.toolResults();
      assert.equal(results.length, 2, JSON.stringify(results));
      assert.notEqual(results[0]!.text, "HARNESS-BLOCK");
      assert.equal(results[1]!.text, "HARNESS-BLOCK");
      assertNoEscapes();
    });

    it("rpc mode: a declined ctx.ui.confirm blocks; the dialog reached the client", async function () {
      const proj = project();
      const ext = writeExtension(
        `    const ok = await ctx.ui.confirm("HARNESS-CONFIRM", "Run " + cmd + "?");\n` + `    return ok ? undefined : { block: true, reason: "HARNESS-DECLINED" };`,
      );
      const run = await runPi({
        version,
        cwd: proj.dir,
        baseUrl: mock.baseUrl,
        prompt: "Clean up.",
        extensions: [ext],
        extensionsVia: "dir", // the other placement; runs above use settings.json
        mode: "rpc",
        env: proxy.trap.env,
        rpcAnswer: (req) => (req.method === "confirm" ? { confirmed: false } : undefined),
      });
      assert.equal(run.exitCode, 0, explain(run));
      assert.equal(run.timedOut, false);
      assert.equal(proj.read("out.txt"), "hi\n");
      assert.ok(proj.exists("data/keep.txt"), "data/ was deleted");
      const dialogs = run.uiRequests.filter((r) => r.method === "confirm");
      assert.deepEqual(dialogs.map((d) => [d.title, d.message]), [["HARNESS-CONFIRM", "Run rm -rf data?"]]);
      assert.equal(mock.toolResults()[1]?.text, "HARNESS-DECLINED");
      assertNoEscapes();
    });
  });
}
