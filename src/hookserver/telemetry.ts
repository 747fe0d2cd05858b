// Optional OpenTelemetry export: every decision as an OTel log record, plus the counter
// `damage_control.decisions` (by action, rule, agent), over OTLP/HTTP (JSON) to one endpoint.
// The command text, the paths and the reason (which quotes them) leave the machine only with
// includeContent. Built as its own bundle (dist/telemetry.js) and loaded only when an endpoint
// is configured (see telemetry-loader.ts), so the extension does not carry the SDK otherwise.
import { SeverityNumber } from "@opentelemetry/api-logs";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { isRefusal } from "../core/asker";
import type { DecisionRecord } from "../core/guard";

export interface TelemetryOptions {
  /** OTLP/HTTP base URL (e.g. http://collector:4318); /v1/logs and /v1/metrics are appended. */
  endpoint: string;
  /** Also send the command or path (dc.target), the folder and the reason. */
  includeContent?: boolean;
  serviceVersion?: string;
  /** How often metrics and batched log records are sent (ms; default 10 s / 1 s). */
  metricIntervalMs?: number;
  logDelayMs?: number;
  /** The longest shutdown waits for the last export (ms; default 5 s): an unreachable collector never holds up a stop. */
  shutdownTimeoutMs?: number;
  /** Extra HTTP headers (e.g. an API key for a hosted collector). */
  headers?: Record<string, string>;
}

export interface Telemetry {
  record(d: DecisionRecord): void;
  /** Sends what is pending, then stops. */
  shutdown(): Promise<void>;
}

export const DECISIONS_COUNTER = "damage_control.decisions";

/** `http://host:4318` or `http://host:4318/` → `http://host:4318/v1/logs`. */
export function signalUrl(endpoint: string, signal: "logs" | "metrics"): string {
  return `${endpoint.replace(/\/+$/, "")}/v1/${signal}`;
}

export function startTelemetry(options: TelemetryOptions): Telemetry {
  const url = new URL(options.endpoint);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`telemetry endpoint must be http(s), got ${options.endpoint}`);
  const resource = resourceFromAttributes({
    "service.name": "damage-control",
    ...(options.serviceVersion && { "service.version": options.serviceVersion }),
  });
  const headers = options.headers ?? {};
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: new OTLPLogExporter({ url: signalUrl(options.endpoint, "logs"), headers }),
        scheduledDelayMillis: options.logDelayMs ?? 1000,
      }),
    ],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: signalUrl(options.endpoint, "metrics"), headers }),
        exportIntervalMillis: options.metricIntervalMs ?? 10_000,
      }),
    ],
  });
  const logger = loggerProvider.getLogger("damage-control", options.serviceVersion);
  const counter = meterProvider
    .getMeter("damage-control", options.serviceVersion)
    .createCounter(DECISIONS_COUNTER, { description: "Tool calls and events decided by Damage Control" });
  let stopped = false;
  // Off the request path: a decision is queued, and sent to the SDK after the answer went out
  // (setImmediate runs after the I/O phase that wrote it). shutdown() sends what is queued first.
  let queued: DecisionRecord[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    clearImmediate(scheduled);
    scheduled = undefined;
    const batch = queued;
    queued = [];
    for (const d of batch) emit(d);
  };
  const emit = (d: DecisionRecord): void => {
      counter.add(1, { action: d.action, rule: d.rule ?? "none", agent: d.agent });
      const refused = isRefusal(d.decision);
      logger.emit({
        timestamp: new Date(d.time),
        severityNumber: refused ? SeverityNumber.WARN : SeverityNumber.INFO,
        severityText: refused ? "WARN" : "INFO",
        body: `damage-control ${d.decision} ${d.agent} ${d.tool}`,
        attributes: {
          "dc.action": d.action,
          "dc.decision": d.decision,
          "dc.agent": d.agent,
          "dc.event": d.event,
          "dc.tool": d.tool,
          // The rule is policy, not the agent's content.
          ...(d.rule !== undefined && { "dc.rule": d.rule }),
          ...(d.session !== undefined && { "dc.session": d.session }),
          ...(options.includeContent && {
            "dc.target": d.target,
            "dc.folder": d.folder,
            ...(d.reason !== undefined && { "dc.reason": d.reason }),
          }),
        },
      });
  };

  return {
    record(d: DecisionRecord): void {
      if (stopped) return;
      queued.push(d);
      scheduled ??= setImmediate(flush);
    },
    async shutdown(): Promise<void> {
      if (stopped) return;
      flush();
      stopped = true;
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.shutdownTimeoutMs ?? 5000);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([loggerProvider.shutdown(), meterProvider.shutdown()]), limit]);
      clearTimeout(timer);
    },
  };
}
