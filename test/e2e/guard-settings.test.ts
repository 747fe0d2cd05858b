// The guard's own settings with the real Claude Code (issue 15): the agent's Write to
// .vscode/settings.json that sets damageControl.rulesFile is refused; a Write to the same file that
// only changes editor.fontSize passes. The file on disk is checked after each.
import * as assert from "node:assert/strict";
import { claudeBin } from "../../scripts/test-tools.js";
import { startAnthropicMock, toolUse, type AnthropicStep } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { startGuarded, type Guarded } from "./support/guarded";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const V = "2.1.332";
const SETTINGS = '{\n  // the developer\'s own\n  "editor.fontSize": 12\n}\n';

async function guarded(): Promise<Guarded> {
  const g = await startGuarded({ files: { ".vscode/settings.json": SETTINGS } });
  addCleanup(() => g.close());
  const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) });
  assert.equal(r.status, 0, r.stderr);
  return g;
}

async function run(g: Guarded, steps: AnthropicStep[]): Promise<{ text: string; isError: boolean }[]> {
  const mock = await startAnthropicMock({ steps });
  addCleanup(() => mock.close());
  // bypassPermissions: Claude Code's own "sensitive file" check on .vscode/ would refuse both Writes
  // by itself; with it off, whatever stops a Write here is Damage Control.
  const r = await runClaude({ version: V, cwd: g.proj.dir, baseUrl: mock.url, prompt: "Do the work.", permissionMode: "bypassPermissions", allowedTools: ["Bash", "Read", "Write", "Edit"], env: { ...proxy.trap.env, ...g.env } });
  assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return mock.toolResults().map((t) => ({ text: t.text, isError: t.isError }));
}

describe("Claude Code: the guard's own settings are read-only for the agent", function () {
  requireTools("claude-2.1.332");

  it("a Write setting damageControl.rulesFile is refused; one changing only editor.fontSize passes", async function () {
    const g = await guarded();
    const file = g.proj.path(".vscode/settings.json");
    const results = await run(g, [
      // Claude Code's Write wants the file read first.
      [toolUse("Read", { file_path: file })],
      [toolUse("Write", { file_path: file, content: '{\n  "editor.fontSize": 12,\n  "damageControl.rulesFile": "/tmp/empty-rules.yaml"\n}\n' })],
      [toolUse("Write", { file_path: file, content: '{\n  // the developer\'s own\n  "editor.fontSize": 14\n}\n' })],
    ]);
    assert.equal(results.length, 3, JSON.stringify(results));
    assert.equal(results[0]!.isError, false, results[0]!.text);
    assert.equal(results[1]!.isError, true, results[1]!.text);
    assert.match(results[1]!.text, /Blocked by Damage Control: .*damageControl\.rulesFile/s);
    assert.equal(results[2]!.isError, false, results[2]!.text);
    const after = g.proj.read(".vscode/settings.json");
    assert.doesNotMatch(after, /damageControl/, "the guard's setting reached the file");
    assert.match(after, /"editor\.fontSize": 14/, "the harmless edit did not happen");
  });
});
