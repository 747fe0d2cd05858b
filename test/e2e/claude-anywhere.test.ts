// Claude Code started wherever (its own VS Code panel, an external terminal, a task): no
// DAMAGE_CONTROL_TOKEN or DAMAGE_CONTROL_URL in its environment. Before issue 14 every call was
// then refused (401); now the hook authenticates by itself and guards instead of blocking all.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { claudeBin } from "../../scripts/test-tools.js";
import { bash, startAnthropicMock, type AnthropicStep } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { startGuarded, type Guarded } from "./support/guarded";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";

const proxy = useProxyTrap();
const addCleanup = useCleanups();

for (const V of ["2.1.332", "2.1.197"] as const) {
  describe(`Claude Code ${V} without DAMAGE_CONTROL_TOKEN/URL in its environment`, function () {
    requireTools(`claude-${V}`);

    async function guardedRun(steps: AnthropicStep[], opts: { tokenFromEnv?: boolean } = {}): Promise<{ g: Guarded; results: { text: string; isError: boolean }[] }> {
      const g = await startGuarded();
      addCleanup(() => g.close());
      const r = g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) });
      assert.equal(r.status, 0, r.stderr);
      if (opts.tokenFromEnv) {
        // The hook as it was before: the header names $DAMAGE_CONTROL_TOKEN from the environment.
        const file = g.proj.path(".claude/settings.local.json");
        const text = fs.readFileSync(file, "utf8");
        assert.ok(text.includes(g.token), "the installed HTTP hook carries the token");
        const old = JSON.parse(text.split(`Bearer ${g.token}`).join("Bearer $DAMAGE_CONTROL_TOKEN"));
        for (const groups of Object.values(old.hooks) as { hooks: Record<string, unknown>[] }[][]) for (const grp of groups) for (const h of grp.hooks) h.allowedEnvVars = ["DAMAGE_CONTROL_TOKEN"];
        fs.writeFileSync(file, JSON.stringify(old, null, 2));
      }
      const mock = await startAnthropicMock({ steps });
      addCleanup(() => mock.close());
      const run = await runClaude({
        version: V,
        cwd: g.proj.dir,
        baseUrl: mock.url,
        prompt: "Do the work.",
        allowedTools: ["Bash", "Read", "Write", "Edit"],
        // Only the proxy trap: no DAMAGE_CONTROL_TOKEN, no DAMAGE_CONTROL_URL. (The state folder is
        // named for the old build's command hook only because this test's is not the default one.)
        env: { ...proxy.trap.env, ...(V === "2.1.197" && { DAMAGE_CONTROL_STATE_DIR: g.stateDir }) },
      });
      assert.equal(run.exitCode, 0, explain(run));
      proxy.assertNoEscapes();
      return { g, results: mock.toolResults().map((t) => ({ text: t.text, isError: t.isError })) };
    }

    it("rm -rf is refused with our rule's reason, by the endpoint", async function () {
      const { g, results } = await guardedRun([[bash("rm -rf data")]]);
      assert.ok(g.proj.exists("data/keep.txt"), "data/ was deleted");
      assert.equal(results[0]!.isError, true);
      assert.match(results[0]!.text, /Blocked by Damage Control: recursive or forced rm/);
      assert.ok(g.answers.some((a) => a.status === 200 && JSON.stringify(a.body).includes("recursive or forced rm")), "the endpoint decided (not a 401)");
      assert.ok(!g.answers.some((a) => a.status === 401), "no call was refused for want of a token");
    });

    if (V === "2.1.332") {
      it("control: the env-var form of the hook is refused here (401), so this environment really has no token", async function () {
        const { g, results } = await guardedRun([[bash("echo hi > out.txt")]], { tokenFromEnv: true });
        assert.equal(g.proj.exists("out.txt"), false, "a harmless call ran although the hook could not authenticate");
        assert.equal(results[0]!.isError, true);
        assert.ok(g.answers.some((a) => a.status === 401), "the endpoint refused the hook for want of a token");
      });
    }

    it("a harmless command runs", async function () {
      const { g, results } = await guardedRun([[bash("echo hi > out.txt")]]);
      assert.equal(g.proj.read("out.txt"), "hi\n");
      assert.equal(results[0]!.isError, false);
    });
  });
}
