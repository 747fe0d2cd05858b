// Which bash pattern rules can match a command text at all, without running every regex.
// Most rules are a regex with a literal word in it (`\bterraform\s+destroy\b`): a text that does
// not contain that literal cannot match. So each rule gets the longest literal its regex needs
// in every match (read off the top-level sequence of the regex, conservatively: no alternation,
// nothing optional, nothing inside a group), and the rules are indexed by one three-character
// piece of that literal. A text then only runs the regexes of the rules whose piece it contains
// and whose literal it contains. Rules without such a literal are always run. The result is the
// same list, in the same order, as testing every rule: verdicts do not change (tested against
// the naive path on the corpus and on generated regexes, test/unit/rules-scale.test.ts).
// Pure: no I/O; compiled once per rule set (a WeakMap, so replaced rules are collected).
import type { ExecutedCommand } from "../shell/types";
import type { BashPatternRule, RuleSet } from "../types";

const GRAM = 3;

interface Keyed {
  /** Index of the rule in bashToolPatterns (candidates are returned in rule order). */
  index: number;
  /** The literal every match contains; lower-cased for case-insensitive rules. */
  literal: string;
}

interface Prefilter {
  /** Rules that must always be tested (no usable literal). */
  always: number[];
  /** Case-sensitive rules by one piece of their literal. */
  exact: Map<string, Keyed[]>;
  /** Case-insensitive rules (lower-cased literal) by one lower-cased piece. */
  folded: Map<string, Keyed[]>;
  /** True when some case-insensitive rule has a literal (the text must then be lower-cased). */
  anyFolded: boolean;
}

const compiled = new WeakMap<readonly BashPatternRule[], Prefilter>();
const NON_ASCII = /[^\x00-\x7f]/;

/** The rules of `rules.bashToolPatterns` that match at least one of `texts`, in rule order. */
export function matchingPatterns(rules: RuleSet, texts: readonly string[]): BashPatternRule[] {
  const list = rules.bashToolPatterns;
  // Few rules: no index, each rule's literal looked for in the text before its regex runs.
  if (list.length < 16) return matchingFew(list, texts);
  return matchingIndexed(list, texts).map((i) => list[i]);
}

/** matchingPatterns for a long list: the indices of the matching rules, ascending. */
function matchingIndexed(list: readonly BashPatternRule[], texts: readonly string[]): number[] {
  let pf = compiled.get(list);
  if (!pf) compiled.set(list, (pf = compilePrefilter(list)));
  const hits = new Set<number>();
  const anyExact = keysOf(list).anyExact;
  for (const text of texts) {
    for (const i of pf.always) if (!hits.has(i) && list[i].regex.test(text)) hits.add(i);
    // A text with none of the case-sensitive literals has no piece worth looking up.
    if (anyExact(text)) probe(pf.exact, text, text, list, hits);
    if (pf.anyFolded) {
      // Case folding beyond ASCII (the long s, the Kelvin sign…) can make a regex with the i flag
      // match text whose lower case does not contain the literal: such text runs every such rule.
      if (NON_ASCII.test(text)) {
        for (const keyed of pf.folded.values()) for (const k of keyed) if (!hits.has(k.index) && list[k.index].regex.test(text)) hits.add(k.index);
      } else probe(pf.folded, text.toLowerCase(), text, list, hits);
    }
  }
  return [...hits].sort((a, b) => a - b);
}

interface ListKeys {
  /** Per rule: the literal every match contains (lower-cased for the i flag), if any. */
  literal: (string | undefined)[];
  fold: boolean[];
  /** Per rule: is its literal variant-safe (see variantSafe)? */
  safe: boolean[];
  /** Long lists: the variant-safe literals indexed by piece (as the prefilter indexes its own). */
  variantIndex?: Prefilter;
  /** Does a text contain any case-sensitive literal of the list? (see literalGate) */
  anyExact: (text: string) => boolean;
}

const listKeys = new WeakMap<readonly BashPatternRule[], ListKeys>();

function keysOf(list: readonly BashPatternRule[]): ListKeys {
  let k = listKeys.get(list);
  if (!k) {
    const literal = list.map(prefilterLiteral);
    const safe = literal.map((l) => l !== undefined && variantSafe(l));
    const fold = list.map((r) => r.regex.flags.includes("i"));
    k = { literal, fold, safe, anyExact: literalGate(literal.filter((l, i): l is string => l !== undefined && !fold[i])) };
    if (list.length >= 16) k.variantIndex = compilePrefilter(list, (_, i) => (safe[i] ? literal[i] : undefined));
    listKeys.set(list, k);
  }
  return k;
}

/**
 * One regex test answering "does the text contain any of these literals?" (an alternation of
 * them, escaped). Most command texts contain none of the rules' literals: one test then stands
 * for one `includes` per rule, each a call into the runtime's string search. When it finds one,
 * the literals are still looked for one by one (which ones occur is what the caller needs).
 */
export function literalGate(literals: readonly string[]): (text: string) => boolean {
  if (literals.length === 0) return () => false;
  const any = new RegExp([...new Set(literals)].map((l) => l.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")).join("|"));
  return (text) => any.test(text);
}

/** Does `text` contain the literal (lower-cased text for a case-insensitive rule)? */
function holds(text: string, literal: string, fold: boolean): boolean {
  // Case folding beyond ASCII can match text whose lower case lacks the literal (see above).
  if (!fold) return text.includes(literal);
  return NON_ASCII.test(text) || text.toLowerCase().includes(literal);
}

/** The rules before `end` that match one of the texts. */
function matchingFew(list: readonly BashPatternRule[], texts: readonly string[], end = list.length): BashPatternRule[] {
  const k = keysOf(list);
  const out: BashPatternRule[] = [];
  // Per text: may it hold a case-sensitive literal at all? (false: none of them is in it)
  const gate = texts.map(k.anyExact);
  for (let i = 0; i < end; i++) {
    const literal = k.literal[i];
    const fold = k.fold[i];
    for (let t = 0; t < texts.length; t++) {
      const text = texts[t];
      if ((literal === undefined || ((fold || gate[t]) && holds(text, literal, fold))) && list[i].regex.test(text)) {
        out.push(list[i]);
        break;
      }
    }
  }
  return out;
}

/**
 * The rules matching a command's text or one of its variants, in rule order. A command whose
 * variants are spelled out on demand (`spellings`, shell/normalize.ts) only has them spelled out
 * and tested when a rule that missed the text could match one: a rule whose required literal is
 * variant-safe (see variantSafe) and absent from the spellings' source cannot. Same list as
 * testing the text and every variant (tested on the corpora and generated commands,
 * test/unit/rules-scale.test.ts).
 */
export function matchingCommandPatterns(rules: RuleSet, cmd: ExecutedCommand, settles?: (rule: BashPatternRule) => boolean): BashPatternRule[] {
  if (!cmd.spellings) return matchingPatterns(rules, cmd.variants?.length ? [cmd.text, ...cmd.variants] : [cmd.text]);
  const list = rules.bashToolPatterns;
  if (list.length < 16) return matchingFewSpelled(list, cmd, cmd.spellings, settles);
  const onTextAll = matchingIndexed(list, [cmd.text]);
  // The first rule matching the text that settles the verdict: the rules after it are not needed.
  const cut = settles ? (onTextAll.find((i) => settles(list[i])) ?? -1) : -1;
  const onText = (cut < 0 ? onTextAll : onTextAll.filter((i) => i <= cut)).map((i) => list[i]);
  if ((cut < 0 && onText.length === list.length) || !variantsMayAdd(list, new Set(onText), cmd.spellings.source, cut < 0 ? list.length : cut)) return onText;
  const v = cmd.spellings.variants();
  if (!v?.length) return onText;
  const all = matchingIndexed(list, [cmd.text, ...v]);
  return (cut < 0 ? all : all.filter((i) => i <= cut)).map((i) => list[i]);
}

/**
 * matchingCommandPatterns for a short list, in one pass: each rule's literal is looked for in the
 * text once, and that answer is also the source's when the source is the text (no extra
 * spellings), where testing the text and then asking variantsMayAdd looked for it twice. Same
 * list (tested against matchingPatternsNaive over the text and every variant, rules-scale.test.ts).
 */
function matchingFewSpelled(list: readonly BashPatternRule[], cmd: ExecutedCommand, spellings: NonNullable<ExecutedCommand["spellings"]>, settles?: (rule: BashPatternRule) => boolean): BashPatternRule[] {
  const k = keysOf(list);
  const text = cmd.text;
  const source = spellings.source;
  const out: BashPatternRule[] = [];
  let mayAdd = false;
  const gate = k.anyExact(text);
  let sourceGate: boolean | undefined;
  for (let i = 0; i < list.length; i++) {
    const literal = k.literal[i];
    const fold = k.fold[i];
    const inText = literal === undefined || ((fold || gate) && holds(text, literal, fold));
    if (inText && list[i].regex.test(text)) {
      out.push(list[i]);
      if (settles?.(list[i])) {
        // The verdict is settled here: only the rules before it may still need the variants.
        if (!mayAdd) return out;
        const v = spellings.variants();
        return v?.length ? [...matchingFew(list, [text, ...v], i), list[i]] : out;
      }
    }
    // A rule that missed the text may match a variant unless its variant-safe literal is absent
    // from the source (variantsMayAdd's question, asked here rule by rule).
    else if (!mayAdd && !out.includes(list[i])) mayAdd = !k.safe[i] || (source === text ? inText : (fold || (sourceGate ??= k.anyExact(source))) && holds(source, literal!, fold));
  }
  if (!mayAdd || out.length === list.length) return out;
  const v = spellings.variants();
  return v?.length ? matchingFew(list, [text, ...v]) : out;
}

/**
 * Is a required literal of a rule one that every variant containing it gets from the source? A
 * variant's words are the source's words, flag letters split off a bundle (`-x`) and operands
 * written `./op`: a piece with no space that does not begin with `.` or `/` and is not `-` or
 * `-x` alone cannot come from anything else.
 */
export function variantSafe(literal: string): boolean {
  return literal !== "" && !literal.includes(" ") && literal[0] !== "." && literal[0] !== "/" && !/^-[A-Za-z]?$/.test(literal);
}

/**
 * Could a rule before `end` not in `hits` match a variant spelled from `source`? Long lists only
 * (short ones ask it rule by rule, matchingFewSpelled).
 */
function variantsMayAdd(list: readonly BashPatternRule[], hits: ReadonlySet<BashPatternRule>, source: string, end: number): boolean {
  const k = keysOf(list);
  const ascii = !NON_ASCII.test(source);
  let lower: string | undefined;
  const has = (i: number): boolean => !k.safe[i] || holds(source, k.literal[i]!, k.fold[i]);
  const index = k.variantIndex!;
  // The rules without a keyed literal one by one, the others found by piece.
  for (const i of index.always) if (i < end && !hits.has(list[i]) && has(i)) return true;
  if (!ascii && index.anyFolded) return true;
  const found = (index: Map<string, Keyed[]>, keyText: string) => {
    for (let i = 0; i + GRAM <= keyText.length; i++) {
      for (const keyed of index.get(keyText.slice(i, i + GRAM)) ?? []) if (keyed.index < end && !hits.has(list[keyed.index]) && keyText.includes(keyed.literal)) return true;
    }
    return false;
  };
  return (k.anyExact(source) && found(index.exact, source)) || (index.anyFolded && found(index.folded, (lower ??= source.toLowerCase())));
}

function prefilterLiteral(rule: BashPatternRule): string | undefined {
  const literal = requiredLiteral(rule.regex.source, rule.regex.flags);
  if (literal === undefined || !rule.regex.flags.includes("i")) return literal;
  return NON_ASCII.test(literal) ? undefined : literal.toLowerCase();
}

/** The naive path: every rule's regex on every text. The reference the prefilter must equal. */
export function matchingPatternsNaive(rules: RuleSet, texts: readonly string[]): BashPatternRule[] {
  return rules.bashToolPatterns.filter((r) => texts.some((t) => r.regex.test(t)));
}

/** Runs the regexes of the rules whose piece and literal occur in keyText, on the original text. */
function probe(index: Map<string, Keyed[]>, keyText: string, text: string, list: readonly BashPatternRule[], hits: Set<number>): void {
  if (index.size === 0) return;
  for (let i = 0; i + GRAM <= keyText.length; i++) {
    const keyed = index.get(keyText.slice(i, i + GRAM));
    if (!keyed) continue;
    for (const k of keyed) {
      if (!hits.has(k.index) && keyText.includes(k.literal) && list[k.index].regex.test(text)) hits.add(k.index);
    }
  }
}

/** `literalOf`: the literal a rule is keyed by (lower-cased for case-insensitive rules), if any. */
export function compilePrefilter(list: readonly BashPatternRule[], literalOf: (rule: BashPatternRule, index: number) => string | undefined = prefilterLiteral): Prefilter {
  const pf: Prefilter = { always: [], exact: new Map(), folded: new Map(), anyFolded: false };
  // Balance the buckets: each rule goes under the piece of its literal used least so far.
  const load = new Map<string, number>();
  list.forEach((rule, index) => {
    const fold = rule.regex.flags.includes("i");
    const literal = literalOf(rule, index);
    if (literal === undefined || literal.length < GRAM) {
      pf.always.push(index);
      return;
    }
    const map = fold ? pf.folded : pf.exact;
    let best = "";
    let bestLoad = Infinity;
    for (let i = 0; i + GRAM <= literal.length; i++) {
      const g = literal.slice(i, i + GRAM);
      const n = load.get((fold ? "i" : "c") + g) ?? 0;
      if (n < bestLoad) [best, bestLoad] = [g, n];
    }
    load.set((fold ? "i" : "c") + best, bestLoad + 1);
    const bucket = map.get(best);
    const keyed = { index, literal };
    if (bucket) bucket.push(keyed);
    else map.set(best, [keyed]);
    if (fold) pf.anyFolded = true;
  });
  return pf;
}

/**
 * The longest literal string that every match of the regex contains, or undefined when none can
 * be read off safely. Only the top-level sequence is read: a top-level `|` gives up; groups,
 * classes, `.`, anchors, assertions and escapes other than an escaped punctuation character end
 * a literal run; a quantifier that allows zero repetitions removes the character it applies to,
 * and any quantifier ends the run after it.
 */
export function requiredLiteral(source: string, flags = ""): string | undefined {
  const unicode = flags.includes("u") || flags.includes("v");
  const runs: string[] = [];
  let run = "";
  const end = () => {
    if (run) runs.push(run);
    run = "";
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "|") return undefined; // top-level alternation: no literal is required
    if (c === "(") {
      const close = skipGroup(source, i);
      if (close < 0) return undefined;
      end();
      i = close + 1;
      i = skipQuantifier(source, i);
      continue;
    }
    if (c === "[") {
      const close = skipClass(source, i);
      if (close < 0) return undefined;
      end();
      i = skipQuantifier(source, close + 1);
      continue;
    }
    let literal: string | undefined;
    let next = i + 1;
    if (c === "\\") {
      const e = source[i + 1];
      if (e === undefined) return undefined;
      // Only an escaped punctuation character is that character; letters and digits are classes,
      // assertions, back references or code escapes, skipped whole (\k<name>, \p{…}, \u{…},
      // \uXXXX, \xXX, \cX, \12): none of their characters may count as literal.
      if (/[\^$\\.*+?()[\]{}|/\-]/.test(e)) literal = e;
      next = skipEscape(source, i);
    } else if (c === "." || c === "^" || c === "$" || c === ")" || c === "]" || c === "}" || c === "{" || c === "*" || c === "+" || c === "?") {
      // Metacharacters, and (outside u mode) stray brackets or braces: nothing literal to keep.
      literal = undefined;
    } else {
      literal = c;
      // An astral character written as a surrogate pair is one character to the regex in u mode.
      if (unicode && /[\ud800-\udbff]/.test(c) && /[\udc00-\udfff]/.test(source[i + 1] ?? "")) {
        literal = source.slice(i, i + 2);
        next = i + 2;
      }
    }
    const q = quantifierAt(source, next);
    if (literal === undefined) {
      end();
      i = q ? q.end : next;
      continue;
    }
    if (!q) {
      run += literal;
      i = next;
      continue;
    }
    // Quantified character: required once if the minimum is at least one, then the run ends.
    if (q.min >= 1) run += literal;
    end();
    i = q.end;
  }
  end();
  let best: string | undefined;
  for (const r of runs) if (best === undefined || r.length > best.length) best = r;
  return best;
}

/** The index just after the escape starting at i (a backslash). */
function skipEscape(s: string, i: number): number {
  const e = s[i + 1];
  let j = i + 2;
  const upTo = (close: string) => {
    const k = s.indexOf(close, j);
    return k < 0 ? s.length : k + 1;
  };
  if (e === "k" && s[j] === "<") return upTo(">");
  if ((e === "p" || e === "P" || e === "u") && s[j] === "{") return upTo("}");
  const hex = (n: number) => {
    while (n-- > 0 && /[0-9a-fA-F]/.test(s[j] ?? "")) j++;
    return j;
  };
  if (e === "u") return hex(4);
  if (e === "x") return hex(2);
  if (e === "c") return /[A-Za-z]/.test(s[j] ?? "") ? j + 1 : j;
  if (/[0-9]/.test(e)) {
    while (/[0-9]/.test(s[j] ?? "")) j++;
  }
  return j;
}

/** A quantifier starting at i (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy), or undefined. */
function quantifierAt(s: string, i: number): { min: number; end: number } | undefined {
  const c = s[i];
  let min: number;
  let end: number;
  if (c === "*" || c === "?") [min, end] = [0, i + 1];
  else if (c === "+") [min, end] = [1, i + 1];
  else if (c === "{") {
    const m = /^\{(\d+)(,\d*)?\}/.exec(s.slice(i, i + 24));
    if (!m) return undefined;
    [min, end] = [Number(m[1]), i + m[0].length];
  } else return undefined;
  if (s[end] === "?") end++;
  return { min, end };
}

function skipQuantifier(s: string, i: number): number {
  return quantifierAt(s, i)?.end ?? i;
}

/** Index of the `)` closing the group opened at i, or -1. */
function skipGroup(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "[") {
      j = skipClass(s, j);
      if (j < 0) return -1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return -1;
}

/** Index of the `]` closing the class opened at i, or -1. */
function skipClass(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "[") {
      // v-mode nested classes: skip them whole.
      const inner = skipClass(s, j);
      if (inner < 0) return -1;
      j = inner;
    } else if (c === "]") return j;
  }
  return -1;
}
