// An environment dump read through a filter on the variables' names (issue 36, item 11: a
// name-filtered read that cannot match a secret is not a secret read). `env | grep -E
// '^(PATH|SHELL|LANG)='` prints three named lines; `env | grep -i token` prints every token.
// The filter must be anchored at the start of the line and end each name with `=`, so that only
// those exact names pass; none of them may be a secret's name (secret-names.ts), in any case.
import { isSecretName } from "../../remote/secret-names";
import { parseOptions, valuesOf } from "../options";
import type { Invocation } from "../runner";
import { known } from "../words";

const GREP_SPEC = { shortWithValue: "efmABCd", longWithValue: ["regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "binary-files", "label", "color", "colour", "exclude", "include", "exclude-dir"] };
/** Options after which grep prints no line of its input (a count, a yes/no). */
const PRINTS_NO_LINE = ["c", "count", "q", "quiet", "silent"];
/** Options that let other lines through (inverted, from a file, whole-word anywhere in the line). */
const NOT_A_NAME_FILTER = ["v", "invert-match", "f", "file", "F", "fixed-strings", "z", "null-data"];

/** Does this grep pass only lines of named variables, none of them a secret's name? */
export function namesOnlyFilter(inv: Invocation): boolean {
  if (!/^(grep|egrep)$/.test(inv.name) || inv.args.some((a) => !known(a))) return false;
  const p = parseOptions(inv.args, GREP_SPEC);
  const has = (names: readonly string[]) => p.options.some((o) => names.includes(o.name));
  if (has(NOT_A_NAME_FILTER)) return false;
  const given = valuesOf(p, "e", "regexp").map((a) => a.value ?? "");
  const patterns = given.length ? given : p.operands.slice(0, 1).map((a) => a.value ?? "");
  // Files named after the pattern: grep reads them, not the dump (judged by the path rules).
  if (p.operands.length > (given.length ? 0 : 1) || patterns.length === 0) return false;
  if (has(PRINTS_NO_LINE)) return true;
  const extended = inv.name === "egrep" || has(["E", "extended-regexp", "P", "perl-regexp"]);
  return patterns.every((pat) => {
    const names = anchoredNames(pat, extended);
    return names !== undefined && !names.some((n) => isSecretName(n.toUpperCase()));
  });
}

/**
 * The names a pattern `^NAME=…` or `^(A|B)=…` (`^\(A\|B\)=` in a basic regex) lets through, or
 * undefined when it may pass any other line.
 */
function anchoredNames(pattern: string, extended: boolean): string[] | undefined {
  const [open, close, or] = extended ? ["(", ")", "|"] : ["\\(", "\\)", "\\|"];
  if (!pattern.startsWith("^")) return undefined;
  let rest = pattern.slice(1);
  let alternatives: string[];
  if (rest.startsWith(open)) {
    const end = rest.indexOf(close);
    if (end < 0) return undefined;
    alternatives = rest.slice(open.length, end).split(or);
    rest = rest.slice(end + close.length);
  } else {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (!m) return undefined;
    alternatives = [m[0]];
    rest = rest.slice(m[0].length);
  }
  // Every name ends with `=`, inside the group or right after it.
  const sealed = rest.startsWith("=");
  const names: string[] = [];
  for (const alt of alternatives) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(=?)$/.exec(alt);
    if (!m || (!sealed && m[2] !== "=")) return undefined;
    names.push(m[1]);
  }
  return names;
}
