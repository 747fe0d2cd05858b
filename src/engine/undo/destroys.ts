// destroysOf(call, analysis): what a call would destroy if it ran, from what deciding it already
// computed (no second analysis, no I/O). Calls without a destructive effect get undefined, so the
// snapshot step costs them nothing. Scratch below the temp dirs is left out; regenerable output
// (regenerableName inside the workspace: build folders, *.pyc…) is marked, and the core keeps it
// only when git says it holds work a tool would not recreate.
import { regenerableName } from "../kinds";
import { resolvePath } from "../paths";
import type { CommandAnalysis } from "../shell/types";
import type { NormalizedCall } from "../toolcall";
import { isGitEffect, keepHow } from "./file-effects";
import type { DestroyedPath, Destroys } from "./types";

const WILDCARD = /[*?[\]]/;

export interface DestroysContext {
  cwd: string;
  home: string;
  /** The workspace root (regenerable names are judged inside it). */
  root: string;
  tmpdir?: string;
}

export function destroysOf(norm: NormalizedCall, analysis: CommandAnalysis | undefined, ctx: DestroysContext): Destroys | undefined {
  const files: DestroyedPath[] = [];
  if (analysis) {
    for (const e of analysis.effects) {
      const how = keepHow(e.access, e.via);
      if (how && !isGitEffect(e.via)) files.push({ path: e.path, how, recursive: e.recursive, via: e.via });
    }
  } else if (norm.kind === "files") {
    for (const op of norm.ops) {
      const how = keepHow(op.access, norm.tool);
      const abs = how && !op.pattern ? resolvePath(op.path, ctx) : undefined;
      if (how && abs !== undefined) files.push({ path: abs, how, recursive: op.recursive, via: norm.tool });
    }
  }
  // A wildcard entry (find -name '*.log' below a folder) names no file of its own: the recursive
  // effect on its folder keeps what it may reach.
  const kept = files.filter((f) => !scratch(f.path, ctx) && !(WILDCARD.test(f.path) && files.some((d) => d.recursive && f.path.startsWith(d.path.replace(/\/+$/, "") + "/"))));
  const git = analysis?.gitState ?? [];
  if (kept.length === 0 && git.length === 0) return undefined;
  return { files: dedupe(kept).map((f) => (regenerable(f.path, ctx) ? { ...f, regenerable: true } : f)), git };
}

/** Build output inside the workspace. */
function regenerable(p: string, ctx: DestroysContext): boolean {
  const root = ctx.root.replace(/\/+$/, "");
  return p.startsWith(root + "/") && p.slice(root.length + 1).split("/").some(regenerableName);
}

/** Scratch below a temp dir (not the workspace itself). */
function scratch(p: string, ctx: DestroysContext): boolean {
  const root = ctx.root.replace(/\/+$/, "");
  if (p.startsWith(root + "/")) return false;
  if (p === root || root.startsWith(p + "/")) return false;
  const temps = ["/tmp", "/var/tmp", ...(ctx.tmpdir ? [ctx.tmpdir.replace(/\/+$/, "")] : [])];
  return temps.some((t) => p.startsWith(t + "/"));
}

/** One entry per path: a recursive effect covers a plain one; a copy covers a link. */
function dedupe(files: DestroyedPath[]): DestroyedPath[] {
  const by = new Map<string, DestroyedPath>();
  for (const f of files) {
    const had = by.get(f.path);
    if (!had) by.set(f.path, f);
    else by.set(f.path, { ...had, recursive: had.recursive || f.recursive, how: had.how === "in-place" || f.how === "in-place" ? "in-place" : "unlinks" });
  }
  return [...by.values()];
}
