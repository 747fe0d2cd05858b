// MongoDB shell scripts (issue 36, family 4: server-side scripts): `mongosh --eval CODE` runs CODE
// on the server. DATA: shell method → what it deletes. A collection dropped by any name
// (`db[c].drop()` in a loop over getCollectionNames()), a database dropped by a command document
// (`db.runCommand({ dropDatabase: 1 })`), or a delete whose filter holds for every document
// (`{}`, `{ _id: { $exists: true } }`) empties the store: destroy-all. A delete with a real
// filter, a count, a find stay everyday.

/** How a method's argument decides what it deletes. */
type Reach = "always" | "filter" | "command";

const METHODS: Record<string, Reach> = {
  // `coll.drop()` (no argument: an iterator's `drop(n)` has one), `db.dropDatabase()`.
  drop: "always",
  dropDatabase: "always",
  // The first argument is the filter; none at all is the empty filter.
  deleteMany: "filter",
  remove: "filter",
  // A command document: its first key names the command.
  runCommand: "command",
  adminCommand: "command",
};

/** Commands (the first key of a command document) that drop a collection or a database. */
const DROP_COMMANDS = new Set(["drop", "dropDatabase"]);

/**
 * Conditions on `_id` that every document meets: it always exists and is never null. Compared
 * with spaces and quotes removed.
 */
const ALWAYS_TRUE_ID = [/^\{\$exists:(true|1)\}$/, /^\{\$ne:null\}$/, /^\{\$nin:\[\]\}$/, /^\{\$gte:MinKey(\(\))?\}$/, /^\{\$not:\{\$eq:null\}\}$/];
/** Top-level operators whose value holds for every document. */
const ALWAYS_TRUE_OPERATOR: Record<string, RegExp> = { $where: /^(true|"true"|function\(\)\{returntrue;?\}|\(\)=>true)$/, $expr: /^(true|\{\$eq:\[1,1\]\})$/ };

export interface MongoDelete {
  /** What the script deletes, for the reason (`db[c].drop()`, `deleteMany({…})`). */
  via: string;
}

/** The deletes of everything in the scripts given to `--eval` (mongosh, the legacy mongo shell). */
export function mongoScriptDeletes(args: readonly (string | undefined)[]): MongoDelete | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const code = a === "--eval" ? args[i + 1] : a?.startsWith("--eval=") ? a.slice(7) : undefined;
    const found = code === undefined ? undefined : deletesAll(code);
    if (found) return found;
  }
  return undefined;
}

function deletesAll(code: string): MongoDelete | undefined {
  const call = /\.\s*([A-Za-z]+)\s*\(/g;
  let m: RegExpExecArray | null;
  while ((m = call.exec(code))) {
    const reach = Object.hasOwn(METHODS, m[1]) ? METHODS[m[1]] : undefined;
    if (!reach) continue;
    const arg = firstArgument(code, m.index + m[0].length);
    if (arg === undefined) continue;
    const compact = arg.replace(/\s+/g, "").replace(/["']/g, "");
    const all =
      reach === "always" ? compact === "" : reach === "filter" ? alwaysTrueFilter(compact) : DROP_COMMANDS.has(/^\{([$\w]+):/.exec(compact)?.[1] ?? "") || deleteCommandOfAll(compact);
    if (all) return { via: `${m[1]}(${arg.trim().length > 40 ? "…" : arg.trim()})` };
  }
  return undefined;
}

/** The text of the first argument of the call whose `(` ends at `from` (balanced), undefined when unbalanced. */
function firstArgument(code: string, from: number): string | undefined {
  let depth = 0;
  let quote = "";
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "(" || c === "{" || c === "[") depth++;
    else if ((c === ")" || c === ",") && depth === 0) return code.slice(from, i);
    else if (c === ")" || c === "}" || c === "]") depth--;
  }
  return undefined;
}

/** A filter (spaces and quotes removed) that every document matches: none, `{}`, or only always-true conditions. */
function alwaysTrueFilter(filter: string): boolean {
  if (filter === "" || filter === "{}") return true;
  if (!filter.startsWith("{") || !filter.endsWith("}")) return false;
  const pairs = topLevel(filter.slice(1, -1));
  return pairs.length > 0 && pairs.every((p) => {
    const colon = p.indexOf(":");
    const key = p.slice(0, colon);
    const value = p.slice(colon + 1);
    if (key === "_id") return ALWAYS_TRUE_ID.some((re) => re.test(value));
    return Object.hasOwn(ALWAYS_TRUE_OPERATOR, key) && ALWAYS_TRUE_OPERATOR[key].test(value);
  });
}

/** `{delete: "c", deletes: [{q: {}, limit: 0}]}`: the delete command with an always-true query. */
function deleteCommandOfAll(doc: string): boolean {
  if (!/^\{delete:/.test(doc)) return false;
  const q = /[{,]q:(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})/.exec(doc);
  return q !== null && alwaysTrueFilter(q[1]);
}

/** Splits `a:1,b:{c:2,d:3}` at its top-level commas. */
function topLevel(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (body.slice(start) !== "") out.push(body.slice(start));
  return out;
}
