// The `effect:` of a bashToolPatterns entry: `<effect> <target>`, each a word of the remote
// vocabulary (src/engine/shell/types.ts RemoteEffect) or a `*` glob, with a did-you-mean fix.
import type { Scalar } from "yaml";
import { quoteYaml, type ParseContext } from "./parse-context";
import { closest } from "./similar";

export const EFFECT_WORDS = ["destroy", "destroy-all", "overwrite", "read-secret", "exfiltrate", "send-secret"] as const;
export const EFFECT_TARGETS = ["code-host", "ci", "cloud", "object-storage", "data-service", "hosted-service", "remote-host", "backups", "secrets", "device", "unknown-cli", "system"] as const;

/**
 * A regex no command text matches, with a literal the prefilter skips it by (prefilter.ts); the
 * effect is part of its source, so two rules share a regex only when they name the same effect
 * (what overlap.ts compares to find an ask rule a block rule hides).
 */
export function effectRegex(spec: string): RegExp {
  return new RegExp(`remote-effect-rule(?!) ${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
}

/** `destroy* backups` → a test of an effect and target. */
export function effectMatcher(spec: string): (effect: string, target: string) => boolean {
  const [e, t] = spec.split(/\s+/);
  const glob = (g: string) => new RegExp(`^${g.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  const re = glob(e);
  const rt = glob(t ?? "*");
  return (effect, target) => re.test(effect) && rt.test(target);
}

/** The effect as written (words single-spaced), or undefined after reporting what is wrong. */
export function readEffect(ctx: ParseContext, node: Scalar): string | undefined {
  const range = ctx.nodeRange(node);
  const words = typeof node.value === "string" ? node.value.trim().split(/\s+/) : [];
  if (words.length < 1 || words.length > 2 || words[0] === "") {
    ctx.report("error", "wrong-type", `effect must be "<effect> <target>", like "destroy backups" (effects: ${EFFECT_WORDS.join(", ")}; targets: ${EFFECT_TARGETS.join(", ")}).`, range);
    return undefined;
  }
  const [effect, target = "*"] = words;
  const fixed = [fix(effect, EFFECT_WORDS), fix(target, EFFECT_TARGETS)];
  if (fixed[0] === effect && fixed[1] === target) return `${effect} ${target}`;
  const bad = fixed[0] !== effect ? { word: effect, list: EFFECT_WORDS, to: fixed[0] } : { word: target, list: EFFECT_TARGETS, to: fixed[1] };
  const suggestion = bad.to !== undefined ? ` Did you mean "${bad.to}"?` : "";
  const repaired = fixed[0] !== undefined && fixed[1] !== undefined ? `${fixed[0]} ${fixed[1]}` : undefined;
  ctx.report("error", "unknown-effect", `Unknown effect word "${bad.word}" (known: ${bad.list.join(", ")}; * is a wildcard).${suggestion}`, range, repaired !== undefined ? { title: `Change to "${repaired}"`, range, newText: quoteYaml(repaired) } : undefined);
  return undefined;
}

/** The word itself when known or a glob, else the closest known word (undefined: none close). */
function fix(word: string, known: readonly string[]): string | undefined {
  if (word.includes("*") || known.includes(word)) return word;
  return closest(word, known);
}
