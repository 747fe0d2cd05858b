// Our hook entries in a Claude Code settings object: add them (merged with whatever is there,
// idempotently), find them, remove exactly them. Pure: the caller reads and writes the file.
import { guardedEvents, type Posture } from "./events";
import { compareVersions } from "./version";

/** First Claude Code build that honours `onFailure: "block"` on HTTP hooks (measured: 2.1.197 ignores it). */
export const ON_FAILURE_SINCE = "2.1.295";
/** Longer than the 30 s ask, so a human's answer is never cut off by the hook timeout. */
export const HOOK_TIMEOUT_SECONDS = 45;
export const TOKEN_ENV = "DAMAGE_CONTROL_TOKEN";

export type HookMode = { kind: "http"; url: string } | { kind: "command"; command: string };

type Json = Record<string, unknown>;

interface HookEntry {
  type: string;
  url?: string;
  command?: string;
  [k: string]: unknown;
}

interface MatcherGroup {
  matcher?: string;
  hooks?: HookEntry[];
  [k: string]: unknown;
}

/** Which hook transport a Claude Code version gets: HTTP with onFailure where it is honoured. */
export function chooseMode(version: string | undefined, url: string, command: string): HookMode {
  if (version && compareVersions(version, ON_FAILURE_SINCE) < 0) return { kind: "command", command };
  return { kind: "http", url };
}

/** The events we register for a version: the guarded ones the version knows. */
export function eventsFor(version: string | undefined, posture: Posture = "advisory"): string[] {
  return guardedEvents(posture)
    .filter((e) => !e.since || (version !== undefined && compareVersions(version, e.since) >= 0))
    .map((e) => e.name);
}

export function hookEntry(mode: HookMode): HookEntry {
  if (mode.kind === "http") {
    return {
      type: "http",
      url: `${mode.url}/claude/hook`,
      timeout: HOOK_TIMEOUT_SECONDS,
      headers: { Authorization: `Bearer $${TOKEN_ENV}` },
      allowedEnvVars: [TOKEN_ENV],
      onFailure: "block",
    };
  }
  return { type: "command", command: mode.command, timeout: HOOK_TIMEOUT_SECONDS };
}

/** Is this hook entry one of ours (from any earlier install, any port)? */
export function isOurs(h: HookEntry): boolean {
  if (h.type === "http" && typeof h.url === "string") return /^http:\/\/(127\.0\.0\.1|localhost):\d+\/claude\/hook$/.test(h.url);
  if (h.type === "command" && typeof h.command === "string") return /damage-control|dist\/cli\.js/.test(h.command) && /\bhook claude\b/.test(h.command);
  return false;
}

/** Removes our entries; drops groups, event lists and `hooks` that end up empty because of it. */
export function removeOurHooks(settings: Json): Json {
  const out: Json = { ...settings };
  const hooks = out.hooks;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return out;
  const next: Json = {};
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) {
      next[event] = groups;
      continue;
    }
    const kept: MatcherGroup[] = [];
    for (const g of groups as MatcherGroup[]) {
      if (!g || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const remaining = g.hooks.filter((h) => !isOurs(h));
      if (remaining.length === g.hooks.length) kept.push(g);
      else if (remaining.length > 0) kept.push({ ...g, hooks: remaining });
    }
    if (kept.length > 0) next[event] = kept;
  }
  if (Object.keys(next).length > 0) out.hooks = next;
  else delete out.hooks;
  return out;
}

/** Adds our entries for the given events (after removing any old ones: idempotent). */
export function addOurHooks(settings: Json, events: string[], mode: HookMode): Json {
  const out = removeOurHooks(settings);
  const hooks: Json = { ...((out.hooks as Json) ?? {}) };
  for (const event of events) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as MatcherGroup[])] : [];
    // An empty matcher: every tool, so nothing escapes the gate.
    groups.push({ matcher: "", hooks: [hookEntry(mode)] });
    hooks[event] = groups;
  }
  out.hooks = hooks;
  return out;
}

/** Our entries currently in the settings, by event. */
export function listOurHooks(settings: Json): { event: string; hook: HookEntry }[] {
  const found: { event: string; hook: HookEntry }[] = [];
  const hooks = settings.hooks;
  if (typeof hooks !== "object" || hooks === null) return found;
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups as MatcherGroup[]) for (const h of g?.hooks ?? []) if (isOurs(h)) found.push({ event, hook: h });
  }
  return found;
}
