// The guard's endpoint as the extension starts it for the fixture workspace (run-host-suite.main.ts
// opens it with DAMAGE_CONTROL_STATE_DIR = the fixture's temp state dir), and what integrated
// terminals get to reach it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { readRegistration } from "../../../src/core/registry";
import { bashHook, FIXTURE_COUNTS, fixtureFromEnv, permission, postClaudeHook, request, RM_PATTERN } from "../support/fixture-workspace";
import { resultsDir } from "../support/paths";
import { dcApi, dcEndpoint, until } from "./helpers";

suite("endpoint", () => {
  const fx = fixtureFromEnv();

  test("activation starts the endpoint for the workspace folder, in the test's state dir", async () => {
    const api = await dcApi();
    assert.equal(api.host.down, undefined, `endpoint down: ${api.host.down}`);
    assert.deepEqual(api.host.folders(), [fx.workspace]);
    const reg = readRegistration(fx.workspace, fx.stateDir);
    assert.ok(reg, `no registration in ${fx.stateDir}/endpoints`);
    assert.equal(reg.active, true);
    assert.equal(reg.host, "vscode");
    assert.equal(reg.pid, process.pid, "registered by another process than this extension host");
    assert.equal(reg.url, api.host.endpoint!.url);
    assert.match(reg.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(fs.readFileSync(path.join(fx.stateDir, "token"), "utf8").trim(), /^[A-Za-z0-9_-]{32,}$/);
  });

  test("GET /health with the token answers 200 with the rule counts of the rules file", async () => {
    const { url, token } = await dcEndpoint(await dcApi());
    const h = await request(url, token, "GET", "/health");
    assert.equal(h.status, 200, JSON.stringify(h.body));
    assert.equal(h.body.ok, true);
    assert.equal(h.body.folders.length, 1);
    const [f] = h.body.folders;
    assert.equal(f.folder, fx.workspace);
    assert.equal(f.source, "file", "the fixture's rules file is not the one in force");
    assert.equal(f.broken, false);
    assert.deepEqual(f.counts, FIXTURE_COUNTS);
  });

  test("the endpoint refuses a request without the token, or with a wrong one", async () => {
    const { url, token } = await dcEndpoint(await dcApi());
    assert.equal((await request(url, undefined, "GET", "/health")).status, 401);
    assert.equal((await request(url, token.replace(/^./, (c) => (c === "A" ? "B" : "A")), "GET", "/health")).status, 401);
    assert.equal((await request(url, undefined, "POST", "/claude/hook", bashHook(fx.workspace, "ls"))).status, 401);
  });

  test("the fixture's block rule is in force: rm -rf is denied, ls gets no opinion", async () => {
    const { url, token } = await dcEndpoint(await dcApi());
    const rm = await postClaudeHook(url, token, bashHook(fx.workspace, "rm -rf build"));
    assert.equal(rm.status, 200);
    assert.equal(permission(rm)?.decision, "deny", JSON.stringify(rm.body));
    assert.ok(permission(rm)!.reason.includes(RM_PATTERN), permission(rm)!.reason);
    const ls = await postClaudeHook(url, token, bashHook(fx.workspace, "ls -la"));
    assert.equal(ls.status, 200);
    assert.deepEqual(ls.body, {});
  });

  test("activation timing is reported (test-results/activation.json for the benchmarks)", async () => {
    const api = await dcApi();
    const { activateMs, readyMs } = api.timing;
    assert.ok(activateMs > 0 && activateMs < 10_000, `activateMs ${activateMs}`);
    assert.ok(readyMs !== undefined && readyMs >= activateMs && readyMs < 30_000, `readyMs ${readyMs}`);
    const file = path.join(resultsDir(), "activation.json");
    fs.writeFileSync(file, JSON.stringify({ activateMs, readyMs, measuredAt: new Date().toISOString() }, null, 2) + "\n");
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).readyMs, readyMs);
  });

  test("an integrated terminal gets DAMAGE_CONTROL_URL and DAMAGE_CONTROL_TOKEN", async function () {
    this.timeout(40_000);
    const { url, token } = await dcEndpoint(await dcApi());
    const out = path.join(fx.workspace, ".damage-control", `terminal-env-${Date.now()}.txt`);
    const script = `printf '%s\\n%s\\n' "$DAMAGE_CONTROL_URL" "$DAMAGE_CONTROL_TOKEN" > '${out}.tmp' && mv '${out}.tmp' '${out}'`;
    const terminal = vscode.window.createTerminal({ name: "dc-env-check", shellPath: "/bin/sh", shellArgs: ["-c", script], cwd: fx.workspace });
    try {
      const text = await until(() => fs.existsSync(out) && fs.readFileSync(out, "utf8"), 30_000, `the terminal to write ${out}`);
      const [gotUrl, gotToken] = text.split("\n");
      assert.equal(gotUrl, url, "DAMAGE_CONTROL_URL in the terminal");
      assert.equal(gotToken, token, "DAMAGE_CONTROL_TOKEN in the terminal");
      // What the terminal got is enough for an agent started there to reach the guard.
      assert.equal((await request(gotUrl, gotToken, "GET", "/health")).status, 200);
    } finally {
      terminal.dispose();
      fs.rmSync(out, { force: true });
    }
  });
});
