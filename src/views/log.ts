// The "Damage Control" log (a LogOutputChannel: the user picks the level in the Output view):
// every decision at debug level, every error at error level.
import * as vscode from "vscode";
import type { DecisionRecord } from "../core/guard";

let channel: vscode.LogOutputChannel | undefined;

export function log(): vscode.LogOutputChannel {
  return (channel ??= vscode.window.createOutputChannel("Damage Control", { log: true }));
}

export function logDecision(d: DecisionRecord): void {
  log().debug(`${d.agent} ${d.tool} ${JSON.stringify(d.target)} → ${d.decision}${d.rule ? ` (rule ${d.rule})` : ""}${d.reason ? `: ${d.reason}` : ""}`);
}

export function logError(what: string, e?: unknown): void {
  log().error(e === undefined ? what : `${what}: ${e instanceof Error ? e.message : String(e)}`);
}
