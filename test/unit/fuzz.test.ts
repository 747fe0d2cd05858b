// Hostile input to the endpoint, generated: random bytes, wrong JSON types, deep nesting, huge
// strings, unicode tricks, missing fields, unknown events; plus a slow-loris client and
// oversized bodies. The server must stay up with bounded memory, and nothing it cannot
// understand may come out as an allow.
import * as assert from "node:assert/strict";
import * as fc from "fast-check";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { HOOK_EVENTS } from "../../src/engine/events";
import { BoundedDecider, locateWorker } from "../../src/core/decider";
import { Guard } from "../../src/core/guard";
import { MAX_BODY_BYTES, startEndpoint, type Endpoint } from "../../src/hookserver/server";
import { request, type Reply } from "./http-client";

const TOKEN = "f".repeat(43);
const RUNS = Number(process.env.DC_FUZZ_RUNS || 10_000);

/** Unicode that has fooled path and command matchers elsewhere. */
const TRICKS = ["\u0000", "\u200f", "\u202e", "\u200b", "\ufeff", "\u0435" /* Cyrillic е */, "\uff0f" /* fullwidth / */, "..", "~", "$HOME", "`", "$(", "\\", "\n", "\ud800"];
const trickyString = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 10, arbitrary: fc.array(fc.constantFrom(...TRICKS, "rm -rf /", ".env", "~/.ssh/id_rsa", "sudo ", "/", "a"), { maxLength: 12 }).map((a) => a.join("")) },
  { weight: 5, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  // Huge and overlong: rarer, they cost the most.
  { weight: 1, arbitrary: fc.nat({ max: 300_000 }).map((n) => "a/".repeat(n % 5000) + "x".repeat(n)) },
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const tool = fc.constantFrom("Bash", "Read", "Write", "Edit", "Glob", "Grep", "NotebookEdit", "bash", "read", "ls", "find", "WebFetch", "", "Nonsense");
const eventName = fc.oneof(fc.constantFrom(...HOOK_EVENTS.map((e) => e.name)), fc.string({ maxLength: 20 }));
const toolInput = fc.oneof(
  fc.record({ command: trickyString }),
  fc.record({ file_path: trickyString, content: trickyString }),
  fc.record({ path: trickyString, pattern: trickyString }),
  anyJson,
  fc.constant(null),
);
const claudePayload = fc.record(
  {
    hook_event_name: eventName,
    session_id: fc.oneof(fc.string(), anyJson),
    cwd: fc.oneof(trickyString, anyJson),
    tool_name: fc.oneof(tool, anyJson),
    tool_input: toolInput,
    extra: anyJson,
  },
  { requiredKeys: [] },
);
const piPayload = fc.record({ toolName: fc.oneof(tool, anyJson), input: toolInput, cwd: fc.oneof(trickyString, anyJson) }, { requiredKeys: [] });

/** A body: valid JSON of the expected shape (mostly), JSON of any shape, or raw bytes. */
const body = fc.oneof(
  { weight: 5, arbitrary: claudePayload.map((p) => ({ route: "/claude/hook", text: JSON.stringify(p), payload: p as unknown })) },
  { weight: 2, arbitrary: piPayload.map((p) => ({ route: "/pi/tool-call", text: JSON.stringify(p), payload: p as unknown })) },
  { weight: 1, arbitrary: anyJson.map((p) => ({ route: "/claude/hook", text: JSON.stringify(p), payload: p as unknown })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ route: "/claude/hook", text: Buffer.from(b).toString("latin1"), payload: undefined as unknown })) },
  { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => ({ route: "/claude/hook", text: "[".repeat(n) + "]".repeat(n), payload: undefined as unknown })) },
);

const ENFORCED = new Set(HOOK_EVENTS.filter((e) => e.enforce === "rules").map((e) => e.name));
const KNOWN = new Set(HOOK_EVENTS.map((e) => e.name));

function assertNeverAllowed(req: { route: string; payload: unknown }, r: Reply): void {
  assert.ok([200, 400, 413].includes(r.status), `status ${r.status}`);
  if (r.status !== 200) return;
  const text = r.text;
  // No human answered anything here: an "allow" would be a fail-open.
  assert.ok(!/"permissionDecision":"allow"|"behavior":"allow"/.test(text), `allowed: ${text.slice(0, 200)}`);
  if (req.route === "/pi/tool-call") {
    const b = r.json as { block: boolean };
    assert.equal(typeof b.block, "boolean");
    const p = req.payload as Record<string, unknown> | undefined;
    if (!p || typeof p.toolName !== "string" || p.toolName === "") assert.equal(b.block, true, "a pi call without a tool name is refused");
    return;
  }
  const p = req.payload as Record<string, unknown> | undefined;
  const event = p && typeof p === "object" && !Array.isArray(p) ? p.hook_event_name : undefined;
  const gate = typeof event !== "string" || event === "" || ENFORCED.has(event) || !KNOWN.has(event);
  if (!gate) {
    // Observe/context/neutral events: no opinion, or a shape that is not an allow.
    return;
  }
  const understood = p && typeof p.tool_name === "string" && p.tool_name !== "" && typeof event === "string" && KNOWN.has(event) && p.tool_input !== undefined;
  if (!understood) {
    assert.match(text, /"permissionDecision":"deny"|"behavior":"deny"|"decision":"block"/, `a gating request it cannot understand must be denied: ${JSON.stringify(p)?.slice(0, 200)} → ${text.slice(0, 200)}`);
  }
}

/**
 * A body over the cap is answered 413 and the connection closed while the client may still be
 * writing: the client then sees a reset instead of the 413. Either way nothing was allowed (and
 * Claude Code with onFailure "block" blocks on both). Any other transport error is a failure.
 */
async function sendOrReset(port: number, b: { route: string; text: string }): Promise<Reply | "reset"> {
  try {
    return await request(port, { path: b.route, token: TOKEN, body: b.text });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (Buffer.byteLength(b.text) > MAX_BODY_BYTES && (code === "ECONNRESET" || code === "EPIPE")) return "reset";
    throw e;
  }
}

describe("hostile input to the endpoint (property-based)", function () {
  this.timeout(300_000);
  let dir: string;
  let guard: Guard;
  let ep: Endpoint;
  const send = (b: { route: string; text: string }) => sendOrReset(ep.port, b);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-fuzz-"));
    guard = new Guard({ folders: [dir], ledger: false, decider: new BoundedDecider(locateWorker()!, 2000) });
    ep = await startEndpoint({ guard, token: TOKEN, port: 0, headersTimeoutMs: 1000, requestTimeoutMs: 3000 });
  });
  after(async () => {
    await ep.close();
    guard.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`${RUNS} generated requests: the server stays up, memory stays bounded, nothing is allowed`, async () => {
    const rssBefore = process.memoryUsage().rss;
    let sent = 0;
    const heapAfter: number[] = [];
    // Two halves: memory is bounded when the second half keeps no more than the first did.
    for (const half of [0, 1]) {
      await fc.assert(
        fc.asyncProperty(fc.array(body, { minLength: 8, maxLength: 8 }), async (batch) => {
          // Eight at a time: concurrency on the server, without the client becoming the bottleneck.
          const replies = await Promise.all(batch.map((b) => send(b)));
          sent += batch.length;
          batch.forEach((b, i) => {
            const r = replies[i]!;
            if (r !== "reset") assertNeverAllowed(b, r);
          });
        }),
        { numRuns: Math.ceil(RUNS / 16), seed: (Number(process.env.DC_FUZZ_SEED) || Date.now()) + half, endOnFailure: true },
      );
      global.gc?.();
      heapAfter.push(process.memoryUsage().heapUsed / 2 ** 20);
    }
    assert.ok(sent >= RUNS);
    const health = await request(ep.port, { method: "GET", path: "/health", token: TOKEN });
    assert.equal(health.status, 200, "still serving");
    const growth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    const kept = heapAfter[1]! - heapAfter[0]!;
    console.log(`      ${sent} requests; heap after each half ${heapAfter.map((h) => h.toFixed(0)).join(" → ")} MiB${global.gc ? " (after GC)" : ""}; rss growth ${growth.toFixed(0)} MiB`);
    // Huge generated strings linger (V8 keeps the last regex input, parser caches), so the heap
    // after a collection moves by tens of MiB between halves; a leak of ≥ 20 KB per request
    // (100 MiB over the second half) would still show.
    if (global.gc) assert.ok(kept < 100, `the second half kept ${kept.toFixed(0)} MiB more than the first: memory grows with the number of requests`);
    assert.ok(growth < 600, `memory grew by ${growth.toFixed(0)} MiB`);
  });

  it("a slow-loris client is cut off and does not stop others from being served", async () => {
    const socket = net.connect(ep.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    const closed = new Promise<number>((r) => {
      const t = Date.now();
      socket.on("close", () => r(Date.now() - t));
      socket.on("error", () => undefined);
    });
    const header = `POST /claude/hook HTTP/1.1\r\nHost: 127.0.0.1:${ep.port}\r\n`;
    let i = 0;
    const drip = setInterval(() => {
      if (i < header.length && !socket.destroyed) socket.write(header[i++]!);
    }, 200);
    const other = await request(ep.port, { method: "GET", path: "/health", token: TOKEN });
    assert.equal(other.status, 200, "served while the slow client dawdles");
    const after = await closed;
    clearInterval(drip);
    assert.ok(after < 8000, `slow client held its socket for ${after} ms`);
  });

  it("oversized bodies are refused, declared or streamed", async () => {
    const declared = await request(ep.port, { path: "/claude/hook", token: TOKEN, body: "x".repeat(MAX_BODY_BYTES + 1) });
    assert.equal(declared.status, 413);
    const big = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo " + "y".repeat(MAX_BODY_BYTES) } });
    assert.equal((await request(ep.port, { path: "/claude/hook", token: TOKEN, body: big })).status, 413);
    assert.equal((await request(ep.port, { method: "GET", path: "/health", token: TOKEN })).status, 200);
  });
});
