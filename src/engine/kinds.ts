// File kinds: an effect that reaches only the files whose names match a few name globs
// (`black .` rewrites the `*.py` files below `.`; `find . -name '*.pyc' -delete` deletes the
// `*.pyc` files). Such an effect reaches a protected file entry below its folder only when the
// entry's name can be of one of those kinds (`.claude/settings*.json` is never a `*.py`).
// A protected folder below holds files of any name, so it is reached, with two exceptions:
//   - a formatter (which keeps a file's meaning) does not reach a hidden folder: those hold the
//     state of the tools that own them (`.pi/`, `.git/`, `.claude/`), not the project's sources;
//   - a delete of regenerable kinds only (`*.pyc`, `.DS_Store`) loses nothing inside any folder.
// Zero-access entries are judged as before by the caller (a secret may have any name).
import { Minimatch } from "minimatch";
import { pathContainsMatch, pathMatches, type PathMatcher } from "./paths";

/** Build output and caches that the project's tools regenerate (issue 19): folders by name. */
export const REGENERABLE: ReadonlySet<string> = new Set(["node_modules", "dist", "build", "target", ".next", ".nuxt", "coverage", "__pycache__", ".turbo", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".parcel-cache", ".cache", "out", ".svelte-kit", ".gradle"]);

/** Files the tools regenerate, by kind (issue 27): bytecode, the OS's folder metadata, build info. */
export const REGENERABLE_FILES: readonly string[] = ["*.pyc", "*.pyo", ".DS_Store", "Thumbs.db", "*.tsbuildinfo", ".eslintcache"];

const WILD = /[*?[\]{}]/;

/**
 * Can one name match both globs? `*` and `?` as in a file name, a `[…]` class as one character;
 * braces are not split (answered yes). A small dynamic programme over the two patterns.
 */
export function namesMayMeet(a: string, b: string): boolean {
  if (a.includes("{") || b.includes("{")) return true;
  const x = tokens(a);
  const y = tokens(b);
  const memo = new Map<number, boolean>();
  const meet = (i: number, j: number): boolean => {
    const key = i * (y.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === x.length && j === y.length) r = true;
    else if (x[i] === "*") r = meet(i + 1, j) || (j < y.length && meet(i, j + 1));
    else if (y[j] === "*") r = meet(i, j + 1) || (i < x.length && meet(i + 1, j));
    else r = i < x.length && j < y.length && (x[i] === "?" || y[j] === "?" || x[i] === y[j]) && meet(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return meet(0, 0);
}

/** A glob as single-character tokens: `*`, `?` (also for a class), or a literal character. */
function tokens(glob: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end > 0) {
        out.push("?");
        i = end;
        continue;
      }
    }
    if (c === "*" && out[out.length - 1] === "*") continue;
    out.push(c === "\\" && i + 1 < glob.length ? glob[++i] : c);
  }
  return out;
}

/** Is every name `name` may be also of kind `kind`? (`.*.pyc` is a `*.pyc`; a literal must match.) */
export function nameWithin(name: string, kind: string): boolean {
  if (!WILD.test(kind)) return name === kind;
  // `*SUFFIX`: every name ending in SUFFIX; the name's own literal tail must end with it.
  if (/^\*[^*?[\]{}]+$/.test(kind)) {
    const tail = name.slice(name.search(/[^*?[\]{}]*$/));
    return tail.endsWith(kind.slice(1));
  }
  return name === kind;
}

/** A path segment that is regenerable output: a regenerable folder, or a file of a regenerable kind. */
export function regenerableName(segment: string): boolean {
  return REGENERABLE.has(segment) || REGENERABLE_FILES.some((k) => nameWithin(segment, k));
}

/**
 * Does an effect on the files of `kinds` at or below `dir` reach the entry? The entry holding
 * `dir` itself is reached whatever the kinds (`black .pi/` rewrites the guard's folder); an entry
 * below `dir` only through a name of the kinds on its way down. A name entry (`package-lock.json`,
 * any folder) is judged where a name is named, as for every recursive effect (the `DIR/NAME` of a
 * find -name, a glob operand), not inside a walk.
 */
export function reachesByKind(m: PathMatcher, dir: string, kinds: readonly string[], reformat: boolean): boolean {
  if (pathMatches(m, dir)) return true;
  if (m.shape === "name" || !pathContainsMatch(m, dir)) return false;
  const prefix = dir === "/" ? "/" : dir + "/";
  const segs = (m.target.startsWith(prefix) ? m.target.slice(prefix.length) : "").split("/").filter((s) => s !== "");
  const named = segs.some((seg) => seg.includes("**") || kinds.some((k) => namesMayMeet(seg, k)));
  if (m.shape !== "folder" || named) return named;
  if (reformat) return !segs.some((seg) => seg.startsWith("."));
  return !kinds.every(regenerableName);
}

/**
 * Names of the files that live in the secret folders (`~/.ssh/`, `~/.aws/`, `~/.kube/`…): keys,
 * credentials, tokens and their configuration, as samples a name filter is tried on.
 */
const SECRET_FOLDER_SAMPLES = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "credentials", "config", "token", "access_tokens.db", "credentials.db", "auth.json", "hosts.yml", "secrets.json", "key.pem", "server.key", "kubeconfig", "application_default_credentials.json", "pubring.kbx", "private.key"];

/**
 * Does a walk listing only the names matching `names` (`find / -name 'libssl.so*'`) look for a
 * file of the zero-access entry `m`? Listing is not reading: names are not content; but a filter
 * that matches a secret's own name (`-name id_rsa`, `-name '*.pem'`) is looking for one. The
 * filter is tried on the entry's own name (a wildcard in it stands for `id`) or, for a secret
 * folder, on the names such folders hold.
 */
export function listedNamesMeetSecret(m: PathMatcher, names: readonly string[]): boolean {
  const own = m.target.slice(m.target.lastIndexOf("/") + 1).replace(/\*+/g, "id");
  const samples = m.shape === "folder" ? SECRET_FOLDER_SAMPLES : [own];
  return names.some((n) => {
    const filter = new Minimatch(n, { dot: true, nocomment: true, nonegate: true, nocase: true });
    return samples.some((s) => s === "" || filter.match(s));
  });
}
