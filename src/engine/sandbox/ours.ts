// Our entries in an agent's settings, kept apart from the user's: what we added to each list and
// which values we set (with what was there before), so a re-render after a rules change replaces
// exactly ours and an uninstall restores the user's. Pure: the caller keeps the record where the
// agent cannot write (the workspace's .damage-control/, read-only inside the sandbox).
type Json = Record<string, unknown>;

/** A place in a settings object: keys from the top (`["sandbox", "filesystem", "denyRead"]`). */
export type KeyPath = readonly string[];

export interface Want {
  lists: { at: KeyPath; values: string[] }[];
  /** `ifAbsent`: only where the user set nothing (their own choice stands). */
  values: { at: KeyPath; value: unknown; ifAbsent?: boolean }[];
}

export interface OursRecord {
  /** What we added to each list (values the user had already are not ours). */
  lists: { at: KeyPath; values: string[] }[];
  /** What we set, and what the user had there before (`had: false`: nothing). */
  values: { at: KeyPath; value: unknown; had: boolean; prior?: unknown }[];
}

export const NO_OURS: OursRecord = { lists: [], values: [] };

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function get(root: Json, at: KeyPath): unknown {
  let cur: unknown = root;
  for (const k of at) cur = isObj(cur) ? cur[k] : undefined;
  return cur;
}

/** Sets (or with `undefined` deletes) a value, creating objects on the way, dropping ones left empty. */
function set(root: Json, at: KeyPath, value: unknown): void {
  const parents: Json[] = [root];
  let cur = root;
  for (const k of at.slice(0, -1)) {
    if (!isObj(cur[k])) {
      if (value === undefined) return;
      cur[k] = {};
    }
    cur = cur[k] as Json;
    parents.push(cur);
  }
  const last = at[at.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  for (let i = parents.length - 1; i > 0; i--) if (Object.keys(parents[i]!).length === 0) delete parents[i - 1]![at[i - 1]!];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Takes our previous entries out, then puts `want` in; returns the new settings and the new record. */
export function applyOurs(settings: Json, want: Want, previous: OursRecord = NO_OURS): { settings: Json; ours: OursRecord } {
  const out = structuredClone(settings);
  for (const l of previous.lists) {
    const cur = get(out, l.at);
    if (!Array.isArray(cur)) continue;
    const left = cur.filter((v) => !l.values.includes(v as string));
    set(out, l.at, left.length ? left : undefined);
  }
  // A value the user changed since we set it is theirs now: left alone.
  for (const v of [...previous.values].reverse()) if (same(get(out, v.at), v.value)) set(out, v.at, v.had ? v.prior : undefined);
  const ours: OursRecord = { lists: [], values: [] };
  for (const l of want.lists) {
    const cur = get(out, l.at);
    const user = Array.isArray(cur) ? cur : [];
    const added = [...new Set(l.values)].filter((v) => !user.includes(v));
    if (added.length === 0) continue;
    set(out, l.at, [...user, ...added]);
    ours.lists.push({ at: l.at, values: added });
  }
  for (const v of want.values) {
    const cur = get(out, v.at);
    if (v.ifAbsent && cur !== undefined) continue;
    ours.values.push({ at: v.at, value: v.value, had: cur !== undefined, ...(cur !== undefined && { prior: cur }) });
    set(out, v.at, v.value);
  }
  return { settings: out, ours };
}
