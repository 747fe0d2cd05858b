// No secret in what the guard records or shows (issue 35): every secret shape of
// test/support/secret-shapes.ts goes through a real Guard; none of the values is in the ledger
// file, the feed's "decision" events, an OTLP export (with command text on) or the real CLI's
// `snapshots --json`, and each command is still recognisable. The ledger file is 0600 in a 0700
// folder, also when an older layout left them open.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { Guard, type DecisionRecord } from "../../src/core/guard";
import { attachTelemetry } from "../../src/hookserver/telemetry-loader";
import { startTelemetry } from "../../src/hookserver/telemetry";
import { SECRET_CASES } from "../support/secret-shapes";
import { claudeBody, repoRoot } from "./support";

const ALL_SECRETS = SECRET_CASES.flatMap((c) => c.secrets);

function leaks(text: string): string[] {
  return ALL_SECRETS.filter((s) => text.includes(s));
}

describe("no secret in the ledger, the feed, OTLP or snapshots", () => {
  let dir: string;
  let state: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-redact-"));
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-redact-state-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  it("every secret shape: absent from ledger, feed, OTLP and snapshots --json; the commands recognisable", async () => {
    const bodies: string[] = [];
    const collector = http.createServer((req, res) => {
      let b = "";
      req.on("data", (c) => (b += c));
      req.on("end", () => {
        bodies.push(b);
        res.end("{}");
      });
    });
    await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    const env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: state, HOME: state };
    const guard = new Guard({ folders: [dir], home: state, env });
    const telemetry = startTelemetry({ endpoint: url, includeContent: true, serviceVersion: "t", metricIntervalMs: 60_000, logDelayMs: 60_000 });
    attachTelemetry(guard, telemetry);
    const feed: DecisionRecord[] = [];
    guard.on("decision", (d: DecisionRecord) => feed.push(d));
    try {
      for (const [i, c] of SECRET_CASES.entries()) {
        // Each secret rides on a call that destroys a file (a snapshot is kept) and on one alone.
        fs.writeFileSync(path.join(dir, `scratch-${i}.txt`), "x");
        await claudeBody(guard, { session_id: "s", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `${c.command}; rm scratch-${i}.txt` } });
        await claudeBody(guard, { session_id: "s", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: c.command } });
      }
      await guard.drain();
    } finally {
      guard.close();
      await telemetry.shutdown();
      collector.close();
    }
    const ledger = fs.readFileSync(path.join(dir, ".damage-control/audit.jsonl"), "utf8");
    assert.equal(ledger.trim().split("\n").length, SECRET_CASES.length * 2);
    assert.deepEqual(leaks(ledger), [], "ledger");
    assert.deepEqual(leaks(JSON.stringify(feed)), [], "feed");
    assert.ok(bodies.join("").includes("Authorization: Bearer"), "the OTLP export carries the command text");
    assert.deepEqual(leaks(bodies.join("\n")), [], "OTLP");
    for (const c of SECRET_CASES) {
      const line = feed.find((d) => d.target.startsWith(c.keeps[0]) || d.target.includes(c.keeps[0]));
      assert.ok(line, `${c.what}: the command is recognisable in the feed`);
      for (const k of c.keeps) assert.ok(ledger.includes(JSON.stringify(k).slice(1, -1)), `${c.what}: "${k}" kept in the ledger`);
    }
    const listed = execFileSync(process.execPath, [path.join(repoRoot, "dist/cli.js"), "snapshots", "--json", "--cwd", dir], { env }).toString();
    const snapshots = JSON.parse(listed) as { command: string }[];
    assert.ok(snapshots.length >= SECRET_CASES.length / 2, `snapshots were kept (${snapshots.length})`);
    assert.deepEqual(leaks(listed), [], "snapshots --json");
    const text = execFileSync(process.execPath, [path.join(repoRoot, "dist/cli.js"), "snapshots", "--cwd", dir], { env }).toString();
    assert.deepEqual(leaks(text), [], "snapshots");
  });

  it("the ledger is 0600 in a 0700 folder, and an open older layout is closed on first write", async () => {
    fs.mkdirSync(path.join(dir, ".damage-control"), { mode: 0o755 });
    fs.chmodSync(path.join(dir, ".damage-control"), 0o755);
    fs.writeFileSync(path.join(dir, ".damage-control/audit.jsonl"), "", { mode: 0o644 });
    fs.chmodSync(path.join(dir, ".damage-control/audit.jsonl"), 0o644);
    const guard = new Guard({ folders: [dir], home: state, env: { ...process.env, DAMAGE_CONTROL_STATE_DIR: state } });
    await claudeBody(guard, { session_id: "s", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf data" } });
    await guard.drain();
    guard.close();
    assert.equal(fs.statSync(path.join(dir, ".damage-control")).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dir, ".damage-control/audit.jsonl")).mode & 0o777, 0o600);
  });
});
