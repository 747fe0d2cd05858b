// Damage Control with the real Qwen Code (@qwen-code/qwen-code 0.24.4 on Node 22, pinned in
// scripts/test-tools.js): `damage-control install qwen` writes the launcher as a PreToolUse hook
// into an isolated HOME's ~/.qwen/settings.json; `qwen -p … --yolo` runs one turn against a mock
// OpenAI chat-completions API on 127.0.0.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { register } from "../../src/core/registry";
import { installLauncher } from "../../src/install/launcher";
import { qwenTurn } from "./support/agent-turns";
import { describeGuardedAgent } from "./support/more-agents";
import { CLI, startGuarded, type Guarded } from "./support/guarded";
import { requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

/** Our hook group in the user settings, for a test to change the way an older or a broken install would be. */
function editOurHook(home: string, edit: (hook: Record<string, unknown>) => void): void {
  const file = path.join(home, ".qwen/settings.json");
  const s = JSON.parse(fs.readFileSync(file, "utf8"));
  const hook = s.hooks.PreToolUse.find((g: { hooks: { name: string }[] }) => g.hooks[0]?.name === "damage-control").hooks[0];
  edit(hook);
  fs.writeFileSync(file, JSON.stringify(s, null, 2));
}

const turn = qwenTurn({ proxy, addCleanup });

describeGuardedAgent("Qwen Code 0.24.4 with `damage-control install qwen`", { tool: "qwen-0.24.4", agent: "qwen", turn, addCleanup });

// Qwen Code 0.24.4 RUNS the call when a command hook exits with anything but 0 or 2, and when it
// times out (measured, docs/agents-more.md). What we install must end neither way.
describe("Qwen Code 0.24.4: the installed hook fails closed", function () {
  requireTools("qwen-0.24.4");
  let g: Guarded;
  beforeEach(async () => {
    g = await startGuarded();
    addCleanup(() => g.close());
  });
  const launcher = () => path.join(g.stateDir, "bin", "damage-control-hook");

  it("the launcher gone (state folder cleaned): refused, the model reads why", async () => {
    const { outputs } = await turn(g, "rm -r data", { before: () => fs.rmSync(launcher()) });
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(outputs[0]!, /Blocked by Damage Control: its hook launcher failed \(exit 127/);
  });

  it("control: the bare launcher command (as installed before) with the launcher gone deletes data/", async () => {
    await turn(g, "rm -r data", {
      before: (home) => {
        fs.rmSync(launcher());
        editOurHook(home, (h) => (h.command = `'${launcher()}' qwen`));
      },
    });
    assert.equal(g.proj.exists("data/keep.txt"), false, "data/ survived: the scenario proves nothing");
  });

  // A pending ask keeps the launcher's request open (keep-alive whitespace) until the ask timeout
  // + 10 s; Qwen must wait that long. Here the ask timeout is 20 s (launcher deadline 30 s) and an
  // endpoint that only ever sends whitespace stands in for the pending ask.
  async function slowEndpoint(): Promise<void> {
    installLauncher({ stateDir: g.stateDir, distDir: path.dirname(CLI), nodePath: process.execPath, askTimeoutSeconds: 20 });
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      const tick = setInterval(() => res.write(" "), 500);
      res.on("close", () => clearInterval(tick));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    addCleanup(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
    await g.stopEndpoint();
    register([g.proj.dir], `http://127.0.0.1:${(server.address() as AddressInfo).port}`, (server.address() as AddressInfo).port, "e2e-slow", g.stateDir);
  }

  it("a pending ask until the launcher's own deadline (30 s here): Qwen waits for it (the installed timeout), the launcher refuses", async () => {
    const { outputs } = await turn(g, "rm -r data", { before: async () => slowEndpoint() });
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(outputs[0]!, /Blocked by Damage Control/);
  });

  it("control: a hook timeout shorter than the launcher's deadline (10 s < 30 s) lets Qwen run the call", async () => {
    await turn(g, "rm -r data", {
      before: async (home) => {
        await slowEndpoint();
        editOurHook(home, (h) => (h.timeout = 10));
      },
    });
    assert.equal(g.proj.exists("data/keep.txt"), false, "data/ survived: the scenario proves nothing");
  });
});
