// The OpenTelemetry export against a loopback OTLP/HTTP receiver that decodes what it gets:
// a real Guard's decisions as log records and the damage_control.decisions counter; command
// text and paths absent by default, present with includeContent; and `serve --otlp` end to end.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { attachTelemetry } from "../../src/hookserver/telemetry-loader";
import { DECISIONS_COUNTER, signalUrl, startTelemetry } from "../../src/hookserver/telemetry";
import { request } from "./http-client";
import { repoRoot, claudeBody } from "./support";

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

interface LogRecord {
  body: AnyValue;
  severityText?: string;
  attributes: Record<string, string>;
}
interface DataPoint {
  attributes: Record<string, string>;
  value: number;
}

function attrs(list: KeyValue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list ?? []) out[kv.key] = String(kv.value.stringValue ?? kv.value.intValue ?? kv.value.doubleValue ?? kv.value.boolValue);
  return out;
}

/** A loopback OTLP/HTTP (JSON) collector: records every POST body by path and decodes it. */
class Receiver {
  readonly bodies: { path: string; contentType: string; json: any }[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST") {
        this.bodies.push({ path: req.url ?? "", contentType: String(req.headers["content-type"]), json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const addr = this.server.address() as { port: number };
    return `http://127.0.0.1:${addr.port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  logs(): LogRecord[] {
    const out: LogRecord[] = [];
    for (const b of this.bodies.filter((x) => x.path === "/v1/logs")) {
      for (const rl of b.json.resourceLogs ?? []) {
        assert.equal(attrs(rl.resource.attributes)["service.name"], "damage-control");
        for (const sl of rl.scopeLogs ?? []) for (const r of sl.logRecords ?? []) out.push({ body: r.body, severityText: r.severityText, attributes: attrs(r.attributes) });
      }
    }
    return out;
  }

  /** The counter's data points from the last metrics export (cumulative, so the totals). */
  counter(name: string): DataPoint[] {
    let last: DataPoint[] = [];
    for (const b of this.bodies.filter((x) => x.path === "/v1/metrics")) {
      for (const rm of b.json.resourceMetrics ?? []) {
        for (const sm of rm.scopeMetrics ?? []) {
          for (const m of sm.metrics ?? []) {
            if (m.name !== name) continue;
            assert.ok(m.sum, "a counter is an OTLP sum");
            assert.equal(m.sum.isMonotonic, true);
            last = m.sum.dataPoints.map((p: any) => ({ attributes: attrs(p.attributes), value: Number(p.asDouble ?? p.asInt) }));
          }
        }
      }
    }
    return last;
  }
}

const RULES = "bashToolPatterns:\n  - pattern: '\\brm\\s+-rf\\b'\n    reason: no rm -rf\nzeroAccessPaths:\n  - .env\n";
const SECRET_COMMAND = "rm -rf secret-project-dir";

describe("OpenTelemetry export", () => {
  let dir: string;
  let receiver: Receiver;
  let url: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-otel-"));
    fs.mkdirSync(path.join(dir, ".pi"));
    fs.writeFileSync(path.join(dir, ".pi/damage-control-rules.yaml"), RULES);
    receiver = new Receiver();
    url = await receiver.start();
  });
  afterEach(async () => {
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pre = (tool: string, input: unknown) => ({ session_id: "sess-1", cwd: dir, hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });

  async function decide(includeContent: boolean): Promise<void> {
    const guard = new Guard({ folders: [dir], home: "/home/dev", ledger: false });
    const telemetry = startTelemetry({ endpoint: url + "/", includeContent, serviceVersion: "9.9.9", metricIntervalMs: 60_000, logDelayMs: 60_000 });
    attachTelemetry(guard, telemetry);
    try {
      await claudeBody(guard, pre("Bash", { command: SECRET_COMMAND }));
      await claudeBody(guard, pre("Bash", { command: "rm -rf other-dir" }));
      await claudeBody(guard, pre("Read", { file_path: path.join(dir, ".env") }));
      await claudeBody(guard, pre("Bash", { command: "echo hello-harmless" }));
    } finally {
      guard.close();
      // Intervals of a minute: only shutdown's flush can have sent anything.
      await telemetry.shutdown();
    }
  }

  it("signal URLs: /v1/logs and /v1/metrics under the base, trailing slashes ignored", () => {
    assert.equal(signalUrl("http://c:4318", "logs"), "http://c:4318/v1/logs");
    assert.equal(signalUrl("http://c:4318//", "metrics"), "http://c:4318/v1/metrics");
    assert.throws(() => startTelemetry({ endpoint: "file:///etc/passwd" }), /http/);
  });

  it("every decision is a log record; the counter counts by action, rule and agent; shutdown flushes", async () => {
    await decide(false);
    assert.ok(receiver.bodies.every((b) => /application\/json/.test(b.contentType)), "OTLP/HTTP JSON");
    const logs = receiver.logs();
    assert.equal(logs.length, 4, JSON.stringify(logs));
    const [rm1, rm2, env, echo] = logs;
    assert.deepEqual(
      { ...rm1.attributes },
      { "dc.action": "block", "dc.decision": "block", "dc.agent": "claude", "dc.event": "PreToolUse", "dc.tool": "Bash", "dc.rule": "\\brm\\s+-rf\\b", "dc.session": "sess-1" },
    );
    assert.equal(rm1.severityText, "WARN");
    assert.equal(rm1.body.stringValue, "damage-control block claude Bash");
    assert.equal(rm2.attributes["dc.rule"], "\\brm\\s+-rf\\b");
    assert.equal(env.attributes["dc.tool"], "Read");
    assert.equal(env.attributes["dc.rule"], ".env");
    assert.equal(env.attributes["dc.action"], "block");
    assert.equal(echo.attributes["dc.action"], "allow");
    assert.equal(echo.attributes["dc.rule"], undefined);
    assert.equal(echo.severityText, "INFO");

    const points = receiver.counter(DECISIONS_COUNTER);
    const byKey = Object.fromEntries(points.map((p) => [`${p.attributes.action}|${p.attributes.rule}|${p.attributes.agent}`, p.value]));
    assert.deepEqual(byKey, { "block|\\brm\\s+-rf\\b|claude": 2, "block|.env|claude": 1, "allow|none|claude": 1 });
  });

  it("command text, paths and reasons are absent by default", async () => {
    await decide(false);
    const everything = JSON.stringify(receiver.bodies);
    assert.ok(receiver.logs().length > 0);
    for (const secret of ["secret-project-dir", "hello-harmless", dir, "no rm -rf"]) assert.ok(!everything.includes(secret), `${secret} left the machine`);
    for (const r of receiver.logs()) {
      assert.equal(r.attributes["dc.target"], undefined);
      assert.equal(r.attributes["dc.folder"], undefined);
      assert.equal(r.attributes["dc.reason"], undefined);
    }
  });

  it("includeContent: the command or path, the folder and the reason are sent", async () => {
    await decide(true);
    const [rm1, , env, echo] = receiver.logs();
    assert.equal(rm1.attributes["dc.target"], SECRET_COMMAND);
    assert.equal(rm1.attributes["dc.folder"], path.resolve(dir));
    assert.match(rm1.attributes["dc.reason"], /no rm -rf/);
    assert.match(env.attributes["dc.target"], /\.env$/);
    assert.equal(echo.attributes["dc.target"], "echo hello-harmless");
    // The counter never carries content, even then.
    for (const p of receiver.counter(DECISIONS_COUNTER)) assert.deepEqual(Object.keys(p.attributes).sort(), ["action", "agent", "rule"]);
  });

  it("an unreachable collector does not break deciding, nor shutdown", async () => {
    await receiver.close();
    const guard = new Guard({ folders: [dir], home: "/home/dev", ledger: false });
    const telemetry = startTelemetry({ endpoint: url, metricIntervalMs: 60_000, logDelayMs: 60_000, shutdownTimeoutMs: 1000 });
    attachTelemetry(guard, telemetry);
    const started = Date.now();
    const out = (await claudeBody(guard, pre("Bash", { command: "rm -rf x" }))) as { hookSpecificOutput: { permissionDecision: string } };
    assert.equal(out.hookSpecificOutput.permissionDecision, "deny");
    guard.close();
    await telemetry.shutdown();
    assert.ok(Date.now() - started < 3000, "shutdown is bounded");
    receiver = new Receiver();
    await receiver.start();
  });

  it("serve --otlp URL exports the endpoint's decisions (dist/cli.js with dist/telemetry.js)", async function () {
    this.timeout(30_000);
    const state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-otel-state-"));
    const env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: state, HOME: dir, DAMAGE_CONTROL_OTLP_INTERVAL_MS: "200" };
    const child = spawn(process.execPath, [path.join(repoRoot, "dist/cli.js"), "serve", "--cwd", dir, "--port", "0", "--otlp", url], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (d) => {
          out += d;
          const m = /listening http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.on("exit", (c) => reject(new Error(`serve exited ${c}: ${stderr}`)));
        setTimeout(() => reject(new Error("serve did not start")), 10_000);
      });
      const token = fs.readFileSync(path.join(state, "token"), "utf8").trim();
      const r = await request(port, { path: "/claude/hook", token, body: JSON.stringify(pre("Bash", { command: SECRET_COMMAND })) });
      assert.equal(r.status, 200);
      // Exported within the interval, while serve runs.
      const deadline = Date.now() + 10_000;
      while (receiver.logs().length === 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
      assert.equal(receiver.logs().length, 1, stderr);
      child.kill("SIGTERM");
      assert.equal(await new Promise((resolve) => child.on("exit", resolve)), 0);
      const [log] = receiver.logs();
      assert.equal(log.attributes["dc.action"], "block");
      assert.equal(log.attributes["dc.target"], undefined);
      assert.ok(!JSON.stringify(receiver.bodies).includes("secret-project-dir"));
      const byKey = Object.fromEntries(receiver.counter(DECISIONS_COUNTER).map((p) => [`${p.attributes.action}|${p.attributes.rule}|${p.attributes.agent}`, p.value]));
      assert.deepEqual(byKey, { "block|\\brm\\s+-rf\\b|claude": 1 });
      assert.match(stderr, /exporting decisions to/);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(state, { recursive: true, force: true });
    }
  });
});
