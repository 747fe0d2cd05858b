// A quick static check for regexes that can backtrack catastrophically. The classic shape is an
// unbounded quantifier over a group whose own last element is an unbounded quantifier that can
// also match the group's first character: `(a+)+`, `(-[^\s]*)*` (the dash ends one repetition
// or starts the next, in exponentially many ways). `(-[^\s]+\s+)*` is safe: a repetition must
// end in a space and the next one start with a dash. The endpoint bounds every decision in time
// anyway; this tells the rule's author before it bites.

interface Atom {
  /** Source of one matchable unit: a char, an escape, a class, `.`, or a whole group. */
  source: string;
  unbounded: boolean;
  /** For a group: its own atoms. */
  inner?: Atom[];
}

const SAMPLE = ["-", "a", "r", "A", "D", "0", " ", "\t", "_", "/", ".", "x", "f", "(", "+"];

/** True when the pattern has a quantified group whose repetitions can overlap ambiguously. */
export function nestsQuantifiers(source: string): boolean {
  let atoms: Atom[];
  try {
    atoms = parseAtoms(source, { i: 0 }, false);
  } catch {
    return false;
  }
  return atoms.some(risky);
}

function risky(a: Atom): boolean {
  if (!a.inner) return false;
  if (a.unbounded && a.inner.length > 0) {
    const tail = trailingUnbounded(a.inner[a.inner.length - 1]);
    if (tail && overlaps(charsOf(tail), charsOf(a.inner[0]))) return true;
  }
  return a.inner.some(risky);
}

/** The unbounded atom a sequence element ends with, looking into groups: `(x(a+))` → `a+`. */
function trailingUnbounded(a: Atom): Atom | undefined {
  if (a.unbounded) return a;
  if (a.inner && a.inner.length > 0) return trailingUnbounded(a.inner[a.inner.length - 1]);
  return undefined;
}

/**
 * First characters by atom source: a 1,000-rule file repeats the same few atoms, and each
 * lookup otherwise compiles a regex and runs it on every sample. Pure, so a cache cannot change
 * an answer; bounded, so a long-lived host does not grow it without end.
 */
const firstChars = new Map<string, Set<string>>();

/** Which sample characters can start a match of the atom. */
function charsOf(a: Atom): Set<string> {
  const src = a.inner ? (a.inner[0] ? a.inner[0].source : "") : a.source;
  let known = firstChars.get(src);
  if (!known) {
    if (firstChars.size >= 4096) firstChars.clear();
    firstChars.set(src, (known = sampleFirstChars(src)));
  }
  return known;
}

function sampleFirstChars(src: string): Set<string> {
  const out = new Set<string>();
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${src})`);
  } catch {
    return new Set(SAMPLE);
  }
  for (const c of SAMPLE) if (re.test(c)) out.add(c);
  return out;
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  for (const c of a) if (b.has(c)) return true;
  return false;
}

function parseAtoms(s: string, pos: { i: number }, inGroup: boolean): Atom[] {
  const atoms: Atom[] = [];
  while (pos.i < s.length) {
    const c = s[pos.i];
    if (c === ")") {
      if (inGroup) return atoms;
      pos.i++;
      continue;
    }
    if (c === "|") {
      // Alternation: treat the alternatives as one sequence (conservative enough for a warning).
      pos.i++;
      continue;
    }
    let atom: Atom;
    if (c === "(") {
      pos.i++;
      if (s[pos.i] === "?") {
        // (?: (?= (?! (?<= (?<! (?<name>
        pos.i++;
        if (s[pos.i] === "<" && s[pos.i + 1] !== "=" && s[pos.i + 1] !== "!") while (pos.i < s.length && s[pos.i] !== ">") pos.i++;
        pos.i++;
        if (s[pos.i - 1] === "<") pos.i++;
      }
      const start = pos.i;
      const inner = parseAtoms(s, pos, true);
      atom = { source: `(?:${s.slice(start, pos.i)})`, unbounded: false, inner };
      pos.i++; // ")"
    } else if (c === "[") {
      let j = pos.i + 1;
      if (s[j] === "^") j++;
      if (s[j] === "]") j++;
      while (j < s.length && s[j] !== "]") j += s[j] === "\\" ? 2 : 1;
      atom = { source: s.slice(pos.i, j + 1), unbounded: false };
      pos.i = j + 1;
    } else if (c === "\\") {
      atom = { source: s.slice(pos.i, pos.i + 2), unbounded: false };
      pos.i += 2;
    } else if (c === "^" || c === "$") {
      pos.i++;
      continue;
    } else {
      atom = { source: c === "." ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), unbounded: false };
      pos.i++;
    }
    // Quantifier?
    const q = s[pos.i];
    if (q === "*" || q === "+") {
      atom.unbounded = true;
      pos.i++;
    } else if (q === "?") {
      pos.i++;
    } else if (q === "{") {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(s.slice(pos.i));
      if (m) {
        atom.unbounded = m[2] === "," && m[3] === "";
        pos.i += m[0].length;
      }
    }
    if (s[pos.i] === "?") pos.i++; // lazy
    atoms.push(atom);
  }
  return atoms;
}
