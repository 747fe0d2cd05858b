// Loads the OpenTelemetry export (dist/telemetry.js, a bundle of its own beside this one) only
// when an endpoint is configured, so the extension and the CLI do not carry the SDK otherwise.
import * as path from "node:path";
import type { Guard, DecisionRecord } from "../core/guard";
import type { Telemetry, TelemetryOptions } from "./telemetry";

export type { Telemetry, TelemetryOptions };

export function loadTelemetry(options: TelemetryOptions): Telemetry {
  const file = path.join(__dirname, "telemetry.js");
  // A runtime path: esbuild leaves this require alone, so the SDK stays out of this bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as typeof import("./telemetry");
  return mod.startTelemetry(options);
}

/** Sends every decision of `guard` to `telemetry`; returns the unsubscribe. */
export function attachTelemetry(guard: Guard, telemetry: Telemetry): () => void {
  const listener = (d: DecisionRecord) => telemetry.record(d);
  guard.on("decision", listener);
  return () => guard.off("decision", listener);
}
