// Which decisions are bounded in time by construction, so the caller may make them on its own
// thread instead of paying the hop to the decision worker (src/core/decider.ts).
//
// A decision's time is the engine's own work, linear-ish in the size of the call, plus the rules'
// regexes run on the call's texts. A regex is run by V8's backtracking engine, which cannot be
// stopped: a rule a user writes may take exponential time (`(a+)+`), so a rule set with any regex
// the project has not vetted is decided in the worker, where the time limit terminates it. The
// embedded defaults are vetted: none is exponential, the worst is polynomial of degree 2 (the
// ReDoS checker recheck, scripts/check-default-regexes.js; test/unit/inline-bound.test.ts holds
// the defaults to its table). A polynomial regex is bounded on a bounded text, so a call is
// decided here only when all its text is at most INLINE_MAX_CHARS. Tool-name globs and path
// globs a user writes are bounded the same way when they have at most three wildcards a segment
// and no extglob (a crafted 480-character path against `*a*b*c`: under a millisecond).
// Everything else goes to the worker: a large heredoc, a file's content, a user's regex.
import type { WireRequest } from "./agents/types";
import { defaultRules } from "./rules/defaults";
import type { RuleSet } from "./types";

/**
 * The most characters a call may carry (command, paths, content, tool name together) to be
 * decided inline. With the defaults the slowest decision at this size is a few milliseconds
 * (bench: "slowest inline decision"); at 4 KB a degree-3 default takes seconds on a crafted
 * command, which only the worker's time limit can stop.
 */
export const INLINE_MAX_CHARS = 512;

/** A wildcard count a segment up to which a user's glob runs in bounded time on a bounded text. */
const MAX_GLOB_WILDCARDS = 3;

let vetted: Set<string> | undefined;
const verdicts = new WeakMap<RuleSet, boolean>();

/** The identity of a compiled regex: what it matches is fixed by its source and flags. */
const key = (re: RegExp) => `${re.flags}/${re.source}`;

/** Every regex of the embedded defaults. */
function vettedRegexes(): Set<string> {
  if (!vetted) vetted = new Set(regexesOf(defaultRules()).map(key));
  return vetted;
}

function regexesOf(rules: RuleSet): RegExp[] {
  const out: RegExp[] = [];
  for (const r of rules.bashToolPatterns) out.push(r.regex);
  for (const r of rules.toolNamePatterns ?? []) out.push(r.matcher);
  for (const e of rules.allow ?? []) {
    if (e.kind === "command") out.push(e.regex);
    else if (e.kind === "tool") out.push(e.matcher);
  }
  return out;
}

const wildcards = (glob: string) => (glob.match(/[*?]/g) ?? []).length;
const EXTGLOB = /[@*+?!]\(/;

/** True when every regex and glob of the rule set runs in bounded time on a bounded text. */
export function rulesBoundedInline(rules: RuleSet): boolean {
  let ok = verdicts.get(rules);
  if (ok === undefined) verdicts.set(rules, (ok = judgeRules(rules)));
  return ok;
}

function judgeRules(rules: RuleSet): boolean {
  const known = vettedRegexes();
  // An effect rule's regex is an escaped literal that never matches (parse-effect.ts).
  for (const r of rules.bashToolPatterns) if (!r.effect && !known.has(key(r.regex))) return false;
  for (const r of rules.toolNamePatterns ?? []) if (!known.has(key(r.matcher)) && wildcards(r.tool) > MAX_GLOB_WILDCARDS) return false;
  for (const e of rules.allow ?? []) {
    if (e.kind === "command" && !known.has(key(e.regex))) return false;
    if (e.kind === "tool" && !known.has(key(e.matcher)) && wildcards(e.tool) > MAX_GLOB_WILDCARDS) return false;
    if (e.kind === "path" && !pathGlobBounded(e.path)) return false;
  }
  const paths = [rules.zeroAccessPaths, rules.readOnlyPaths, rules.noDeletePaths, rules.exceptions?.zeroAccess, rules.exceptions?.readOnly, rules.exceptions?.noDelete];
  for (const list of paths) for (const p of list ?? []) if (!pathGlobBounded(p.path)) return false;
  return true;
}

function pathGlobBounded(glob: string): boolean {
  if (EXTGLOB.test(glob)) return false;
  // `**` matches whole segments (no backtracking within one); count the wildcards of each segment.
  return glob.split("/").every((segment) => segment === "**" || wildcards(segment) <= MAX_GLOB_WILDCARDS);
}

/** The characters of a call, counted until `limit` is passed (a large call is not walked whole). */
export function callChars(req: WireRequest, limit = INLINE_MAX_CHARS): number {
  let n = (req.toolName?.length ?? 0) + (req.cwd?.length ?? 0);
  const stack: unknown[] = [req.calls ?? (req.call ? [req.call] : [])];
  while (stack.length > 0 && n <= limit) {
    const v = stack.pop();
    if (typeof v === "string") n += v.length;
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        n += k.length;
        stack.push(x);
      }
    }
  }
  return n;
}

/** True when this decision is bounded in time by construction and may be made on the caller's thread. */
export function decidableInline(req: WireRequest, rules: RuleSet): boolean {
  return callChars(req) <= INLINE_MAX_CHARS && rulesBoundedInline(rules);
}
