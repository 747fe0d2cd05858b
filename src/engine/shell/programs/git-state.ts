// git subcommand → the git state it discards (what the snapshot step keeps before it runs).
// Read beside git.ts, which parses the subcommand's options and calls gitStateOf.
import type { GitStateEffect } from "../../undo/types";
import { has, valuesOf, type ParsedArgs } from "../options";
import { known, type Arg } from "../words";

type Effect = { kind: "worktree" } | { kind: "head"; mode?: "soft" | "mixed" } | { kind: "branches"; names: string[] } | { kind: "stashes" } | { kind: "remote-tip"; remote?: string; refs: string[] };
type Row = (p: ParsedArgs, operands: readonly Arg[]) => Effect[];

const WORKTREE: Effect = { kind: "worktree" };
/** The checked-out branch's position: a reset or a rebase moves it, and the commits it leaves go unreachable. */
const HEAD: Effect = { kind: "head" };
const names = (args: readonly (Arg | undefined)[]) => args.filter((a): a is Arg => !!a && known(a)).map((a) => a.value!.replace(/^refs\/heads\//, ""));
const branches = (args: readonly (Arg | undefined)[]): Effect[] => {
  const n = names(args);
  return n.length ? [{ kind: "branches", names: n }] : [];
};

/**
 * `git reset [<commit>] [--] [paths]`: a first operand other than HEAD may name a commit (a path
 * operand only costs a snapshot of the position, which restore then finds unchanged).
 */
const movesHead = (ops: readonly Arg[]) => {
  const first = ops[0];
  return !!first && (!known(first) || first.value !== "HEAD");
};

const TABLE: Record<string, Row> = {
  // --hard, --merge and --keep rewrite the work tree; --soft/--mixed keep it (only HEAD/index move).
  // A reset to a commit (HEAD~1, origin/main) moves the branch: its old position is kept too.
  // --soft leaves the index and the work tree; --mixed (the default) rewrites the index, so it is
  // kept too (the WORKTREE snapshot holds the index's tree).
  reset: (p, ops) => {
    if (has(p, "hard", "merge", "keep")) return [WORKTREE, ...(movesHead(ops) ? [HEAD] : [])];
    if (!movesHead(ops)) return [];
    return has(p, "soft") ? [{ kind: "head", mode: "soft" }] : [WORKTREE, { kind: "head", mode: "mixed" }];
  },
  rebase: () => [HEAD],
  // `git checkout PATH`, `-- paths`, `-f`: work tree content is overwritten; a plain branch switch
  // refuses to, but an operand may be a path, so any operand counts. `-B B` moves branch B.
  checkout: (p, ops) => [...(ops.length > 0 || has(p, "f", "force") || p.doubleDash >= 0 ? [WORKTREE] : []), ...branches(valuesOf(p, "B"))],
  restore: () => [WORKTREE],
  clean: (p) => (has(p, "f", "force") ? [WORKTREE] : []),
  switch: (p) => [...(has(p, "discard-changes", "f", "force") ? [WORKTREE] : []), ...branches(valuesOf(p, "C", "force-create"))],
  rm: () => [WORKTREE],
  mv: () => [WORKTREE],
  stash: (_p, ops) => (["drop", "clear", "pop"].includes(ops[0]?.value ?? "") ? [{ kind: "stashes" }] : []),
  branch: (p, ops) => {
    if (has(p, "d", "D", "delete")) return branches(ops);
    // -f B [start], -M/-C A B, -m/-c --force A B: B's old tip is lost.
    if (has(p, "M", "C") || (has(p, "f", "force") && has(p, "m", "move", "c", "copy"))) return branches([ops[ops.length - 1]]);
    return has(p, "f", "force") ? branches([ops[0]]) : [];
  },
  "update-ref": (p, ops) => (has(p, "d") ? branches([ops[0]]) : []),
  push: (p, ops) => {
    const plus = ops.some((a) => known(a) && a.value.startsWith("+"));
    const deletes = has(p, "d", "delete") || ops.slice(1).some((a) => known(a) && /^:[^:]/.test(a.value));
    if (!plus && !deletes && !has(p, "f", "force", "force-with-lease", "mirror")) return [];
    const [remote, ...refs] = names(ops);
    // `src:dst` pushes to dst; `+b` forces b; `:b` deletes b.
    return [{ kind: "remote-tip", ...(remote && { remote }), refs: refs.map((r) => r.replace(/^\+/, "").replace(/^[^:]*:/, "").replace(/^refs\/heads\//, "")) }];
  },
};

/** Subcommands whose `-n` means --dry-run (nothing is discarded). */
const DRY_RUN = new Set(["clean", "rm", "mv", "push"]);

/** What `git <sub>` discards, in the work tree at `repo`. */
export function gitStateOf(sub: string, p: ParsedArgs, operands: readonly Arg[], repo: string): GitStateEffect[] {
  const row = Object.hasOwn(TABLE, sub) ? TABLE[sub] : undefined;
  if (!row || (DRY_RUN.has(sub) && has(p, "n", "dry-run"))) return [];
  const via = `git ${sub}`;
  return row(p, operands).map((e) => located(e, repo, via));
}

/**
 * `{ ...e, repo, via }` written out per kind (the same members in the same order): a spread of
 * objects of four shapes is the engine's slow generic copy.
 */
function located(e: Effect, repo: string, via: string): GitStateEffect {
  switch (e.kind) {
    case "worktree":
    case "stashes":
      return { kind: e.kind, repo, via };
    case "head":
      return e.mode ? { kind: e.kind, mode: e.mode, repo, via } : { kind: e.kind, repo, via };
    case "branches":
      return { kind: e.kind, names: e.names, repo, via };
    case "remote-tip":
      return "remote" in e ? { kind: e.kind, remote: e.remote, refs: e.refs, repo, via } : { kind: e.kind, refs: e.refs, repo, via };
  }
}
