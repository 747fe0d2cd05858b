// zeroAccessPaths, readOnlyPaths, noDeletePaths: each entry a path, `!entry` a carve-out of its
// list, every entry named by a stable id derived from its list and path.
import { isScalar, type Node as YamlNode } from "yaml";
import type { PathRule } from "../types";
import { describe, listItems, wholeLines, type ParseContext } from "./parse-context";

export type PathKey = "zeroAccessPaths" | "readOnlyPaths" | "noDeletePaths";
const PATH_KIND: Record<PathKey, PathRule["kind"]> = {
  zeroAccessPaths: "zeroAccess",
  readOnlyPaths: "readOnly",
  noDeletePaths: "noDelete",
};
const PATH_ID_PREFIX: Record<PathRule["kind"], string> = { zeroAccess: "zero-access", readOnly: "read-only", noDelete: "no-delete" };

/**
 * The id of a path entry: its list and its path in [a-z0-9-] (`.env` in zeroAccessPaths is
 * `zero-access-env`, `~/.ssh/` is `zero-access-home-ssh`, `.git/` in noDeletePaths is
 * `no-delete-git`). Stable for as long as the entry is written the same way.
 */
export function pathRuleId(kind: PathRule["kind"], path: string): string {
  const slug = path
    .replace(/^~(?=\/|$)/, "home")
    .toLowerCase()
    .replace(/\*/g, "-any-")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${PATH_ID_PREFIX[kind]}${slug ? "-" + slug : ""}`;
}

export function readPaths(ctx: ParseContext, key: PathKey, value: YamlNode | null): void {
  const items = listItems(ctx, value, `${key} must be a list of paths.`);
  if (!items) return;
  const seen = new Map<string, number>();
  for (const item of items) {
    const r = ctx.nodeRange(item);
    if (!isScalar(item) || typeof item.value !== "string") {
      ctx.report("error", "wrong-type", `Each ${key} entry must be a path string (got ${describe(item)}).`, r);
      continue;
    }
    const path = item.value.trim();
    if (path === "") {
      ctx.report("error", "empty-path", "Empty path.", r);
      continue;
    }
    const first = seen.get(path);
    if (first !== undefined) {
      ctx.report("warning", "duplicate", `Duplicate path: "${path}" is already listed on line ${first + 1}.`, r, {
        title: "Remove the duplicate entry",
        range: wholeLines(r),
        newText: "",
      });
      continue;
    }
    seen.set(path, r.start.line);
    if (path.startsWith("!") && path.length > 1) {
      // `!entry`: a carve-out of this list (see RuleSet.exceptions).
      ctx.rules.exceptions ??= { zeroAccess: [], readOnly: [], noDelete: [] };
      ctx.rules.exceptions[PATH_KIND[key]].push({ kind: PATH_KIND[key], path: path.slice(1), range: r });
      continue;
    }
    // Path entries are named by their list and path; two paths with the same name (`.env` and
    // `env/`) get -2, -3 … in file order.
    const base = pathRuleId(PATH_KIND[key], path);
    let id = base;
    for (let n = 2; ctx.pathIds.has(id); n++) id = `${base}-${n}`;
    ctx.pathIds.add(id);
    ctx.rules[key].push({ kind: PATH_KIND[key], path, id, range: r });
  }
}
