// Security settings a repository must not set: read from user/machine scope only. A workspace
// (.vscode/settings.json, *.code-workspace) may tighten them, never loosen them; a loosening
// workspace value is ignored with a warning. Pure (the caller passes `inspect()` results).
import * as path from "node:path";
// This file stays free of vscode: settings.ts passes vscode.l10n.t in as the translator.
import { english, type Translate } from "./translate";

/** The shape of vscode's WorkspaceConfiguration.inspect() that matters here. */
export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface Scoped<T> {
  value: T;
  /** Set when a workspace value was ignored: what to tell the user. */
  ignored?: string;
}

function workspaceOf<T>(i: Inspected<T> | undefined): T | undefined {
  return i?.workspaceFolderValue ?? i?.workspaceValue;
}

function userOf<T>(i: Inspected<T> | undefined, fallback: T): T {
  return i?.globalValue ?? i?.defaultValue ?? fallback;
}

/**
 * One setting: the user's value, or the workspace's when `tightens(workspace, user)` says it only
 * makes the guard stricter.
 */
export function scoped<T>(key: string, i: Inspected<T> | undefined, fallback: T, tightens: (ws: T, user: T) => boolean, t: Translate = english): Scoped<T> {
  const user = userOf(i, fallback);
  const ws = workspaceOf(i);
  if (ws === undefined || ws === user) return { value: user };
  if (tightens(ws, user)) return { value: ws };
  return { value: user, ignored: t("the workspace sets {0} to {1}; a repository may not loosen the guard, so your user setting ({2}) applies", `damageControl.${key}`, JSON.stringify(ws), JSON.stringify(user)) };
}

/** damageControl.enabled: a workspace may switch the guard on, never off. */
export const enabledScope = (i: Inspected<boolean> | undefined, t?: Translate) => scoped("enabled", i, true, (ws) => ws === true, t);

/** damageControl.posture: a workspace may choose governed (stricter), never advisory over a governed user. */
export const postureScope = (i: Inspected<string> | undefined, t?: Translate) => scoped("posture", i, "advisory", (ws) => ws === "governed", t);

/** damageControl.port: user scope only. */
export const portScope = (i: Inspected<number> | undefined, t?: Translate) => scoped("port", i, 0, () => false, t);

/** damageControl.rulesFile: a workspace may name a file inside the folder, never one outside it. */
export const rulesFileScope = (i: Inspected<string> | undefined, t?: Translate) =>
  scoped("rulesFile", i, ".pi/damage-control-rules.yaml", (ws) => typeof ws === "string" && ws !== "" && insideFolder(ws), t);

export function insideFolder(rel: string): boolean {
  if (path.isAbsolute(rel) || rel.startsWith("~")) return false;
  const n = path.posix.normalize(rel.replace(/\\/g, "/"));
  return n !== ".." && !n.startsWith("../");
}
