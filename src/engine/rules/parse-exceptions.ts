// The layer keys of a rules file: `disable: [id, …]` (rules of a weaker layer switched off) and
// `allow:` exceptions ({command | path, reason, folder?}, each loosening one refusal).
import { isMap, isScalar, type Node as YamlNode, type Pair, type Scalar } from "yaml";
import type { Exception } from "../types";
import { describe, listItems, reportUnknownKey, type ParseContext } from "./parse-context";
import { nestsQuantifiers } from "./regex-risk";
import { compileToolGlob } from "../mcp/name";

export const ALLOW_KEYS = ["command", "path", "tool", "reason", "folder"] as const;

/** `disable: [id, …]`: rules of a weaker layer (the defaults) this file switches off, by id or path text. */
export function readDisable(ctx: ParseContext, value: YamlNode | null): void {
  const items = listItems(ctx, value, "disable must be a list of rule ids (or path entries as written).");
  if (!items) return;
  const list: string[] = [];
  for (const item of items) {
    if (!isScalar(item) || typeof item.value !== "string" || item.value.trim() === "") {
      ctx.report("error", "wrong-type", `Each disable entry must be a rule id (got ${describe(item)}).`, ctx.nodeRange(item));
      continue;
    }
    const entry = item.value.trim();
    if (list.includes(entry)) {
      ctx.report("warning", "duplicate", `"${entry}" is already disabled above.`, ctx.nodeRange(item));
      continue;
    }
    list.push(entry);
    (ctx.rules.disableRanges ??= {})[entry] = ctx.nodeRange(item);
  }
  ctx.rules.disable = list;
}

/** `allow:` exceptions: {command: regex | path: entry, reason, folder?} — each loosens one refusal. */
export function readAllow(ctx: ParseContext, value: YamlNode | null): void {
  const items = listItems(ctx, value, "allow must be a list of {command, reason}, {path, reason} or {tool, reason} entries.");
  if (!items) return;
  const list: Exception[] = [];
  for (const item of items) {
    const r = ctx.nodeRange(item);
    if (!isMap(item)) {
      ctx.report("error", "wrong-type", "Each allow entry must be a mapping with command (or path) and reason.", r);
      continue;
    }
    const got: Partial<Record<(typeof ALLOW_KEYS)[number], Scalar>> = {};
    let broken = false;
    for (const p of item.items as Pair<YamlNode, YamlNode>[]) {
      const k = isScalar(p.key) ? String(p.key.value) : "";
      if (!(ALLOW_KEYS as readonly string[]).includes(k)) {
        reportUnknownKey(ctx, k, ALLOW_KEYS, " in an exception", ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      if (!isScalar(p.value) || typeof p.value.value !== "string" || p.value.value.trim() === "") {
        ctx.report("error", "wrong-type", `"${k}" must be a non-empty string.`, p.value ? ctx.nodeRange(p.value) : ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      got[k as (typeof ALLOW_KEYS)[number]] = p.value;
    }
    if (broken) continue;
    if (!got.reason) {
      ctx.report("error", "missing-reason", "Missing reason: say why this exception is safe here.", r);
      continue;
    }
    if ((got.command ? 1 : 0) + (got.path ? 1 : 0) + (got.tool ? 1 : 0) !== 1) {
      ctx.report("error", "wrong-type", "An exception names exactly one of command (a regex), path or tool (a tool-name glob).", r);
      continue;
    }
    const reason = String(got.reason.value).trim();
    const folder = got.folder ? String(got.folder.value).trim() : undefined;
    if (folder !== undefined && !folder.startsWith("/")) {
      ctx.report("error", "wrong-type", "folder must be an absolute path (the folder this exception is for).", ctx.nodeRange(got.folder!));
      continue;
    }
    if (got.tool) {
      // A whole tool or server (`mcp__devdb__*`): its tool-name rules and its SQL's and commands' patterns.
      const glob = String(got.tool.value).trim();
      const matcher = /[\s/]/.test(glob) ? undefined : compileToolGlob(glob);
      if (!matcher) {
        ctx.report("error", "invalid-glob", `Invalid tool glob "${glob}": a tool name has no spaces or slashes; use * and {a,b} (like mcp__devdb__*).`, ctx.nodeRange(got.tool));
        continue;
      }
      list.push({ kind: "tool", tool: glob, matcher, reason, range: r, ...(folder !== undefined && { folder }) });
    } else if (got.command) {
      const source = String(got.command.value);
      let regex: RegExp;
      try {
        regex = new RegExp(source);
      } catch (e) {
        ctx.report("error", "invalid-regex", `Invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}`, ctx.nodeRange(got.command));
        continue;
      }
      if (nestsQuantifiers(source)) ctx.report("warning", "slow-regex", "This regex nests unbounded quantifiers (like (a+)+) and can take exponential time on some commands.", ctx.nodeRange(got.command));
      list.push({ kind: "command", pattern: source, regex, reason, range: r, ...(folder !== undefined && { folder }) });
    } else {
      list.push({ kind: "path", path: String(got.path!.value).trim(), reason, range: r, ...(folder !== undefined && { folder }) });
    }
  }
  ctx.rules.allow = list;
}
