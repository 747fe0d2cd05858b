// What issue 35's checks cost per decision, in-process (µs per call, median of 7 rounds):
//   node dist/bench/self-protection.js
// redact(): every ledger line, feed event and OTLP record (off the answer's path: after it is sent);
// withSelfProtection(): every bash PreToolUse call (on the path) — a command without any guard
// verb or signal word, one that names a verb of another program, one that runs the product;
// lookupEndpoint(): every command hook's registry lookup, now reading the endpoint's process.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lookupEndpoint, register, unregister } from "../src/core/registry";
import { withSelfProtection } from "../src/core/self-program";
import type { Judgement } from "../src/engine/judge";
import { redact } from "../src/engine/redact/redact";

function perCall(fn: () => void, n: number): number {
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - t) / 1000 / n);
  }
  return rounds.sort((a, b) => a - b)[3];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-bench-self-"));
const folder = path.join(tmp, "w");
fs.mkdirSync(folder);
const copy = path.join(tmp, "tool.js");
fs.copyFileSync(path.join(__dirname, "..", "cli.js"), copy);
const none: Judgement = { kind: "neutral" };
const call = (command: string) => ({ agent: "claude" as const, event: "PreToolUse", call: { tool: "Bash", input: { command } }, cwd: folder });
const ctx = { cwd: folder, home: tmp, stateDir: path.join(tmp, "state") };
const rows: [string, number][] = [];

const plain = "npm test -- --grep parser && git status";
const secret = `curl -H "Authorization: Bearer tok_live_9f8e7d6c5b4a3" -u admin:pw https://api.example.com/v1/me && PGPASSWORD=x psql -c 'select 1'`;
rows.push(["redact(): a command with nothing secret", perCall(() => redact(plain), 20000)]);
rows.push(["redact(): a command with three secrets", perCall(() => redact(secret), 20000)]);
rows.push(["withSelfProtection(): no guard verb or signal word (prefilter)", perCall(() => withSelfProtection(none, call(plain), ctx), 20000)]);
rows.push(["withSelfProtection(): `hugo serve` (PATH lookup, not the product)", perCall(() => withSelfProtection(none, call("hugo serve --port 1313"), ctx), 2000)]);
rows.push(["withSelfProtection(): `node tool.js serve` (the product, cached)", perCall(() => withSelfProtection(none, call(`node ${copy} serve`), ctx), 2000)]);
rows.push(["withSelfProtection(): `kill 12345` (registry read)", perCall(() => withSelfProtection(none, call("kill 12345"), ctx), 2000)]);
register([folder], "http://127.0.0.1:1", 1, "bench", ctx.stateDir);
rows.push(["lookupEndpoint(): a live endpoint, its process checked", perCall(() => lookupEndpoint(folder, ctx.stateDir), 2000)]);
rows.push(["lookupEndpoint(): the same without the process check", perCall(() => lookupEndpoint(folder, ctx.stateDir, { trust: false }), 2000)]);
unregister([folder], ctx.stateDir);
fs.rmSync(tmp, { recursive: true, force: true });

for (const [what, us] of rows) console.log(`${us.toFixed(2).padStart(9)} µs  ${what}`);
