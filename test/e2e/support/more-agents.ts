// Runs the pinned Codex CLI, Gemini CLI and Copilot CLI for one non-interactive turn against a
// mock model on 127.0.0.1, each with its own isolated HOME (so its config, trust and hooks are
// only what the test wrote). How each is driven offline: /work/shared/notes/more-agents.md.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentCommand, type AgentToolId } from "../../../scripts/test-tools.js";
import { isolatedEnv } from "./env";
import { startGuarded, type Guarded } from "./guarded";
import { logRun, runInGroup, type GroupRunResult } from "./process";
import { requireTools } from "./suite";
import { e2eRoot, tempDir } from "./tmp";

export type MoreAgentTool = AgentToolId;

export interface AgentRunOptions {
  tool: MoreAgentTool;
  cwd: string;
  /** The isolated HOME (config files already written into it by the test). */
  home: string;
  args: string[];
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export type AgentRun = GroupRunResult;

export function agentHome(prefix: string): string {
  const home = tempDir(`${prefix}-home`);
  fs.mkdirSync(path.join(home, "tmp"));
  return home;
}

export async function runAgent(o: AgentRunOptions): Promise<AgentRun> {
  const [command, ...prefix] = agentCommand(o.tool);
  const env = isolatedEnv({ home: o.home, tmpdir: path.join(o.home, "tmp"), gitCeiling: path.dirname(o.cwd), extra: { XDG_CONFIG_HOME: path.join(o.home, ".config"), XDG_CACHE_HOME: path.join(o.home, ".cache"), XDG_DATA_HOME: path.join(o.home, ".local/share"), XDG_STATE_HOME: path.join(o.home, ".local/state"), NO_UPDATE_NOTIFIER: "1", CI: "1", ...o.env } });
  // The agents run tool commands with /bin/sh or bash; the hook command starts `node`: PATH must have it.
  env.PATH = `${path.dirname(process.execPath)}:${env.PATH ?? "/usr/bin:/bin"}`;
  const r = await runInGroup({ command: command!, args: [...prefix, ...o.args], cwd: o.cwd, env, timeoutMs: o.timeoutMs ?? 120_000, stopSignals: ["SIGINT", "SIGTERM", "SIGKILL"] });
  logRun(`${o.tool} ${o.args.filter((a) => !a.includes(" ")).join(" ")}`, r);
  return r;
}

export function explainRun(r: AgentRun): string {
  return `exit ${r.exitCode} signal ${r.signal} timedOut ${r.timedOut} in ${r.durationMs} ms\nstdout: ${r.stdout.slice(-3000)}\nstderr: ${r.stderr.slice(-3000)}`;
}

export { e2eRoot };

/** One turn of an agent CLI in the guarded project: what the model was told for each tool call. */
export type AgentTurn = (g: Guarded, command: string, opts?: { install?: boolean }) => Promise<{ outputs: (string | undefined)[] }>;

/**
 * The four scenarios every command-hook agent must pass, with its real CLI: the refusal (data/
 * survives, the model reads our reason, the endpoint decided, the ledger names the agent), a
 * harmless command runs, the endpoint stopped is still a refusal, and the control run without
 * our hook that proves the scenario can fail.
 */
export function describeGuardedAgent(title: string, o: { tool: AgentToolId; agent: string; turn: AgentTurn; addCleanup: (f: () => unknown) => void }): void {
  describe(title, function () {
    requireTools(o.tool);
    let g: Guarded;
    beforeEach(async () => {
      g = await startGuarded();
      o.addCleanup(() => g.close());
    });

    it("refuses `rm -r data`: data/ survives and the model's next request carries our reason", async () => {
      const { outputs } = await o.turn(g, "rm -r data");
      assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
      assert.equal(outputs.length, 1);
      assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
      assert.ok(g.answers.some((a) => a.route === `/hook/${o.agent}`), "the endpoint decided");
      await g.guard.drain();
      const file = path.join(g.proj.dir, ".damage-control/audit.jsonl");
      const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, string>) : [];
      const line = lines.find((l) => l.target === "rm -r data");
      assert.equal(line?.agent, o.agent);
      assert.equal(line?.decision, "block");
    });

    it("a harmless `ls data` runs", async () => {
      const { outputs } = await o.turn(g, "ls data");
      assert.match(outputs[0]!, /keep\.txt/);
      assert.doesNotMatch(outputs[0]!, /Blocked by Damage Control/);
    });

    it("with the endpoint stopped the call is still refused (local decision)", async () => {
      await g.stopEndpoint();
      const { outputs } = await o.turn(g, "rm -r data");
      assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
      assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
    });

    it("control: without our hook the same turn deletes data/ (the test can fail)", async () => {
      await o.turn(g, "rm -r data", { install: false });
      assert.equal(g.proj.exists("data/keep.txt"), false, "data/ survived without the hook: the scenario proves nothing");
    });
  });
}
