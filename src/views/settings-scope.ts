// Security settings a repository must not set: read from user/machine scope only. A workspace
// (.vscode/settings.json, *.code-workspace) may tighten them, never loosen them; a loosening
// workspace value is ignored with a warning. Pure (the caller passes `inspect()` results).
import * as path from "node:path";

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
export function scoped<T>(key: string, i: Inspected<T> | undefined, fallback: T, tightens: (ws: T, user: T) => boolean): Scoped<T> {
  const user = userOf(i, fallback);
  const ws = workspaceOf(i);
  if (ws === undefined || ws === user) return { value: user };
  if (tightens(ws, user)) return { value: ws };
  return { value: user, ignored: `the workspace sets damageControl.${key} to ${JSON.stringify(ws)}; a repository may not loosen the guard, so your user setting (${JSON.stringify(user)}) applies` };
}

/** damageControl.enabled: a workspace may switch the guard on, never off. */
export const enabledScope = (i: Inspected<boolean> | undefined) => scoped("enabled", i, true, (ws) => ws === true);

/** damageControl.posture: a workspace may choose governed (stricter), never advisory over a governed user. */
export const postureScope = (i: Inspected<string> | undefined) => scoped("posture", i, "advisory", (ws) => ws === "governed");

/** damageControl.port: user scope only. */
export const portScope = (i: Inspected<number> | undefined) => scoped("port", i, 0, () => false);

/** damageControl.rulesFile: a workspace may name a file inside the folder, never one outside it. */
export const rulesFileScope = (i: Inspected<string> | undefined) =>
  scoped("rulesFile", i, ".pi/damage-control-rules.yaml", (ws) => typeof ws === "string" && ws !== "" && insideFolder(ws));

export function insideFolder(rel: string): boolean {
  if (path.isAbsolute(rel) || rel.startsWith("~")) return false;
  const n = path.posix.normalize(rel.replace(/\\/g, "/"));
  return n !== ".." && !n.startsWith("../");
}
