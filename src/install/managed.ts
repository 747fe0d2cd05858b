// Managed settings for platform teams: the machine-wide Claude Code settings file that users
// cannot override. We render one that pins our HTTP hooks (empty matcher: no tool escapes;
// onFailure "block"; a timeout), allows HTTP hooks to loopback only and disables every
// non-managed hook (so no user hook can shadow ours). And we read the machine's file: when it
// sets allowManagedHooksOnly without our hooks, the project-level hooks we install are silently
// ignored by Claude Code, and the user must be told. Pure except the two file helpers at the end.
import * as fs from "node:fs";
import { addOurHooks, eventsFor, listOurHooks, TOKEN_ENV } from "../engine/claude-settings";

/** Loopback only: an HTTP hook to anywhere else is refused by Claude Code. */
export const LOOPBACK_HOOK_URLS = ["http://127.0.0.1:*", "http://localhost:*"];

/** Where Claude Code reads managed settings; $DAMAGE_CONTROL_MANAGED_SETTINGS overrides (tests). */
export function managedSettingsPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.DAMAGE_CONTROL_MANAGED_SETTINGS) return env.DAMAGE_CONTROL_MANAGED_SETTINGS;
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

type Json = Record<string, unknown>;

export interface ManagedOptions {
  /** Endpoint base URL (a fixed port: every user's endpoint must listen there). */
  url: string;
  /** Claude Code version of the fleet; undefined = current. */
  version?: string;
}

/** The managed-settings object: governed events, HTTP hooks, loopback only, managed hooks only. */
export function renderManagedSettings(o: ManagedOptions): Json {
  const events = eventsFor(o.version ?? "9999.0.0", "governed");
  const withHooks = addOurHooks({}, events, { kind: "http", url: o.url });
  return {
    allowManagedHooksOnly: true,
    allowedHttpHookUrls: [...LOOPBACK_HOOK_URLS],
    httpHookAllowedEnvVars: [TOKEN_ENV],
    hooks: withHooks.hooks,
  };
}

/** True when the settings gate PreToolUse with any hook. */
function gatesPreToolUse(settings: Json): boolean {
  const hooks = settings.hooks as Json | undefined;
  const groups = hooks && typeof hooks === "object" ? hooks.PreToolUse : undefined;
  return Array.isArray(groups) && groups.some((g) => Array.isArray((g as Json)?.hooks) && ((g as Json).hooks as unknown[]).length > 0);
}

/** What is wrong with a managed-settings object, for a platform team. */
export function managedWarnings(settings: Json): string[] {
  const out: string[] = [];
  if (gatesPreToolUse(settings) && settings.allowManagedHooksOnly !== true) {
    out.push("the managed settings gate PreToolUse without allowManagedHooksOnly: a user or project hook could shadow the managed one (set \"allowManagedHooksOnly\": true)");
  }
  if (settings.disableAllHooks === true) out.push("disableAllHooks is true: no hook runs at all, the managed ones included");
  const urls = settings.allowedHttpHookUrls;
  if (Array.isArray(urls)) {
    const ours = listOurHooks(settings).filter((h) => h.hook.type === "http");
    if (urls.length === 0 && ours.length > 0) out.push("allowedHttpHookUrls is empty: every HTTP hook is blocked, ours included");
    const wide = urls.filter((u) => typeof u !== "string" || !/^http:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(u));
    if (wide.length > 0) out.push(`allowedHttpHookUrls allows non-loopback URLs (${wide.join(", ")}): hook traffic could leave the machine`);
  }
  for (const h of listOurHooks(settings)) {
    if (h.hook.type === "http" && h.hook.onFailure !== "block") out.push(`our ${h.event} hook lacks onFailure "block": a dead endpoint would fail open`);
  }
  return [...new Set(out)];
}

export interface ManagedState {
  file: string;
  exists: boolean;
  settings?: Json;
  error?: string;
  /** allowManagedHooksOnly is set: project/user/local hooks are ignored by Claude Code. */
  managedHooksOnly: boolean;
  /** Our hooks are in the managed file itself. */
  oursManaged: boolean;
  /** Project-level hooks (ours) would be silently disabled. */
  projectHooksDisabled: boolean;
  disableAllHooks: boolean;
  warnings: string[];
}

export function inspectManaged(settings: Json | undefined, file: string, error?: string): ManagedState {
  const s = settings ?? {};
  const managedHooksOnly = s.allowManagedHooksOnly === true;
  const oursManaged = listOurHooks(s).some((h) => h.event === "PreToolUse");
  return {
    file,
    exists: settings !== undefined || error !== undefined,
    ...(settings && { settings }),
    ...(error && { error }),
    managedHooksOnly,
    oursManaged,
    projectHooksDisabled: managedHooksOnly && !oursManaged,
    disableAllHooks: s.disableAllHooks === true,
    warnings: settings ? managedWarnings(s) : [],
  };
}

/** Reads this machine's managed settings (never throws). */
export function readManaged(file = managedSettingsPath()): ManagedState {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return inspectManaged(undefined, file);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return inspectManaged(undefined, file, "not a JSON object");
    return inspectManaged(parsed as Json, file);
  } catch (e) {
    return inspectManaged(undefined, file, `not valid JSON (${(e as Error).message})`);
  }
}

/** The line the panel and doctor show when managed settings switch our project hooks off. */
export function projectHooksDisabledMessage(m: ManagedState): string {
  return `Managed settings (${m.file}) set allowManagedHooksOnly: Claude Code ignores the project-level Damage Control hooks. Ask your platform team to add them to the managed file (damage-control install claude --managed).`;
}
