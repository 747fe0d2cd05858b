// Every cache whose keys come from the calls stays within its bound, however many distinct
// decisions go through the guard (counts of entries, not bytes or time). The bench prints the
// same sizes after 30,000 decisions (bench/run.ts, section 5).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { inProcessDecider } from "../../src/core/in-process-decider";
import { OnceWithin } from "../../src/core/once";
import { engineCacheSizes, type CacheSize } from "../../src/engine/cache-sizes";
import { decide } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";

/** The largest size each cache reached, by name, across samples. */
function widest(into: Map<string, CacheSize>, sizes: CacheSize[]): void {
  for (const c of sizes) if (c.size >= (into.get(c.name)?.size ?? -1)) into.set(c.name, c);
}

describe("caches stay within their bounds over many distinct decisions", function () {
  this.timeout(120_000);
  let tmp: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-cache-bounds-"));
    ws = path.join(tmp, "ws");
    fs.mkdirSync(ws);
    env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state"), XDG_CONFIG_HOME: path.join(tmp, "config"), HOME: tmp, DAMAGE_CONTROL_USER_RULES: path.join(tmp, "config/rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("through the guard: each distinct call (its own id, its own wildcard) keeps every cache within its bound", async () => {
    const guard = new Guard({ folders: [ws], home: tmp, decider: inProcessDecider, env, ledger: false, snapshots: false });
    const calls = 3000;
    const seen = new Map<string, CacheSize>();
    try {
      for (let i = 0; i < calls; i++) {
        const command = `chmod 600 *.key${i}`;
        await guard.handle("claude", { session_id: "s", cwd: ws, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: `toolu_${i}` });
        if (i % 50 === 49) widest(seen, [...engineCacheSizes(guard.rulesStates()[0].rules), { name: "guard: answers shared with copies", ...guard.decidedOnceEntries }]);
      }
    } finally {
      guard.close();
    }
    assert.equal(seen.size, 3, [...seen.keys()].join(", "));
    for (const c of seen.values()) {
      // Each cache was offered more distinct keys than its bound (else this proves nothing)…
      if (c.name !== "compiled path entries (contexts per rule set)") assert.ok(calls > c.bound, `${c.name}: ${calls} distinct calls, bound ${c.bound}`);
      // …and never held more.
      assert.ok(c.size <= c.bound, `${c.name}: ${c.size} entries, bound ${c.bound}`);
    }
    // The wildcard segments really were cached (the bound was reached, not bypassed).
    assert.ok((seen.get("compiled wildcard segments")?.size ?? 0) > 512, JSON.stringify([...seen.values()]));
  });

  it("compiled path entries: one rule set judged from 500 folders keeps at most its bound", () => {
    const rules = defaultRules();
    let most = 0;
    for (let i = 0; i < 500; i++) {
      decide({ tool: "Read", input: { file_path: `/work/p${i}/.env` } }, rules, { cwd: `/work/p${i}`, home: `/home/u${i % 7}` });
      const [compiled] = engineCacheSizes(rules);
      most = Math.max(most, compiled.size);
      assert.ok(compiled.size <= compiled.bound, `${compiled.size} > ${compiled.bound}`);
    }
    assert.ok(most >= 32, `the cache was used (${most} entries at most)`);
  });

  it("answers shared with copies: a flood of distinct calls within the window keeps at most the bound, and never drops a call still being decided", async () => {
    const once = new OnceWithin<number>(5000, () => 1_000);
    const stuck = once.run("in flight", () => new Promise<number>(() => undefined));
    for (let i = 0; i < 5000; i++) await once.run(`call ${i}`, async () => i).value;
    assert.ok(once.size <= once.maxSettled + 1, `${once.size} entries, bound ${once.maxSettled} settled + 1 in flight`);
    assert.equal(once.run("in flight", async () => -1).first, false, "the call still being decided is still shared");
    void stuck;
  });
  it("answers shared with copies: a copy within the window shares the answer, one after it is decided again, whatever order calls settled in", async () => {
    let t = 0;
    const once = new OnceWithin<string>(5000, () => t);
    let release!: () => void;
    const slow = once.run("slow", () => new Promise<string>((r) => (release = () => r("slow"))));
    await once.run("fast", async () => "fast").value;
    t = 4000;
    release();
    await slow.value;
    t = 5500; // "fast" settled at 0 (expired), "slow" at 4000 (within the window)
    assert.equal(once.run("slow", async () => "again").first, false, "settled 1.5 s ago: shared");
    assert.equal(once.run("fast", async () => "again").first, true, "settled 5.5 s ago: decided again");
    t = 20_000;
    assert.equal(once.run("slow", async () => "again").first, true);
    assert.ok(once.size <= 2, `${once.size} entries after both expired`);
  });
});
