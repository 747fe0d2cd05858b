// Path resolution and path-rule matching. Pure string work on POSIX paths; the only I/O,
// symlink resolution, is injected by the adapter as `realpath`.
import { posix } from "node:path";
import { Minimatch } from "minimatch";

export interface PathContext {
  cwd: string;
  home: string;
  /** Anchor of relative rule entries; defaults to cwd. */
  root?: string;
}

const GLOB_CHARS = /[*?[\]{}]/;
const MM = { dot: true, nocomment: true, nonegate: true } as const;

/**
 * Turns a path as an agent wrote it into an absolute, normalised path:
 * `file://` URLs, `~`, `$HOME`/`${HOME}`, Windows separators, `.` and `..` segments.
 * Returns undefined for something that is not a usable path (empty).
 */
export function resolvePath(raw: string, ctx: PathContext): string | undefined {
  if (raw === "") return undefined;
  // Already absolute and normalised (what the walker mostly produces): nothing to resolve.
  if (raw.charCodeAt(0) === 47 && isNormalAbsolute(raw)) return raw;
  let p = raw.replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, " ");
  if (p.startsWith("file://")) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      return undefined;
    }
  }
  p = expandHome(p, ctx.home);
  if (/^[A-Za-z]:[\\/]/.test(p) || p.includes("\\")) p = p.replace(/\\/g, "/");
  // A plain relative name below a normalised cwd is cwd/name (`.` is cwd); anything else goes
  // through resolve.
  if (p.charCodeAt(0) !== 47 && isNormalAbsolute(ctx.cwd)) {
    if (p === ".") return ctx.cwd;
    if (isNormalRelative(p)) return ctx.cwd === "/" ? "/" + p : ctx.cwd + "/" + p;
  }
  return posix.resolve(ctx.cwd, p);
}

/**
 * What posix.resolve returns unchanged: absolute, no empty, `.` or `..` segment, no trailing
 * slash (except "/" itself), and none of the characters resolvePath rewrites (backslashes and
 * the Unicode spaces it turns into plain ones).
 */
const NOT_NORMAL = /\/\/|\/\.\.?(\/|$)|[\\\u00a0\u2000-\u200b\u202f\u205f\u3000]/;
function isNormalAbsolute(p: string): boolean {
  return p.charCodeAt(0) === 47 && (p.length === 1 || p.charCodeAt(p.length - 1) !== 47) && !NOT_NORMAL.test(p);
}
function isNormalRelative(p: string): boolean {
  return p !== "" && p !== "." && p !== ".." && !p.startsWith("./") && !p.startsWith("../") && p.charCodeAt(p.length - 1) !== 47 && !NOT_NORMAL.test(p) && !p.startsWith("file://");
}

export function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return home + p.slice(1);
  // `~user/…`: that user's home, beside ours (`~dev` is ours when home is /home/dev).
  const user = /^~([A-Za-z_][A-Za-z0-9_.-]*)(?=\/|$)/.exec(p);
  if (user) {
    const h = home.replace(/\/+$/, "");
    return h.slice(0, h.lastIndexOf("/") + 1) + user[1] + p.slice(user[0].length);
  }
  return p.replace(/^\$\{HOME\}(?=\/|$)|^\$HOME(?=\/|$)/, home);
}

/** The compiled form of one path entry from the rules file. */
export interface PathMatcher {
  entry: string;
  /** `name`: compared with each path component; `folder`: the folder and all below; `glob`: a full-path glob. */
  shape: "name" | "folder" | "glob";
  /** For folder and glob: the absolute anchored path or pattern. For name: the name pattern. */
  target: string;
  /** Compiled once: matching runs on every tool call. */
  glob?: Minimatch;
  /** name: does one path segment match? (the glob's own test, compiled to one comparison) */
  segment?: (part: string) => boolean;
  /** glob: the folder every match lies below (its literal leading segments), "" when none. */
  below?: string;
  /** folder: what a path inside it starts with (target + "/"); glob: the same for `below`. */
  inside?: string;
  /** Does the target hold a wildcard (computed on first use)? */
  magic?: boolean;
}

export function compilePathEntry(entry: string, ctx: PathContext): PathMatcher {
  if (!entry.includes("/")) {
    const glob = new Minimatch(entry, MM);
    return { entry, shape: "name", target: entry, glob, segment: segmentTest(entry, glob) };
  }
  const root = ctx.root ?? ctx.cwd;
  const expanded = expandHome(entry, ctx.home);
  const anchored = expanded.startsWith("/") ? expanded : posix.join(root, expanded);
  if (entry.endsWith("/") && !GLOB_CHARS.test(entry)) {
    const target = posix.normalize(anchored).replace(/\/+$/, "") || "/";
    return { entry, shape: "folder", target, inside: target === "/" ? "/" : target + "/" };
  }
  const target = anchored.replace(/\/+$/, "");
  const below = literalFolder(target);
  return { entry, shape: "glob", target, glob: new Minimatch(target, MM), below, inside: below + "/" };
}

/** Characters minimatch gives a meaning to (globs, classes, braces, extglobs, escapes). */
const MAGIC = /[*?[\]{}()!+@|\\#]/;
/** An empty, `.` or `..` segment: minimatch rewrites those before matching. */
const REWRITTEN_SEGMENT = /\/\/|(^|\/)\.\.?(\/|$)/;

/** Is a path entry's target matched by equality only (no character or segment minimatch interprets)? */
export function isLiteralTarget(target: string): boolean {
  return !MAGIC.test(target) && !REWRITTEN_SEGMENT.test(target);
}

/**
 * One path segment against a name entry, as `glob.match(segment)` answers it: a name with no
 * character minimatch interprets is an equality; a pattern's answers are remembered per segment
 * (the same few segments, the project's folders, recur in every path of a session), bounded.
 */
export function segmentTest(entry: string, glob: Minimatch): (part: string) => boolean {
  if (!MAGIC.test(entry) && !glob.hasMagic() && entry !== "." && entry !== "..") return (part) => part === entry;
  // `*.pem`, `.env*`: one star before or after plain text is an endsWith or a startsWith (the
  // segments `.` and `..`, which a star never matches, still asked of the glob).
  const affix = /^\*([^*]+)$|^([^*]+)\*$/.exec(entry);
  if (affix && !MAGIC.test(affix[1] ?? affix[2])) {
    const suffix = affix[1];
    const prefix = affix[2];
    return (part) => (part === "." || part === ".." ? glob.match(part) : suffix !== undefined ? part.endsWith(suffix) : part.startsWith(prefix));
  }
  const seen = new Map<string, boolean>();
  return (part) => {
    let hit = seen.get(part);
    if (hit === undefined) {
      if (seen.size >= 1024) seen.clear();
      seen.set(part, (hit = glob.match(part)));
    }
    return hit;
  };
}

/**
 * The folder a full-path glob's matches all lie below: its leading segments before the first one
 * with a character minimatch interprets, when they are plain (no empty, `.` or `..` segment, which
 * minimatch would rewrite). A path outside it cannot match; "" when there is no such folder.
 */
function literalFolder(target: string): string {
  const magic = target.search(MAGIC);
  const cut = target.lastIndexOf("/", magic < 0 ? target.length : magic);
  if (cut <= 0) return "";
  const folder = target.slice(0, cut);
  return folder.startsWith("/") && !REWRITTEN_SEGMENT.test(folder) ? folder : "";
}

/** Does the absolute path `abs` fall under this entry (the path itself or something inside it)? */
export function pathMatches(m: PathMatcher, abs: string): boolean {
  switch (m.shape) {
    case "folder":
      return abs === m.target || abs.startsWith(m.inside ?? (m.target === "/" ? "/" : m.target + "/"));
    case "name": {
      const test = m.segment ?? ((part: string) => m.glob!.match(part));
      for (const part of segmentsOf(abs)) if (test(part)) return true;
      return false;
    }
    case "glob": {
      // Every match lies below the glob's literal folder: a path outside it cannot match, nor can
      // any folder above it (each is a prefix of the path).
      if (m.below && abs !== m.below && !abs.startsWith(m.inside ?? m.below + "/")) return false;
      // The glob names files or folders; anything inside a matching folder is covered too.
      for (let p = abs; ; p = posix.dirname(p)) {
        if (m.glob!.match(p)) return true;
        if (p === "/") return false;
      }
    }
  }
}

/**
 * `fn` remembering its last answer: every entry of a rule list asks the same question about the
 * path being checked, one after the other.
 */
function lastAnswer<T>(fn: (s: string) => T): (s: string) => T {
  let last: string | undefined;
  let answer: T;
  return (s) => {
    if (s !== last) {
      answer = fn(s);
      last = s;
    }
    return answer;
  };
}

/** The non-empty segments of a path (`split("/")` without the empty ones, in one pass). */
export const segmentsOf = lastAnswer((abs) => {
  const parts: string[] = [];
  for (let start = 0; start <= abs.length; ) {
    let end = abs.indexOf("/", start);
    if (end < 0) end = abs.length;
    if (end > start) parts.push(abs.slice(start, end));
    start = end + 1;
  }
  return parts;
});

/**
 * Could the shell glob `abs` (`/x/.en*`, `/x/*.md`) expand to a name this entry protects? Only
 * for literal name entries (`.env`, `PLAN.md`); as in bash, a leading dot must be written.
 * `within`: only globs whose wildcard segment is the last one and whose folder is this one.
 */
export function globMayMatchName(m: PathMatcher, abs: string, within?: string): boolean {
  if (m.shape !== "name" || (m.magic ??= GLOB_CHARS.test(m.target)) || !GLOB_CHARS.test(abs)) return false;
  if (within !== undefined && (abs.slice(0, Math.max(0, abs.lastIndexOf("/"))) !== within || !GLOB_CHARS.test(abs.slice(abs.lastIndexOf("/") + 1)))) return false;
  return wildcardSegmentsOf(abs).some((part) => segmentGlob(part).match(m.target));
}

/**
 * Could the shell glob `abs` (`/h/.ss?/id_*`, `/h/.[s]sh`) expand to a path inside this folder
 * entry, or (for a recursive operation) to a folder above it? Segment by segment: each wildcard
 * segment must match the folder's segment there (a leading dot must be written, as in bash), each
 * literal one must equal it; `**` reaches any depth.
 */
export function globMayReachFolder(m: PathMatcher, abs: string, recursive: boolean): boolean {
  if (m.shape !== "folder" || !GLOB_CHARS.test(abs)) return false;
  const folder = m.target.split("/");
  const parts = abs.split("/");
  for (let i = 0; i < folder.length; i++) {
    if (i >= parts.length) return recursive;
    const part = parts[i];
    if (part === "**") return true;
    if (GLOB_CHARS.test(part) ? !segmentGlob(part).match(folder[i]) : part !== folder[i]) return false;
  }
  return true;
}

/** The segments of a path that hold a wildcard. */
const wildcardSegmentsOf = lastAnswer((abs) => abs.split("/").filter((part) => GLOB_CHARS.test(part)));

/** A wildcard segment of a path as the shell expands it (a leading dot must be written), compiled once (bounded). */
const segmentGlobs = new Map<string, Minimatch>();
export const SEGMENT_GLOBS_KEPT = 1024;
/** How many compiled wildcard segments are kept now (tests and the bench check the bound). */
export const segmentGlobCount = (): number => segmentGlobs.size;
export function segmentGlob(part: string): Minimatch {
  let mm = segmentGlobs.get(part);
  if (!mm) {
    if (segmentGlobs.size >= SEGMENT_GLOBS_KEPT) segmentGlobs.clear();
    segmentGlobs.set(part, (mm = new Minimatch(part, { dot: false, nocomment: true, nonegate: true })));
  }
  return mm;
}

/**
 * Could a recursive operation on folder `dir` reach something this entry protects?
 * True when a protected folder or glob lies inside `dir`. Bare names cannot be known without
 * listing the folder, so they only count when `dir` itself matches.
 */
export function pathContainsMatch(m: PathMatcher, dir: string): boolean {
  if (pathMatches(m, dir)) return true;
  if (m.shape === "name") return false;
  const prefix = dir === "/" ? "/" : dir + "/";
  const staticPart = m.shape === "glob" ? m.target.slice(0, firstGlobIndex(m.target)) : m.target + "/";
  return staticPart.startsWith(prefix);
}

function firstGlobIndex(s: string): number {
  const i = s.search(GLOB_CHARS);
  return i < 0 ? s.length : i;
}

/** The longest folder prefix of a glob pattern that contains no wildcard (`src/**\/*.ts` → `src`). */
export function globBase(pattern: string): string {
  const parts = pattern.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  if (fixed.length === parts.length) fixed.pop();
  return fixed.join("/") || (pattern.startsWith("/") ? "/" : ".");
}

/**
 * Could the glob in the last segment of `abs` (a Glob tool's `**\/*.pem`, Grep's `glob: ".env*"`,
 * `rg -g '*.key'`, `--include=.env*`) match a name this name entry protects? Both may be globs:
 * the pattern is turned into the concrete names it certainly matches (each wildcard as nothing
 * and as one letter, each brace alternative, each class as its first member) and those are
 * tested against the entry. A bare `*` yields no name with a leading dot, as in the shell.
 */
export function patternMayMatchEntry(m: PathMatcher, abs: string): boolean {
  if (m.shape !== "name") return false;
  const last = abs.slice(abs.lastIndexOf("/") + 1);
  if (!GLOB_CHARS.test(last)) return false;
  const test = m.segment ?? ((part: string) => m.glob!.match(part));
  return samplesOf(last).some((n) => n !== "" && test(n));
}

const samplesOf = lastAnswer((glob) => sampleNames(glob));

/** Concrete names a glob segment matches: a few, never an exhaustive list. */
export function sampleNames(glob: string, budget = 32): string[] {
  const brace = /\{([^{}]*)\}/.exec(glob);
  if (brace) {
    const out: string[] = [];
    for (const alt of brace[1].split(",")) {
      if (out.length >= budget) break;
      out.push(...sampleNames(glob.slice(0, brace.index) + alt + glob.slice(brace.index + brace[0].length), Math.max(1, budget - out.length)));
    }
    return out;
  }
  const cls = (s: string) => s.replace(/\[!?\^?([^\]])[^\]]*\]/g, "$1");
  const base = cls(glob).replace(/\*\*/g, "*");
  return [...new Set([base.replace(/\*/g, "").replace(/\?/g, "x"), base.replace(/\*/g, "x").replace(/\?/g, "x")])];
}

/**
 * Other spellings of the same file (issue 36, family 7): a process's view of the root or of its
 * working folder (`/proc/self/root/etc/x` is `/etc/x`, `/proc/self/cwd/.env` is `./.env`), and the
 * name in lower case (`.ENV`, `ID_RSA.PEM`: on a case-insensitive disk the same file, elsewhere just
 * as plainly a copy of the secret's name).
 */
export function samePathSpellings(abs: string, cwd: string): string[] {
  const out: string[] = [];
  const proc = /^\/proc\/(?:self|thread-self|\d+|\$\$|\$\{?[A-Z_]+\}?|\*)\/(root|cwd)(\/.*)?$/.exec(abs);
  if (proc) out.push(proc[1] === "root" ? proc[2] || "/" : `${cwd}${proc[2] ?? ""}`);
  for (const p of [abs, ...out]) {
    const lower = p.toLowerCase();
    if (lower !== p) out.push(lower);
  }
  return out;
}
