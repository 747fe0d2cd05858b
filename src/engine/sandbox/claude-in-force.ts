// Is Claude Code's own sandbox, as its settings files say, the one `install claude` wrote from the
// current policy, and one no call leaves? (issue 34 §6: only then does the kernel answer a Claude
// Code Bash call's ask.) Claude Code merges its scopes (managed, the project's local and shared
// files, the user's), so the rule is kept where it does not depend on the merge order: every scope
// that sets a switch sets it to our value, and the file we write sets it. Pure: the core reads the
// files. Anything unexpected answers "not certain" and the ask stays.
import type { SandboxPolicy } from "./policy-types";

/** One settings scope as read (undefined: no file). `ours`: the file install writes (the project's settings.local.json). */
export interface ClaudeScope {
  name: string;
  settings: Record<string, unknown> | undefined;
  ours?: boolean;
}

export type ClaudeInForce = { ok: true; outside: string[]; writes: boolean } | { ok: false; why: string };

/** The switches `install claude` writes under `required` (src/engine/sandbox/agents.ts) that decide whether a call runs inside. */
const SWITCHES: readonly [key: string, value: unknown][] = [
  ["enabled", true],
  ["failIfUnavailable", true],
  ["allowUnsandboxedCommands", false],
];

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined => (v === undefined ? [] : Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined);

/** A program name as a word (no glob, no quoting, no `Bash(…)`): else which programs an entry names is not known here. */
const PROGRAM = /^[\w.+\-/]+$/;

/**
 * `outside`: the programs `sandbox.excludedCommands` lets run outside (the first word of each
 * entry: a call running any of them keeps its ask, whatever Claude Code matches exactly);
 * `writes`: no scope widens where writing is allowed beyond the policy (else only reads are
 * answered).
 */
export function claudeSandboxInForce(scopes: readonly ClaudeScope[], policy: SandboxPolicy): ClaudeInForce {
  const ours = scopes.find((s) => s.ours);
  const sb = (s: ClaudeScope) => (s.settings === undefined ? undefined : s.settings.sandbox);
  if (!ours || !isObj(sb(ours))) return { ok: false, why: "Claude Code's sandbox is not written in the project's settings" };
  const outside: string[] = [];
  let writes = true;
  for (const s of scopes) {
    const box = sb(s);
    if (box === undefined) continue;
    if (!isObj(box)) return { ok: false, why: `${s.name}: sandbox is not an object` };
    for (const [key, value] of SWITCHES) {
      if (box[key] === value || (box[key] === undefined && !s.ours)) continue;
      return { ok: false, why: `${s.name}: sandbox.${key} is not ${String(value)}` };
    }
    const fsBox = box.filesystem === undefined ? {} : box.filesystem;
    if (!isObj(fsBox)) return { ok: false, why: `${s.name}: sandbox.filesystem is not an object` };
    // allowRead re-opens paths inside a denyRead folder: nothing we write, and not weighed here.
    const allowRead = strings(fsBox.allowRead);
    if (!allowRead || allowRead.length > 0) return { ok: false, why: `${s.name}: sandbox.filesystem.allowRead is set` };
    const allowWrite = strings(fsBox.allowWrite);
    if (!allowWrite) return { ok: false, why: `${s.name}: sandbox.filesystem.allowWrite is not a list` };
    if (allowWrite.some((p) => !policy.allowWrite.includes(p))) writes = false;
    const excluded = strings(box.excludedCommands);
    if (!excluded) return { ok: false, why: `${s.name}: sandbox.excludedCommands is not a list` };
    for (const e of excluded) {
      const program = e.trim().split(/\s+/)[0]!.replace(/:\*?$/, "");
      if (!PROGRAM.test(program)) return { ok: false, why: `${s.name}: sandbox.excludedCommands entry ${JSON.stringify(e)} may name any program` };
      outside.push(program.slice(program.lastIndexOf("/") + 1));
    }
  }
  // Written from the policy in force now: every path it denies is denied in the file we write (itself or a folder around it)
  // (a stale render — a .env created since, a rule added while no guard kept it in step — keeps the ask).
  const f = (sb(ours) as Record<string, unknown>).filesystem;
  const denyRead = strings(isObj(f) ? f.denyRead : undefined) ?? [];
  const denyWrite = strings(isObj(f) ? f.denyWrite : undefined) ?? [];
  const denied = (p: string, lists: string[][]) => lists.some((l) => l.some((e) => p === e || p.startsWith(e === "/" ? "/" : e + "/")));
  if (!policy.denyRead.every((p) => denied(p.path, [denyRead]))) return { ok: false, why: "Claude Code's denyRead was written from another policy than the one in force" };
  if (!policy.denyWrite.every((p) => denied(p.path, [denyWrite, denyRead]))) return { ok: false, why: "Claude Code's denyWrite was written from another policy than the one in force" };
  return { ok: true, outside, writes };
}
