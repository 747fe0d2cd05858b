import * as assert from "node:assert/strict";
import { claudeBody, piBody } from "./support";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { Ledger, type LedgerEntry } from "../../src/core/ledger";

const entry = (i: number): LedgerEntry => ({ time: new Date().toISOString(), agent: "claude", event: "PreToolUse", tool: "Bash", target: `cmd ${i} ${"x".repeat(i % 300)}`, decision: "block", folder: "/w" });

describe("audit ledger", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-ledger-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("10,000 decisions at once → 10,000 valid JSON lines, none interleaved", async () => {
    const ledger = new Ledger(dir, 1024 ** 3);
    for (let i = 0; i < 10_000; i++) ledger.append(entry(i));
    await ledger.drain();
    const lines = fs.readFileSync(ledger.file, "utf8").split("\n").filter(Boolean);
    assert.equal(lines.length, 10_000);
    const seen = new Set(lines.map((l) => (JSON.parse(l) as LedgerEntry).target.split(" ")[1]));
    assert.equal(seen.size, 10_000);
  });

  it("10,000 concurrent decisions through the guard (two ledgers' worth of writers)", async () => {
    const g = new Guard({ folders: [dir], home: "/home/dev" });
    const calls = Array.from({ length: 10_000 }, (_, i) => piBody(g, { toolName: "bash", input: { command: `rm -rf build-${i}` }, cwd: dir }));
    const answers = await Promise.all(calls);
    assert.ok(answers.every((a) => a.block));
    await g.drain();
    const lines = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8").split("\n").filter(Boolean);
    assert.equal(lines.length, 10_000);
    for (const l of lines) JSON.parse(l);
  });

  it("a decision is recorded right after its answer went out, in the order decided; a failing listener stops nothing", async () => {
    const g = new Guard({ folders: [dir], home: "/home/dev" });
    const seen: string[] = [];
    g.on("decision", (d: { target: string }) => {
      seen.push(d.target);
      if (d.target.includes("first")) throw new Error("a listener failed");
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      assert.equal((await piBody(g, { toolName: "bash", input: { command: "rm -rf first" }, cwd: dir })).block, true);
      assert.deepEqual(seen, [], "nothing of the record is on the agent's wait");
      assert.equal(g.stats.decisions, 1, "counted at once");
      assert.equal((await piBody(g, { toolName: "bash", input: { command: "rm -rf second" }, cwd: dir })).block, true);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, ["rm -rf first", "rm -rf second"]);
      await g.drain();
      const lines = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8").split("\n").filter(Boolean);
      assert.deepEqual(lines.map((l) => (JSON.parse(l) as LedgerEntry).target), ["rm -rf first", "rm -rf second"]);
      await new Promise((r) => setImmediate(r));
      assert.ok(warnings.some((w) => /recording a decision failed: a listener failed/.test(w)), warnings.join("; "));
    } finally {
      process.off("warning", onWarning);
      g.close();
    }
  });

  it("rotates at the size limit and keeps three old files", async () => {
    const ledger = new Ledger(dir, 20_000);
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 50; i++) ledger.append(entry(i));
      await ledger.drain();
    }
    const files = fs.readdirSync(path.join(dir, ".damage-control")).filter((f) => f.startsWith("audit.jsonl")).sort();
    // The current file may be absent right after a rotation; never more than three old ones.
    assert.deepEqual(files.filter((f) => f !== "audit.jsonl"), ["audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.3"]);
    for (const f of files) assert.ok(fs.statSync(path.join(dir, ".damage-control", f)).size < 40_000, f);
    assert.equal(ledger.tail(120).length, 120, "tail reads across rotated files");
  });

  it("never holds the content of a zero-access file", async () => {
    const secret = "AKIA-SUPER-SECRET-4242";
    fs.writeFileSync(path.join(dir, ".env"), `API_KEY=${secret}\n`);
    const g = new Guard({ folders: [dir], home: "/home/dev" });
    const calls = [
      { toolName: "write", input: { path: ".env", content: `API_KEY=${secret}` } },
      { toolName: "edit", input: { path: ".env", edits: [{ oldText: "x", newText: secret }] } },
      { toolName: "bash", input: { command: `echo API_KEY=${secret} >> .env` } },
      { toolName: "bash", input: { command: `printf '%s' ${secret} | tee .env` } },
      { toolName: "read", input: { path: ".env" } },
    ];
    for (const c of calls) {
      const a = await piBody(g, { ...c, cwd: dir });
      assert.equal(a.block, true, JSON.stringify(c.input));
    }
    const claude = await claudeBody(g, { hook_event_name: "PreToolUse", cwd: dir, tool_name: "Write", tool_input: { file_path: path.join(dir, ".env"), content: secret } });
    assert.ok(JSON.stringify(claude).length > 2);
    await g.drain();
    const text = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8");
    assert.equal(text.split("\n").filter(Boolean).length, 6);
    assert.ok(!text.includes(secret), "the secret is not in the ledger");
  });
});
