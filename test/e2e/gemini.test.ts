// Damage Control with the real Gemini CLI (@google/gemini-cli 0.61.0, pinned in
// scripts/test-tools.js): `damage-control install gemini` writes the BeforeTool hook into the
// project's .gemini/settings.json; `gemini -p` runs one turn against a mock Gemini API on 127.0.0.1.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentHome, explainRun, runAgent } from "./support/more-agents";
import { startGeminiMock } from "./support/gemini-mock";
import { startGuarded, type Guarded } from "./support/guarded";
import { requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

/** The user settings Gemini CLI needs to talk to a mock offline (more-agents.md). */
function writeUserSettings(home: string): void {
  fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  fs.writeFileSync(path.join(home, ".gemini/settings.json"), JSON.stringify(settings, null, 2));
}

async function turn(g: Guarded, command: string, opts: { install?: boolean } = {}) {
  const mock = await startGeminiMock({ steps: [{ name: "run_shell_command", args: { command, description: "do it" } }] });
  addCleanup(() => mock.close());
  const home = agentHome("gemini");
  writeUserSettings(home);
  if (opts.install !== false) {
    const r = g.cli(["install", "gemini", "--cwd", g.proj.dir], { HOME: home });
    assert.equal(r.status, 0, r.stderr);
  }
  const run = await runAgent({
    tool: "gemini-0.61.0",
    cwd: g.proj.dir,
    home,
    args: ["-p", "Do the work.", "--yolo", "-o", "text", "-m", "gemini-2.5-flash"],
    env: { ...proxy.trap.env, ...g.env, GEMINI_API_KEY: "dummy", GOOGLE_GEMINI_BASE_URL: mock.url, GEMINI_CLI_NO_RELAUNCH: "true" },
  });
  assert.equal(run.exitCode, 0, explainRun(run));
  proxy.assertNoEscapes();
  assert.ok(mock.mainRequests().length >= 2, `the model was asked once only: ${explainRun(run)}`);
  return { run, outputs: mock.toolResponses(), mock };
}

describe("Gemini CLI 0.61.0 with `damage-control install gemini`", function () {
  requireTools("gemini-0.61.0");
  let g: Guarded;
  beforeEach(async () => {
    g = await startGuarded();
    addCleanup(() => g.close());
  });

  it("refuses `rm -r data`: data/ survives and the model's next request carries our reason", async () => {
    const { outputs } = await turn(g, "rm -r data");
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.equal(outputs.length, 1);
    assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
    assert.ok(g.answers.some((a) => a.route === "/hook/gemini"), "the endpoint decided");
    await g.guard.drain();
    const lines = fs.readFileSync(path.join(g.proj.dir, ".damage-control/audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const line = lines.find((l) => l.target === "rm -r data");
    assert.equal(line?.agent, "gemini");
    assert.equal(line?.decision, "block");
  });

  it("a harmless `ls data` runs", async () => {
    const { outputs } = await turn(g, "ls data");
    assert.match(outputs[0]!, /keep\.txt/);
    assert.doesNotMatch(outputs[0]!, /Blocked by Damage Control/);
  });

  it("with the endpoint stopped the call is still refused (local decision)", async () => {
    await g.stopEndpoint();
    const { outputs } = await turn(g, "rm -r data");
    assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
    assert.match(outputs[0]!, /Blocked by Damage Control: recursive or forced rm/);
  });

  it("control: without our hook the same turn deletes data/ (the test can fail)", async () => {
    await turn(g, "rm -r data", { install: false });
    assert.equal(g.proj.exists("data/keep.txt"), false, "data/ survived without the hook: the scenario proves nothing");
  });
});
