// The fail-closed matrix: each real client × each way the guard can fail. In every cell the
// tool call does not run and the agent is told why (for a deleted rules file, the documented
// fallback — the embedded defaults — applies; for a broken one, the last good rules stay).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { claudeBin } from "../../scripts/test-tools.js";
import { register } from "../../src/core/registry";
import { bash, startAnthropicMock } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { startGuarded, PI_EXTENSION, type Guarded } from "./support/guarded";
import { piBash, startOpenAIMock } from "./support/openai-mock";
import { runPi } from "./support/pi";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

type Client = "claude-2.1.332" | "claude-2.1.197" | "pi-1.6.0";
type Failure = "endpoint not running" | "endpoint hangs" | "endpoint answers 500" | "wrong token" | "rules file deleted" | "rules file broken mid-edit" | "engine throws";
const FAILURES: Failure[] = ["endpoint not running", "endpoint hangs", "endpoint answers 500", "wrong token", "rules file deleted", "rules file broken mid-edit", "engine throws"];

/** What each cell observed, printed as the README's matrix at the end. */
const matrix = new Map<string, string>();
after(() => {
  if (matrix.size === 0) return;
  console.log("\n      fail-closed matrix (tool ran? → what the agent read)");
  for (const [cell, seen] of matrix) console.log(`      ${cell}: ${seen}`);
});

/** A stand-in at the endpoint's own address that hangs or answers 500. */
async function standIn(g: Guarded, behaviour: "hang" | "500"): Promise<void> {
  const port = g.endpoint!.port;
  await g.stopEndpoint();
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    if (behaviour === "500") {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "ignored: a 500's body" } }));
    }
    // "hang": never answer.
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  register(g.guard.folders, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, port, "stand-in", g.stateDir);
  addCleanup(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
}

/** Puts the guard into one failure mode. Returns extra env for the agent. */
async function fail(g: Guarded, f: Failure): Promise<Record<string, string>> {
  const rules = g.proj.path(".pi/damage-control-rules.yaml");
  switch (f) {
    case "endpoint not running":
      await g.stopEndpoint();
      return {};
    case "endpoint hangs":
      await standIn(g, "hang");
      return {};
    case "endpoint answers 500":
      await standIn(g, "500");
      return {};
    case "wrong token": {
      // Wherever each transport reads the token: the HTTP hook's header in Claude Code's local
      // settings, the token file (the launcher, the pi extension), the environment (pi in a VS
      // Code terminal). The endpoint keeps the real one.
      const settings = g.proj.path(".claude/settings.local.json");
      if (fs.existsSync(settings)) fs.writeFileSync(settings, fs.readFileSync(settings, "utf8").split(g.token).join("not-the-token"));
      fs.writeFileSync(path.join(g.stateDir, "token"), "not-the-token\n", { mode: 0o600 });
      return { DAMAGE_CONTROL_TOKEN: "not-the-token" };
    }
    case "rules file deleted":
      fs.rmSync(rules);
      return {};
    case "rules file broken mid-edit":
      fs.writeFileSync(rules, "bashToolPatterns:\n  - pattern: '\\brm\n    reason: [unfinished\n");
      return {};
    case "engine throws":
      return {};
  }
}

/** The dangerous call of each cell; "engine throws" carries the marker that makes the engine throw. */
function commandFor(f: Failure): string {
  return f === "engine throws" ? "rm -rf data # DC_INJECT_FAULT" : "rm -rf data";
}

/** What the agent must have been told in this cell. */
function expectedReason(client: Client, f: Failure): RegExp {
  if (f === "engine throws") return /could not decide \(internal error: injected engine fault/;
  if (f === "rules file deleted") return /Blocked by Damage Control: recursive or forced rm/;
  if (f === "rules file broken mid-edit") return /Blocked by Damage Control: recursive or forced rm/;
  if (client === "claude-2.1.332") return f === "endpoint hangs" ? /timed out; blocking because onFailure is "block"/ : /blocking because onFailure is "block"/;
  // The command hook and the pi extension decide locally with the same rules.
  return /Blocked by Damage Control: recursive or forced rm/;
}

async function guardedFor(client: Client): Promise<Guarded> {
  // Read by the endpoint's decider (its worker copies the environment when it starts).
  process.env.DAMAGE_CONTROL_TEST_FAULT = "throw";
  const g = await startGuarded();
  addCleanup(() => {
    delete process.env.DAMAGE_CONTROL_TEST_FAULT;
    return g.close();
  });
  if (client.startsWith("claude")) {
    const version = client.slice("claude-".length) as "2.1.332";
    const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(version) });
    assert.equal(r.status, 0, r.stderr);
    // Shorter waits than the installed 45 s, so a hanging endpoint costs seconds, not minutes. The
    // command hook (the launcher) gives up on an endpoint that sends nothing for 5 s and decides
    // locally: its hook timeout must leave it that time, as the installed 45 s does.
    const file = g.proj.path(".claude/settings.local.json");
    const s = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const groups of Object.values(s.hooks) as { hooks: { timeout: number; type: string; command?: string }[] }[][]) {
      for (const grp of groups) for (const h of grp.hooks) h.timeout = h.type === "command" ? 15 : 4;
    }
    fs.writeFileSync(file, JSON.stringify(s, null, 2));
  }
  return g;
}

async function runCell(client: Client, f: Failure): Promise<void> {
  const g = await guardedFor(client);
  const env = { ...proxy.trap.env, ...g.env, DAMAGE_CONTROL_TEST_FAULT: "throw", DAMAGE_CONTROL_PI_TIMEOUT_MS: "2000", ...(await fail(g, f)) };
  const command = commandFor(f);
  let text: string;
  if (client.startsWith("claude")) {
    const mock = await startAnthropicMock({ steps: [[bash(command)]] });
    addCleanup(() => mock.close());
    const r = await runClaude({ version: client.slice(7) as "2.1.332", cwd: g.proj.dir, baseUrl: mock.url, prompt: "Clean up.", allowedTools: ["Bash"], env });
    assert.equal(r.exitCode, 0, explain(r));
    const results = mock.toolResults();
    assert.equal(results.length, 1);
    assert.equal(results[0]!.isError, true, results[0]!.text);
    text = results[0]!.text;
  } else {
    const mock = await startOpenAIMock({ steps: [[piBash(command)]] });
    addCleanup(() => mock.close());
    const r = await runPi({ version: "1.6.0", cwd: g.proj.dir, baseUrl: mock.baseUrl, prompt: "Clean up.", extensions: [PI_EXTENSION], env });
    assert.equal(r.exitCode, 0, explain(r));
    text = mock.toolResults()[0]!.text;
  }
  proxy.assertNoEscapes();
  const ran = !g.proj.exists("data/keep.txt");
  matrix.set(`${client} × ${f}`, `${ran ? "RAN" : "blocked"} → ${text.replace(/\s+/g, " ").slice(0, 110)}`);
  assert.equal(ran, false, `${client} × ${f}: the tool ran`);
  assert.match(text, expectedReason(client, f));
}

for (const client of ["claude-2.1.332", "claude-2.1.197", "pi-1.6.0"] as Client[]) {
  describe(`fail-closed: ${client}`, function () {
    requireTools(...(client === "pi-1.6.0" ? (["pi-1.6.0", "node22"] as const) : ([client] as const)));
    for (const f of FAILURES) {
      it(`${f}: the tool does not run and the agent is told why`, async function () {
        await runCell(client, f);
      });
    }
  });
}

// In the "rules file broken" cell the last good rules are in force, not the defaults: an ask rule
// that only the scenario rules have still stops its command.
describe("fail-closed: a broken rules file keeps the last good rules, not the defaults", function () {
  requireTools("pi-1.6.0", "node22");
  it("the scenario's own ask rule still applies after the file breaks", async function () {
    const g = await guardedFor("pi-1.6.0");
    await fail(g, "rules file broken mid-edit");
    const mock = await startOpenAIMock({ steps: [[piBash("touch needs-a-human")]] });
    addCleanup(() => mock.close());
    const r = await runPi({ version: "1.6.0", cwd: g.proj.dir, baseUrl: mock.baseUrl, prompt: "Go.", extensions: [PI_EXTENSION], env: { ...proxy.trap.env, ...g.env } });
    assert.equal(r.exitCode, 0, explain(r));
    assert.equal(g.proj.exists("needs-a-human"), false);
    assert.match(mock.toolResults()[0]!.text, /creating this file needs a human/);
  });
});
