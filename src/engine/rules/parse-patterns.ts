// bashToolPatterns: each entry's regex (slow shapes run as their linear equivalent), reason, ask,
// id, flags and unless, with a diagnostic and where possible a quick fix for each mistake.
import { isMap, isScalar, type Node as YamlNode, type Pair, type Scalar } from "yaml";
import type { BashPatternRule } from "../types";
import { listItems, quoteYaml, reportUnknownKey, wholeLines, type ParseContext } from "./parse-context";
import { nestsQuantifiers } from "./regex-risk";
import { rewriteSlowPattern } from "./slow-patterns";
import { effectRegex, readEffect } from "./parse-effect";

export const PATTERN_KEYS = ["id", "pattern", "effect", "reason", "ask", "flags", "unless"] as const;
/** Values of a pattern's `unless`: targets whose removal the pattern does not judge. */
export const UNLESS_VALUES = ["regenerable", "throwaway", "confined"] as const;
/** A rule id: lowercase words of letters and digits joined by single dashes (`db-reset-prisma`). */
export const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** `g` and `y` make RegExp.test stateful, `d` is useless here: only these flags are accepted. */
const ALLOWED_FLAGS = /^[imsu]*$/;

export function readPatterns(ctx: ParseContext, value: YamlNode | null): void {
  const items = listItems(ctx, value, "bashToolPatterns must be a list of {pattern, reason, ask?} entries.");
  if (!items) return;
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!isMap(item)) {
      ctx.report("error", "wrong-type", "Each bashToolPatterns entry must be a mapping with pattern and reason.", ctx.nodeRange(item));
      continue;
    }
    let id: Scalar | undefined;
    let pattern: Scalar | undefined;
    let effect: Scalar | undefined;
    let reason: Scalar | undefined;
    let ask: Scalar | undefined;
    let flags: Scalar | undefined;
    let unless: Scalar | undefined;
    let broken = false;
    for (const p of item.items as Pair<YamlNode, YamlNode>[]) {
      const k = isScalar(p.key) ? String(p.key.value) : "";
      const v = p.value;
      if (!(PATTERN_KEYS as readonly string[]).includes(k)) {
        reportUnknownKey(ctx, k, PATTERN_KEYS, " in a bash pattern", ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      if (!isScalar(v)) {
        ctx.report("error", "wrong-type", `"${k}" must be a single value.`, v ? ctx.nodeRange(v) : ctx.nodeRange(p.key));
        broken = true;
        continue;
      }
      if (k === "id") id = v;
      else if (k === "pattern") pattern = v;
      else if (k === "effect") effect = v;
      else if (k === "reason") reason = v;
      else if (k === "ask") ask = v;
      else if (k === "unless") unless = v;
      else flags = v;
    }
    const entryRange = ctx.nodeRange(item);
    if (effect && pattern) {
      ctx.report("error", "wrong-type", "An entry has either a `pattern` (a regex tested on commands) or an `effect` (what a command does outside the working tree, like `destroy backups`), not both.", ctx.nodeRange(effect));
      continue;
    }
    // An effect rule judges the remote effects the analysis finds (src/engine/remote/); its regex
    // never matches a command's text (decide.ts reads `effect`).
    const effectText = effect ? readEffect(ctx, effect) : undefined;
    if (effect && effectText === undefined) broken = true;
    if (effect) pattern = { ...effect, value: effectText ?? String(effect.value) } as Scalar;
    if (!pattern || typeof pattern.value !== "string" || pattern.value === "") {
      ctx.report("error", "wrong-type", "Missing pattern: each entry needs a non-empty `pattern` string (a JavaScript regex).", pattern ? ctx.nodeRange(pattern) : entryRange);
      continue;
    }
    const source = pattern.value;
    let flagText = "";
    if (flags) {
      if (typeof flags.value !== "string" || !ALLOWED_FLAGS.test(flags.value)) {
        ctx.report("error", "invalid-flags", `flags must be a string of i, m, s or u (got ${JSON.stringify(flags.value)}). g and y are not allowed.`, ctx.nodeRange(flags));
        broken = true;
      } else {
        flagText = [...new Set(flags.value)].join("");
      }
    }
    let regex: RegExp | undefined;
    // A slow shape with a linear equivalent is compiled as the equivalent (slow-patterns.ts).
    const fast = effect ? undefined : rewriteSlowPattern(source);
    try {
      regex = effect ? effectRegex(source) : new RegExp(fast ?? source, flagText);
    } catch (e) {
      const message = (e as Error).message.replace(/^Invalid regular expression: /, "");
      const fixText = escapeOffending(source);
      const r = ctx.nodeRange(pattern);
      ctx.report(
        "error",
        "invalid-regex",
        `Invalid regular expression: ${message}`,
        r,
        fixText !== undefined ? { title: "Escape the offending character", range: r, newText: quoteYaml(fixText) } : undefined,
      );
      broken = true;
    }
    if (regex && fast !== undefined) {
      const r = ctx.nodeRange(pattern);
      ctx.report("information", "slow-regex", "This pattern's (-…)*- shape backtracks exponentially on a long run of dashes; it is run as the equivalent linear form instead.", r, {
        title: "Rewrite as the equivalent linear pattern",
        range: r,
        newText: quoteYaml(fast),
      });
    } else if (regex && !effect && nestsQuantifiers(source)) {
      ctx.report("warning", "slow-regex", "This regex nests unbounded quantifiers (like (a+)+) and can take exponential time on some commands; such a decision is cut off and refused after the time limit.", ctx.nodeRange(pattern));
    }
    if (!reason || typeof reason.value !== "string" || reason.value.trim() === "") {
      ctx.report("error", "missing-reason", "Missing reason: the agent is told this reason when the rule refuses a command.", reason ? ctx.nodeRange(reason) : ctx.nodeRange(pattern));
      broken = true;
    }
    let askValue = false;
    if (ask) {
      if (typeof ask.value !== "boolean") {
        ctx.report("error", "invalid-ask", `ask must be true or false (got ${JSON.stringify(ask.value)}).`, ctx.nodeRange(ask));
        broken = true;
      } else askValue = ask.value;
    }
    let idValue: string | undefined;
    if (id) {
      const v = typeof id.value === "string" || typeof id.value === "number" ? String(id.value) : undefined;
      if (v === undefined || !RULE_ID.test(v)) {
        ctx.report("error", "invalid-id", `id must be lowercase letters, digits and single dashes, like db-reset-prisma (got ${JSON.stringify(id.value)}).`, ctx.nodeRange(id));
        broken = true;
      } else if (ctx.ids.has(v)) {
        ctx.report("error", "duplicate-id", `Duplicate id "${v}": it is already used on line ${ctx.ids.get(v)! + 1}. A layer names a rule by its id, so each must be unique.`, ctx.nodeRange(id));
        broken = true;
      } else {
        ctx.ids.set(v, ctx.nodeRange(id).start.line);
        idValue = v;
      }
    }
    const identity = `${askValue ? "ask" : "block"}|${effect ? "effect " : ""}${flagText}/${source}`;
    const first = seen.get(identity);
    if (first !== undefined) {
      ctx.report("warning", "duplicate", `Duplicate pattern: the same regex is already listed on line ${first + 1}.`, entryRange, {
        title: "Remove the duplicate entry",
        range: wholeLines(entryRange),
        newText: "",
      });
      continue;
    }
    seen.set(identity, entryRange.start.line);
    if (unless && !(UNLESS_VALUES as readonly unknown[]).includes(unless.value)) {
      ctx.report("error", "wrong-type", `unless must be one of ${UNLESS_VALUES.join(", ")} (got ${JSON.stringify(unless.value)}).`, ctx.nodeRange(unless));
      broken = true;
    }
    if (broken || !regex) continue;
    const rule: BashPatternRule = {
      kind: "bashPattern",
      pattern: source,
      regex,
      reason: String(reason!.value).trim(),
      ask: askValue,
      ...(effect && { effect: source }),
      ...(idValue !== undefined && { id: idValue }),
      range: entryRange,
      ...(unless && { unless: unless.value as BashPatternRule["unless"] }),
    };
    ctx.rules.bashToolPatterns.push(rule);
  }
}

/**
 * For an invalid regex, the smallest repair that is clearly right: escape the first special
 * character that the engine rejects (an unbalanced paren or bracket, a lone quantifier).
 * Returns undefined when no single escape makes the regex valid.
 */
export function escapeOffending(source: string): string | undefined {
  for (let i = 0; i < source.length; i++) {
    if (source[i] === "\\") {
      i++;
      continue;
    }
    if ("()[]{}*+?|".includes(source[i])) {
      const candidate = source.slice(0, i) + "\\" + source.slice(i);
      try {
        new RegExp(candidate);
        return candidate;
      } catch {
        /* try the next special character */
      }
    }
  }
  return undefined;
}
