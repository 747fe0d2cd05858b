// toolNamePatterns: rules about a tool by its name — {tool: glob, reason, ask?, id?, unless?, when?}
// (`mcp__github__merge_*`, `mcp_*_delete{,_*}`), with the same diagnostics as the bash patterns.
import { isMap, isScalar, type Node as YamlNode, type Pair, type Scalar } from "yaml";
import { compileToolGlob } from "../mcp/name";
import type { ToolNameRule } from "../types";
import { listItems, reportUnknownKey, wholeLines, type ParseContext } from "./parse-context";
import { RULE_ID } from "./parse-patterns";

export const TOOL_NAME_KEYS = ["id", "tool", "reason", "ask", "unless", "when"] as const;
export const TOOL_UNLESS_VALUES = ["filtered"] as const;
export const TOOL_WHEN_VALUES = ["total"] as const;

type Key = (typeof TOOL_NAME_KEYS)[number];

export function readToolNames(ctx: ParseContext, value: YamlNode | null): void {
  const items = listItems(ctx, value, "toolNamePatterns must be a list of {tool, reason, ask?} entries.");
  if (!items) return;
  const list: ToolNameRule[] = (ctx.rules.toolNamePatterns ??= []);
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!isMap(item)) {
      ctx.report("error", "wrong-type", "Each toolNamePatterns entry must be a mapping with tool and reason.", ctx.nodeRange(item));
      continue;
    }
    const got: Partial<Record<Key, Scalar>> = {};
    let broken = false;
    for (const p of item.items as Pair<YamlNode, YamlNode>[]) {
      const k = isScalar(p.key) ? String(p.key.value) : "";
      if (!(TOOL_NAME_KEYS as readonly string[]).includes(k)) {
        reportUnknownKey(ctx, k, TOOL_NAME_KEYS, " in a tool name pattern", ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      if (!isScalar(p.value)) {
        ctx.report("error", "wrong-type", `"${k}" must be a single value.`, p.value ? ctx.nodeRange(p.value) : ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      got[k as Key] = p.value;
    }
    const entryRange = ctx.nodeRange(item);
    const glob = got.tool;
    if (!glob || typeof glob.value !== "string" || glob.value.trim() === "") {
      ctx.report("error", "wrong-type", "Missing tool: each entry needs a non-empty `tool` glob (like mcp__github__merge_*).", glob ? ctx.nodeRange(glob) : entryRange);
      continue;
    }
    const source = glob.value.trim();
    const matcher = /[\s/]/.test(source) ? undefined : compileToolGlob(source);
    if (!matcher) {
      ctx.report("error", "invalid-glob", `Invalid tool glob "${source}": a tool name has no spaces or slashes; use * and {a,b} (like mcp__*__delete_*).`, ctx.nodeRange(glob));
      broken = true;
    }
    const reason = got.reason;
    if (!reason || typeof reason.value !== "string" || reason.value.trim() === "") {
      ctx.report("error", "missing-reason", "Missing reason: the agent is told this reason when the rule refuses a tool call.", reason ? ctx.nodeRange(reason) : ctx.nodeRange(glob));
      broken = true;
    }
    let ask = false;
    if (got.ask) {
      if (typeof got.ask.value !== "boolean") {
        ctx.report("error", "invalid-ask", `ask must be true or false (got ${JSON.stringify(got.ask.value)}).`, ctx.nodeRange(got.ask));
        broken = true;
      } else ask = got.ask.value;
    }
    let id: string | undefined;
    if (got.id) {
      const v = typeof got.id.value === "string" || typeof got.id.value === "number" ? String(got.id.value) : undefined;
      if (v === undefined || !RULE_ID.test(v)) {
        ctx.report("error", "invalid-id", `id must be lowercase letters, digits and single dashes, like mcp-destroy (got ${JSON.stringify(got.id.value)}).`, ctx.nodeRange(got.id));
        broken = true;
      } else if (ctx.ids.has(v) || ctx.pathIds.has(v)) {
        ctx.report("error", "duplicate-id", `Duplicate id "${v}": it is already used${ctx.ids.has(v) ? ` on line ${ctx.ids.get(v)! + 1}` : " by a path entry"}. A layer names a rule by its id, so each must be unique.`, ctx.nodeRange(got.id));
        broken = true;
      } else {
        ctx.ids.set(v, ctx.nodeRange(got.id).start.line);
        id = v;
      }
    }
    const unless = got.unless?.value;
    if (got.unless && !(TOOL_UNLESS_VALUES as readonly unknown[]).includes(unless)) {
      ctx.report("error", "wrong-type", `unless must be one of ${TOOL_UNLESS_VALUES.join(", ")} (got ${JSON.stringify(unless)}).`, ctx.nodeRange(got.unless));
      broken = true;
    }
    const when = got.when?.value;
    if (got.when && !(TOOL_WHEN_VALUES as readonly unknown[]).includes(when)) {
      ctx.report("error", "wrong-type", `when must be one of ${TOOL_WHEN_VALUES.join(", ")} (got ${JSON.stringify(when)}).`, ctx.nodeRange(got.when));
      broken = true;
    }
    const identity = `${ask ? "ask" : "block"}|${unless ?? ""}|${when ?? ""}|${source}`;
    const first = seen.get(identity);
    if (first !== undefined) {
      ctx.report("warning", "duplicate", `Duplicate tool name pattern: the same glob is already listed on line ${first + 1}.`, entryRange, { title: "Remove the duplicate entry", range: wholeLines(entryRange), newText: "" });
      continue;
    }
    seen.set(identity, entryRange.start.line);
    if (broken || !matcher) continue;
    list.push({
      kind: "toolName",
      tool: source,
      matcher,
      reason: String(reason!.value).trim(),
      ask,
      ...(id !== undefined && { id }),
      ...(got.unless && { unless: unless as ToolNameRule["unless"] }),
      ...(got.when && { when: when as ToolNameRule["when"] }),
      range: entryRange,
    });
  }
}
