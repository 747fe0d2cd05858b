// Damage Control with the real pi (1.6.0 and the legacy 0.73.1): the bundled extension
// (dist/pi-extension.js) loaded globally, asking the real endpoint, with its local fallback
// (dist/pi-local-guard.js beside it, loaded only then).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ToolId } from "../../scripts/test-tools.js";
import { piBash, startOpenAIMock, toolCall, type OpenAIStep } from "./support/openai-mock";
import { runPi, type PiRun, type PiVersion } from "./support/pi";
import { PI_EXTENSION, startGuarded, type Guarded } from "./support/guarded";
import { tempDir } from "./support/tmp";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

const VERSIONS: { version: PiVersion; tools: ToolId[] }[] = [
  { version: "1.6.0", tools: ["pi-1.6.0", "node22"] },
  { version: "0.73.1", tools: ["pi-0.73.1"] },
];

async function guarded(): Promise<Guarded> {
  const g = await startGuarded();
  addCleanup(() => g.close());
  return g;
}

async function run(g: Guarded, version: PiVersion, steps: OpenAIStep[], opts: { env?: Record<string, string>; extension?: string; mode?: "print" | "rpc"; rpcConfirm?: boolean } = {}): Promise<{ run: PiRun; results: string[] }> {
  const mock = await startOpenAIMock({ steps });
  addCleanup(() => mock.close());
  const r = await runPi({
    version,
    cwd: g.proj.dir,
    baseUrl: mock.baseUrl,
    prompt: "Do the work.",
    extensions: [opts.extension ?? PI_EXTENSION],
    env: { ...proxy.trap.env, ...g.env, ...opts.env },
    mode: opts.mode ?? "print",
    ...(opts.rpcConfirm !== undefined && { rpcAnswer: (req) => (req.method === "confirm" ? { confirmed: opts.rpcConfirm! } : undefined) }),
  });
  assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return { run: r, results: mock.toolResults().map((t) => t.text) };
}

/** Through `extension` (default: the built one), `rm -rf data` is refused and a harmless echo runs. */
async function refusesRmRunsEcho(g: Guarded, version: PiVersion, extension?: string): Promise<void> {
  const { results } = await run(g, version, [[piBash("rm -rf data")], [piBash("echo ok > fine.txt")]], { extension });
  assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
  assert.match(results[0]!, /^Blocked by Damage Control: recursive or forced rm/);
  assert.equal(g.proj.read("fine.txt"), "ok\n");
}

for (const { version, tools } of VERSIONS) {
  describe(`pi ${version} with the bundled extension`, function () {
    requireTools(...tools);

    it("`damage-control install pi` output loads and blocks rm -rf; the reason reaches the model", async function () {
      const g = await guarded();
      const agentDir = tempDir("pi-install");
      const r = g.cli(["install", "pi"], { PI_CODING_AGENT_DIR: agentDir });
      assert.equal(r.status, 0, r.stderr);
      const installed = path.join(agentDir, "damage-control/pi-extension.js");
      const { results } = await run(g, version, [[piBash("rm -rf data")]], { extension: installed });
      assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
      assert.match(results[0]!, /^Blocked by Damage Control: recursive or forced rm .*Do not work around this; report it to the user\.$/s);
      assert.ok(g.answers.some((a) => a.route === "/hook/pi"), "the endpoint decided");
    });

    it("reading .env (with pi's @ mention) and writing a read-only folder are blocked; harmless work runs", async function () {
      const g = await guarded();
      const { results } = await run(g, version, [[toolCall("read", { path: "@.env" })], [toolCall("write", { path: "config/new.yaml", content: "x" })], [piBash("echo hi > out.txt")]]);
      assert.match(results[0]!, /zero-access/);
      assert.ok(!results[0]!.includes("never-show-this"));
      assert.match(results[1]!, /read-only/);
      assert.equal(g.proj.exists("config/new.yaml"), false);
      assert.equal(g.proj.read("out.txt"), "hi\n");
    });

    it("an ask rule in print mode (no UI) is a refusal that says nobody could confirm", async function () {
      const g = await guarded();
      const { results } = await run(g, version, [[piBash("touch needs-a-human")]]);
      assert.equal(g.proj.exists("needs-a-human"), false);
      assert.match(results[0]!, /nobody could confirm it/);
    });

    it("the endpoint stopped: the extension decides locally with the same rules", async function () {
      const g = await guarded();
      await g.stopEndpoint();
      await refusesRmRunsEcho(g, version);
    });

    it("installed: with the endpoint stopped, the local guard installed beside the extension decides", async function () {
      const g = await guarded();
      const agentDir = tempDir("pi-install");
      const r = g.cli(["install", "pi"], { PI_CODING_AGENT_DIR: agentDir });
      assert.equal(r.status, 0, r.stderr);
      await g.stopEndpoint();
      await refusesRmRunsEcho(g, version, path.join(agentDir, "damage-control/pi-extension.js"));
    });

    it("the local guard is loaded only when the endpoint cannot answer; without it then, every call is refused", async function () {
      const g = await guarded();
      const dir = tempDir("pi-no-local-guard");
      const alone = path.join(dir, "pi-extension.js");
      fs.copyFileSync(PI_EXTENSION, alone);
      // The endpoint answers: the extension never needs its local guard.
      await refusesRmRunsEcho(g, version, alone);
      assert.ok(g.answers.some((a) => a.route === "/hook/pi"), "the endpoint decided");
      // It cannot: a harmless call is refused, never let through undecided (the test before shows
      // the same call runs when the local guard is there).
      await g.stopEndpoint();
      const down = await run(g, version, [[piBash("echo two > other.txt")]], { extension: alone });
      assert.equal(g.proj.exists("other.txt"), false, "a call ran undecided");
      assert.match(down.results[0]!, /pi-local-guard\.js could not be loaded .*damage-control install pi/s);
    });

    it("the endpoint stopped, an ask in RPC mode goes to pi's own confirm dialog", async function () {
      const g = await guarded();
      await g.stopEndpoint();
      const denied = await run(g, version, [[piBash("touch needs-a-human")]], { mode: "rpc", rpcConfirm: false });
      assert.equal(g.proj.exists("needs-a-human"), false);
      assert.ok(denied.run.uiRequests.some((u) => u.method === "confirm"), "pi showed a confirm dialog");
      assert.match(denied.results[0]!, /did not allow it/);
      const allowed = await run(g, version, [[piBash("touch needs-a-human")]], { mode: "rpc", rpcConfirm: true });
      assert.ok(allowed.run.uiRequests.some((u) => u.method === "confirm"));
      assert.equal(g.proj.exists("needs-a-human"), true, "the human allowed it");
    });

    it("a wrong token: decided locally, still blocked", async function () {
      const g = await guarded();
      const { results } = await run(g, version, [[piBash("rm -rf data")]], { env: { DAMAGE_CONTROL_TOKEN: "wrong-token" } });
      assert.ok(g.proj.exists("data/keep.txt"));
      assert.match(results[0]!, /Blocked by Damage Control/);
      assert.ok(g.answers.some((a) => a.status === 401), "the endpoint refused the wrong token");
    });

    it("the rules file edited on disk: the next call follows the new rules", async function () {
      const g = await guarded();
      await run(g, version, [[piBash("echo one > made.txt")]]);
      const rulesFile = g.proj.path(".pi/damage-control-rules.yaml");
      fs.writeFileSync(rulesFile, fs.readFileSync(rulesFile, "utf8").replace("  - config/\n", "  - config/\n  - made.txt\n"));
      const second = await run(g, version, [[piBash("echo two > made.txt")]]);
      assert.equal(g.proj.read("made.txt"), "one\n");
      assert.match(second.results[0]!, /Blocked by Damage Control/);
    });
  });
}
