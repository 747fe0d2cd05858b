// The sandbox policy made from the rules in force (every layer merged, the guard's own paths on
// top: the same RuleSet every decision reads) and facts only the core can find (what a glob
// matches on disk, the temp and cache folders, the repository's remotes). Pure.
//
// What goes where:
//  - zero-access entries → denyRead (the enforcer makes them unreadable and unwritable);
//  - read-only entries → denyWrite, except those `sandbox.updatedByTools` names (lock files that
//    `npm install` must still update: the hook alone keeps the agent's own edits off them);
//  - the guard's own files → denyWrite always, its token (secret) → denyRead;
//  - no-delete entries → nothing: no kernel mechanism says "write but not delete" for `.git/`
//    without breaking git itself (docs/sandbox.md says so);
//  - `!entry` carve-outs are not applied: the kernel binds the whole folder (`~/.ssh/` stays
//    unreadable inside, known_hosts included);
//  - a glob or a bare name (`*.pem`, `.env`) becomes the files that match it now, inside the
//    workspace and the HOME folders the rules list, never machine-wide (a system `cacert.pem`
//    stays readable); a glob outside those (`/proc/*/environ`, `/dev/sd*`) is left to the hook.
import { posix } from "node:path";
import { compilePathEntry, pathMatches, resolvePath } from "../paths";
import type { PathRule, RuleSet } from "../types";
import type { SandboxMode, SandboxPath, SandboxPolicy } from "./policy-types";

export interface SandboxFacts {
  folder: string;
  home: string;
  /** The guard's own files and folders: written by nothing the agent runs; `secret` ones unreadable too. */
  guard: { path: string; what: string; secret?: boolean }[];
  /** The existing files a glob or bare-name entry matches (found by the core where it may look). */
  matches: (entry: string) => readonly string[];
  /** Writable beside the workspace: temp folders, the caches everyday tools write under HOME. */
  writable: string[];
  /** Hosts everyday work needs: 127.0.0.1 for our hooks, package registries, the repository's remotes. */
  hosts: string[];
}

/** The mode in force: the strictest a layer set, `auto` when none did. */
export function sandboxMode(rules: RuleSet): SandboxMode {
  return rules.sandbox?.mode ?? "auto";
}

const GLOB = /[*?[\]{}]/;

/** The absolute paths one entry stands for: itself, or what its glob matches now. */
function entryPaths(r: PathRule, facts: SandboxFacts): string[] {
  const ctx = { cwd: facts.folder, home: facts.home, root: facts.folder };
  if (!r.path.includes("/") || GLOB.test(r.path)) return [...facts.matches(r.path)];
  const abs = resolvePath(r.path.replace(/\/+$/, ""), ctx);
  return abs === undefined ? [] : [abs];
}

function describeRule(r: PathRule): { rule: string; reason: string } {
  const list = r.kind === "zeroAccess" ? "zero-access" : r.kind === "readOnly" ? "read-only" : "no-delete";
  return { rule: r.id ?? `guard:${list}`, reason: `${list} path (${r.path})` };
}

export function buildSandboxPolicy(rules: RuleSet, facts: SandboxFacts): SandboxPolicy {
  const ctx = { cwd: facts.folder, home: facts.home, root: facts.folder };
  const denyRead: SandboxPath[] = [];
  const denyWrite: SandboxPath[] = [];
  for (const r of rules.zeroAccessPaths) for (const p of entryPaths(r, facts)) denyRead.push({ path: p, ...describeRule(r) });
  const forTools = (rules.sandbox?.updatedByTools ?? []).map((e) => compilePathEntry(e, ctx));
  for (const r of rules.readOnlyPaths) {
    for (const p of entryPaths(r, facts)) {
      // The guard's own entries hold whatever updatedByTools says.
      if (!r.implicit && forTools.some((m) => pathMatches(m, p))) continue;
      denyWrite.push({ path: p, ...describeRule(r) });
    }
  }
  for (const g of facts.guard) (g.secret ? denyRead : denyWrite).push({ path: norm(g.path), rule: `guard:${g.what}`, reason: `the guard's own ${g.what}` });
  const denied = rules.sandbox?.deniedHosts ?? [];
  const allowed = unique([...facts.hosts, ...(rules.sandbox?.allowedHosts ?? [])]).filter((h) => !denied.includes(h));
  return {
    version: 1,
    folder: facts.folder,
    denyRead: minimal(denyRead),
    // A path both unreadable and unwritable is listed once, as unreadable.
    denyWrite: minimal(denyWrite).filter((w) => !denyRead.some((r) => covers(r.path, w.path))),
    allowWrite: unique([facts.folder, ...facts.writable].map(norm)),
    network: { allowedDomains: allowed, deniedDomains: unique(denied) },
  };
}

function norm(p: string): string {
  return posix.normalize(p).replace(/(.)\/+$/, "$1");
}

function covers(folder: string, p: string): boolean {
  return p === folder || p.startsWith(folder === "/" ? "/" : folder + "/");
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/** Sorted, one entry per path, none inside another listed folder (the first rule named keeps it). */
function minimal(list: SandboxPath[]): SandboxPath[] {
  const byPath = new Map<string, SandboxPath>();
  for (const e of list) if (!byPath.has(e.path)) byPath.set(e.path, e);
  const sorted = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: SandboxPath[] = [];
  for (const e of sorted) if (!out.some((o) => covers(o.path, e.path))) out.push(e);
  return out;
}
