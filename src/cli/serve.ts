// damage-control serve: the endpoint without VS Code. Asks become refusals (nobody to ask).
import { sandboxFromRules } from "../core/sandbox/from-rules";
import * as path from "node:path";
import { parsePosture } from "../engine/events";
import { headlessAsker } from "../core/asker";
import { Guard } from "../core/guard";
import { heldBy, unregister } from "../core/registry";
import { startedByAgent } from "../core/provenance";
import { startGuardEndpoint } from "../hookserver/start";
import { VERSION } from "../core/build-info";
import { attachTelemetry, loadTelemetry, type Telemetry } from "../hookserver/telemetry-loader";
import { loadOrCreateToken } from "../core/token";
import { refreshClaudeHooks } from "../install/claude";
import { keepClaudeSandboxInStep } from "../install/claude-sandbox";
import { args, CliError, EXIT } from "./io";
import { keepServeHeapSmall } from "./serve-heap";

export const SERVE_HELP = `Usage: damage-control serve [--cwd DIR] [--port N] [--rules FILE] [--trust-workspace-rules] [--posture advisory|governed]
                             [--otlp URL [--otlp-include-content]]

Starts the endpoint on 127.0.0.1 for DIR (default: current directory) and runs until SIGINT
or SIGTERM. Without VS Code nobody can confirm an ask, so asks are refused with that reason.
Prints "listening http://127.0.0.1:PORT". The port is the one DIR had last time when it is free.
The token is in the state folder (docs/cli.md, "Where things live"); \`damage-control endpoint --cwd DIR\` prints both.

  --cwd DIR     folder to guard
  --port N      port (default: DIR's usual port; 0 = any free port)
  --rules FILE  this file is the whole policy: no default floor, no user or managed layer
                (default: the layers; see docs/layers.md)
  --trust-workspace-rules
                let DIR's rules file disable defaults and add exceptions (else it only adds)
  --posture P   advisory (default): what no rule covers gets no opinion; governed: it is refused,
                and state-changing lifecycle events (TaskCreated, ConfigChange, PreModelSwitch)
                are refused by default (see docs/platform-teams.md)
  --otlp URL    also export every decision as an OpenTelemetry log record, plus the counter
                damage_control.decisions, over OTLP/HTTP (JSON) to URL (e.g. http://collector:4318;
                /v1/logs and /v1/metrics are appended). Command text, paths and reasons are left out
  --otlp-include-content
                with --otlp: send the command text or path, the folder and the reason too

Refused (exit 4) when another live endpoint guards DIR (one endpoint per folder) or when it is
started inside an agent's tool call (the endpoint the hooks trust is one the user started).

Exit codes: 0 stopped by a signal, 2 bad usage, 4 could not listen or refused.`;

export async function runServe(argv: string[]): Promise<number> {
  const { values } = args(argv, { cwd: { type: "string" }, port: { type: "string" }, rules: { type: "string" }, "trust-workspace-rules": { type: "boolean" }, posture: { type: "string" }, otlp: { type: "string" }, "otlp-include-content": { type: "boolean" } });
  const posture = values.posture === undefined ? "advisory" : parsePosture(values.posture);
  if (!posture) throw new CliError(`--posture must be advisory or governed, got ${values.posture}`);
  const folder = path.resolve(values.cwd ?? process.cwd());
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0..65535, got ${values.port}`);
  }
  if (values["otlp-include-content"] && !values.otlp) throw new CliError("--otlp-include-content needs --otlp URL");
  if (values.otlp !== undefined && !/^https?:\/\/[^/]/.test(values.otlp)) throw new CliError(`--otlp must be an http(s) URL, got ${values.otlp}`);
  // The endpoint a hook trusts is one the user started (issue 35): not one an agent's tool call
  // started, and never a second one for a folder whose endpoint still runs.
  const agent = startedByAgent();
  if (agent) throw new CliError(`serve refused: it was started inside a tool call of ${agent}. An endpoint the agent starts would guard with rules of its choosing; start it from your own terminal (docs/self-protection.md)`, EXIT.unavailable);
  const holder = heldBy(folder);
  if (holder) throw new CliError(`${folder} is already guarded by the endpoint at ${holder.url} (${holder.host}, pid ${holder.pid}); one endpoint per folder: stop that one first (docs/self-protection.md)`, EXIT.unavailable);
  // A long-lived endpoint: its heap kept near what it holds live (a request allocates little that
  // lives), so its RSS stays near its start under load instead of growing with V8's defaults.
  keepServeHeapSmall();
  const guard: Guard = new Guard({
    folders: [folder],
    rulesPath: values.rules ? path.resolve(values.rules) : undefined,
    policy: values.rules !== undefined,
    trust: values["trust-workspace-rules"] ? { kind: "always" } : { kind: "never" },
    posture,
    // Allowed shell calls of agents without a sandbox of their own run in ours (docs/sandbox.md).
    sandbox: sandboxFromRules((f) => guard.storeFor(f).current().rules),
  });
  guard.watch();
  // Claude Code's own sandbox follows every rules change (docs/sandbox.md).
  keepClaudeSandboxInStep(guard);
  const token = loadOrCreateToken();
  let endpoint;
  try {
    endpoint = await startGuardEndpoint(guard, token, { port, host: "serve", asker: headlessAsker });
  } catch (e) {
    throw new CliError(`cannot listen on 127.0.0.1:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT.unavailable);
  }
  if (endpoint.moved) refreshClaudeHooks(folder, endpoint.url);
  const state = guard.rulesStates()[0];
  process.stdout.write(`listening ${endpoint.url}\n`);
  const what = state.policy ? `exactly ${state.file} (--rules: no default floor, no user or managed layer)` : `the layers (${(state.layers ?? []).filter((l) => l.present).map((l) => l.name + (l.file ? ` ${l.file}` : "")).join(" → ")})`;
  process.stderr.write(`guarding ${folder} with ${what}${state.broken ? " (BROKEN: last good rules in force)" : ""}, posture ${posture}\n`);
  if (state.pending) process.stderr.write(`note: ${state.pending.file} disables or loosens rules; only its additions apply (pass --trust-workspace-rules to let it)\n`);
  let telemetry: Telemetry | undefined;
  if (values.otlp) {
    telemetry = loadTelemetry({ endpoint: values.otlp, includeContent: values["otlp-include-content"] === true, serviceVersion: VERSION, ...otlpIntervals() });
    attachTelemetry(guard, telemetry);
    process.stderr.write(`exporting decisions to ${values.otlp} (OTLP/HTTP)${values["otlp-include-content"] ? " with command text and paths" : ""}\n`);
  }
  guard.on("decision", (d) => {
    if (d.decision !== "allow") process.stderr.write(`${d.time} ${d.agent} ${d.tool} ${d.decision}${d.rule ? ` [${d.rule}]` : ""}: ${d.target.slice(0, 200)}\n`);
  });

  return new Promise<number>((resolve) => {
    const stop = async () => {
      unregister(guard.folders);
      guard.close();
      await endpoint.close();
      await telemetry?.shutdown();
      resolve(EXIT.ok);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/** Tests shorten the export intervals (DAMAGE_CONTROL_OTLP_INTERVAL_MS); the defaults otherwise. */
function otlpIntervals(): { metricIntervalMs?: number; logDelayMs?: number } {
  const ms = Number(process.env.DAMAGE_CONTROL_OTLP_INTERVAL_MS);
  return Number.isInteger(ms) && ms > 0 ? { metricIntervalMs: ms, logDelayMs: ms } : {};
}
