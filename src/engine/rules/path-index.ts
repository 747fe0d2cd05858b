// Which path rules can hit a touched path, without running every entry's matcher. A literal entry
// (no glob, brace, extglob or escape character) can only hit a path by equality: a bare name
// equals one of the path's segments; a folder or literal path equals the path or one of its
// folders, or, for a recursive operation, lies inside the path. Such entries are found by lookup;
// every other entry (globs) is always tried. The caller still runs the real matcher on each
// candidate, in list order, so the index only has to never leave a hit out: the first hit is the
// same as scanning the whole list (tested against the full scan, test/unit/rules-scale.test.ts).
// Pure; built once per compiled list (a WeakMap).
import { isLiteralTarget, segmentGlob, type PathMatcher } from "../paths";

/** The shell's wildcard characters in a touched path. */
const GLOB = /[*?[\]{}]/;

interface PathIndex {
  /** Literal bare names → entry indices. */
  names: Map<string, number[]>;
  /** Literal folder or path targets (absolute) → entry indices. */
  targets: Map<string, number[]>;
  /** The same targets sorted, for "inside this folder" range lookups. */
  sorted: { target: string; index: number }[];
  /** Entries always tried (globs). */
  always: number[];
}

const built = new WeakMap<readonly unknown[], PathIndex>();

function buildIndex(list: readonly (readonly [unknown, PathMatcher])[]): PathIndex {
  const ix: PathIndex = { names: new Map(), targets: new Map(), sorted: [], always: [] };
  list.forEach(([, m], i) => {
    if (m.target === "" || !isLiteralTarget(m.target)) ix.always.push(i);
    else if (m.shape === "name") add(ix.names, m.target, i);
    else {
      add(ix.targets, m.target, i);
      ix.sorted.push({ target: m.target, index: i });
    }
  });
  ix.sorted.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : a.index - b.index));
  return ix;
}

function add(map: Map<string, number[]>, key: string, i: number): void {
  const l = map.get(key);
  if (l) l.push(i);
  else map.set(key, [i]);
}

/**
 * The entries of `list` that may hit one of `paths` (absolute, normalised), in list order:
 * a superset of the hits. Short lists are returned whole.
 */
export function pathCandidates<T extends readonly [unknown, PathMatcher]>(list: readonly T[], paths: readonly string[], recursive: boolean): readonly T[] {
  if (list.length < 16) return list;
  let ix = built.get(list);
  if (!ix) built.set(list, (ix = buildIndex(list)));
  const hits = new Set<number>(ix.always);
  // A glob in the path itself (`rm .en*`) may expand to a protected bare name (globMayMatchName):
  // each literal name the glob's wildcard segments can match is a candidate.
  for (const p of paths) {
    if (!GLOB.test(p)) continue;
    for (const part of p.split("/")) {
      if (!GLOB.test(part)) continue;
      const mm = segmentGlob(part);
      for (const [name, idx] of ix.names) if (mm.match(name)) for (const i of idx) hits.add(i);
    }
  }
  // A wildcard in a folder segment (`~/.ss?/id_*`) may expand into a protected folder
  // (globMayReachFolder): every literal target below the glob's literal leading folder.
  for (const p of paths) {
    const wild = p.search(GLOB);
    if (wild < 0) continue;
    const base = p.slice(0, p.lastIndexOf("/", wild));
    const prefix = base === "" ? "/" : base + "/";
    for (const t of ix.sorted) if (t.target.startsWith(prefix)) hits.add(t.index);
  }
  // minimatch reads "//" as "/": look the collapsed spelling up too.
  const all = paths.flatMap((p) => (p.includes("//") ? [p, p.replace(/\/+/g, "/")] : [p]));
  for (const p of all) {
    for (const part of p.split("/")) if (part !== "") for (const i of ix.names.get(part) ?? []) hits.add(i);
    // The path and each folder above it, up to "/".
    for (let q = p; ; ) {
      for (const i of ix.targets.get(q) ?? []) hits.add(i);
      if (q === "/" || q === "") break;
      const cut = q.lastIndexOf("/");
      q = cut <= 0 ? "/" : q.slice(0, cut);
    }
    if (recursive) {
      // Targets inside p: the sorted range starting with p + "/".
      const prefix = p === "/" ? "/" : p + "/";
      let lo = 0;
      let hi = ix.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ix.sorted[mid].target < prefix) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < ix.sorted.length && ix.sorted[k].target.startsWith(prefix); k++) hits.add(ix.sorted[k].index);
    }
  }
  return [...hits].sort((a, b) => a - b).map((i) => list[i]);
}
