// What a sandbox policy enforces of the rules (src/engine/sandbox/kernel-answers.ts), from the same
// facts the policy was made of: the paths each entry stands for now. An entry whose paths cannot
// be known here (a glob anchored outside the workspace and the listed HOME folders, with more than
// EXPAND_LIMIT candidates) counts as not enforced: the asks it could explain stay asks.
import * as fs from "node:fs";
import * as path from "node:path";
import { compilePathEntry, globBase, pathMatches, resolvePath } from "../../engine/paths";
import { kernelReach, type KernelReach } from "../../engine/sandbox/kernel-reach";
import type { SandboxPolicy } from "../../engine/sandbox/policy-types";
import type { PathRule, RuleSet } from "../../engine/types";

/** At most this many paths are looked at to expand one glob anchored elsewhere (`/run/user/*\/…`). */
export const EXPAND_LIMIT = 2000;
const GLOB = /[*?[\]{}]/;

/** `exists`: the file system's answer (the bench passes its own: "as if every listed path existed"). */
export function reachOf(rules: RuleSet, policy: SandboxPolicy, home: string, roots: string[], matches: (entry: string) => readonly string[], exists: (p: string) => boolean = fs.existsSync): KernelReach {
  const ctx = { cwd: policy.folder, home, root: policy.folder };
  const standsFor = (r: PathRule): readonly string[] | undefined => {
    if (r.path.includes("/") && !GLOB.test(r.path)) {
      const abs = resolvePath(r.path.replace(/\/+$/, ""), ctx);
      return abs === undefined ? undefined : exists(abs) ? [abs] : [];
    }
    const m = compilePathEntry(r.path, ctx);
    if (m.shape === "glob") {
      const base = globBase(m.target) || "/";
      const inRoots = roots.some((root) => base === root || base.startsWith(root + "/") || root.startsWith(base + "/"));
      if (!inRoots) return expandAnchored(m.target, (p) => pathMatches(m, p));
    }
    return matches(r.path);
  };
  return kernelReach(rules, policy, standsFor);
}

/** The existing paths an absolute glob matches, segment by segment; undefined past EXPAND_LIMIT. */
function expandAnchored(pattern: string, match: (p: string) => boolean): string[] | undefined {
  let current = ["/"];
  let seen = 0;
  for (const seg of pattern.split("/").filter(Boolean)) {
    const next: string[] = [];
    for (const dir of current) {
      if (!GLOB.test(seg)) {
        const p = path.join(dir, seg);
        if (fs.existsSync(p)) next.push(p);
        continue;
      }
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      seen += names.length;
      if (seen > EXPAND_LIMIT) return undefined;
      for (const n of names) next.push(path.join(dir, n));
    }
    current = next;
  }
  return current.filter(match);
}
