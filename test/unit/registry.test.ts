// Which endpoint guards which folder; stable ports; EADDRINUSE.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { byPathFile, lookupEndpoint, preferredPort, readRegistration, register, unregister } from "../../src/core/registry";
import { startGuardEndpoint } from "../../src/hookserver/start";

describe("endpoint registry and ports", () => {
  let state: string;
  let a: string;
  let b: string;
  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-reg-"));
    a = fs.mkdtempSync(path.join(os.tmpdir(), "dc-reg-a-"));
    b = fs.mkdtempSync(path.join(os.tmpdir(), "dc-reg-b-"));
  });
  afterEach(() => {
    for (const d of [state, a, b]) fs.rmSync(d, { recursive: true, force: true });
  });

  it("the old launcher index (by-path/<folder>/.endpoint) is no longer written, and a leftover is removed", () => {
    // Behaviour change on purpose: the sh launcher's fast path trusted this "URL PID" line without
    // checking the process listening on the port (test/unit/endpoint-trust.test.ts); nothing reads
    // it now, and removing a leftover sends a launcher an older build wrote to the local decision.
    const file = byPathFile(a, state);
    assert.equal(file, path.join(state, "endpoints", "by-path", path.resolve(a), ".endpoint"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "http://127.0.0.1:45678 1\n");
    register([a], "http://127.0.0.1:45678", 45678, "test", state);
    assert.equal(fs.existsSync(file), false, "register() removes the leftover line");
    assert.equal(readRegistration(a, state)?.port, 45678, "the JSON registration is written");
    fs.writeFileSync(file, "http://127.0.0.1:45678 1\n");
    unregister([a], state);
    assert.equal(fs.existsSync(file), false);
    assert.equal(readRegistration(a, state)?.active, false, "the JSON registration keeps the port for next time");
  });

  it("a folder keeps its port across restarts when it is free", async () => {
    const g = new Guard({ folders: [a], ledger: false });
    const first = await startGuardEndpoint(g, "t".repeat(43), { host: "test", stateDir: state });
    const port = first.port;
    assert.equal(preferredPort(a, state), port);
    unregister([a], state);
    await first.close();
    const second = await startGuardEndpoint(g, "t".repeat(43), { host: "test", stateDir: state });
    assert.equal(second.port, port);
    assert.equal(second.moved, false);
    await second.close();
    g.close();
  });

  it("EADDRINUSE: the usual port is taken, another is used and published", async () => {
    const blocker = net.createServer();
    const port = preferredPort(b, state);
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", () => r()));
    const g = new Guard({ folders: [b], ledger: false });
    try {
      const ep = await startGuardEndpoint(g, "t".repeat(43), { host: "test", stateDir: state });
      assert.notEqual(ep.port, port);
      assert.equal(ep.moved, true);
      assert.equal(lookupEndpoint(b, state)?.url, ep.url);
      await ep.close();
    } finally {
      blocker.close();
      g.close();
    }
  });

  it("several windows: each guards its own folders, lookups find the deepest one", async () => {
    const inner = path.join(a, "pkg");
    fs.mkdirSync(inner);
    const ga = new Guard({ folders: [a], ledger: false });
    const gi = new Guard({ folders: [inner], ledger: false });
    const ea = await startGuardEndpoint(ga, "t".repeat(43), { host: "w1", stateDir: state, port: 0 });
    const ei = await startGuardEndpoint(gi, "t".repeat(43), { host: "w2", stateDir: state, port: 0 });
    try {
      assert.equal(lookupEndpoint(path.join(a, "src"), state)?.url, ea.url);
      assert.equal(lookupEndpoint(path.join(inner, "lib"), state)?.url, ei.url);
      assert.equal(lookupEndpoint(b, state), undefined);
      unregister([inner], state);
      assert.equal(lookupEndpoint(path.join(inner, "lib"), state)?.url, ea.url, "inactive: falls back to the outer window");
      assert.equal(readRegistration(inner, state)?.active, false);
    } finally {
      await ea.close();
      await ei.close();
      ga.close();
      gi.close();
    }
  });

  it("a registration of a dead process is ignored", () => {
    const dir = path.join(state, "endpoints");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "x.json"), JSON.stringify({ folder: a, url: "http://127.0.0.1:1", port: 1, pid: 2 ** 22 + 12345, active: true, host: "x", updatedAt: "" }));
    assert.equal(lookupEndpoint(a, state), undefined);
  });
});
