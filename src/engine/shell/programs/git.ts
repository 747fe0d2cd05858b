// git: global options are dropped from the text (`git -C dir -c k=v --no-pager reset --hard` is
// `git reset --hard`), but `-C`/`--work-tree` still move where pathspecs resolve. The subcommand is
// part of the head, so variants move flags after it. Commit/tag messages are data. Effects:
// `git rm` deletes, `git mv` moves, `git restore`/`checkout -- paths` overwrite the work tree,
// `git clean -f` deletes, `git reset --hard` overwrites everything below the work tree.
// A push of `+ref` is a force push: it is also presented as `git push --force … ref`.
import { resolvePath } from "../../paths";
import { has, parseOptions, valuesOf, type OptionSpec, type ParsedArgs } from "../options";
import type { Handler, Invocation, RunResult } from "../runner";
import { identityCode, sliceCode } from "../code";
import { known, shapedArg, syntheticArg, type Arg } from "../words";
import { DATA } from "../normalize";
import { mentionAll, present, shown, subArg } from "./common";
import { gitStateOf } from "./git-state";

const GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--attr-source", "--list-cmds"]);
const GLOBAL_FLAGS = /^(--no-pager|-p|--paginate|-P|--bare|--no-replace-objects|--literal-pathspecs|--glob-pathspecs|--noglob-pathspecs|--icase-pathspecs|--no-optional-locks|--no-lazy-fetch|--no-advice)$/;

/** Options of subcommands that take a value (so the value is not taken for a pathspec). */
const SUB_SPECS: Record<string, OptionSpec> = {
  commit: { shortWithValue: "mFcCt", longWithValue: ["message", "file", "reuse-message", "reedit-message", "fixup", "squash", "author", "date", "template", "trailer", "cleanup", "pathspec-from-file"] },
  tag: { shortWithValue: "mFu", longWithValue: ["message", "file", "local-user"] },
  restore: { shortWithValue: "s", longWithValue: ["source", "pathspec-from-file"] },
  checkout: { shortWithValue: "bB", longWithValue: ["orphan", "conflict", "pathspec-from-file"] },
  switch: { shortWithValue: "cC", longWithValue: ["create", "force-create", "orphan", "conflict"] },
  rm: { longWithValue: ["pathspec-from-file"] },
  mv: {},
  clean: { shortWithValue: "e", longWithValue: ["exclude"] },
  push: { shortWithValue: "o", longWithValue: ["push-option", "repo", "receive-pack", "exec"] },
  stash: { shortWithValue: "m", longWithValue: ["message"] },
  reset: { longWithValue: ["pathspec-from-file"] },
  log: { shortWithValue: "SGn", longWithValue: ["grep", "author", "committer", "format", "pretty", "since", "until"] },
  notes: { shortWithValue: "mFC", longWithValue: ["message", "file"] },
  prune: { longWithValue: ["expire"] },
  reflog: { longWithValue: ["expire", "expire-unreachable"] },
  "symbolic-ref": { shortWithValue: "m" },
};
/** Long options of the subcommands whose destructive options the patterns name. */
const LONG_OPTIONS: Record<string, string[]> = {
  reset: ["hard", "soft", "mixed", "merge", "keep", "quiet", "no-quiet", "patch", "pathspec-from-file", "pathspec-file-nul", "recurse-submodules", "no-recurse-submodules", "intent-to-add", "refresh", "no-refresh"],
  clean: ["force", "dry-run", "quiet", "exclude", "interactive"],
  stash: ["quiet", "index", "patch", "keep-index", "no-keep-index", "include-untracked", "all", "message", "staged", "pathspec-from-file"],
  branch: ["delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet", "track", "no-track", "set-upstream-to", "unset-upstream", "contains", "no-contains", "merged", "no-merged", "show-current", "create-reflog", "edit-description", "column", "sort", "points-at", "format", "ignore-case", "omit-empty", "abbrev", "no-abbrev", "color", "no-color"],
  restore: ["source", "staged", "worktree", "patch", "quiet", "progress", "no-progress", "ours", "theirs", "merge", "conflict", "ignore-unmerged", "ignore-skip-worktree-bits", "recurse-submodules", "no-recurse-submodules", "overlay", "no-overlay", "pathspec-from-file", "pathspec-file-nul"],
};

function expandLong(a: Arg, names: readonly string[]): Arg {
  if (!known(a) || !/^--[a-z]/.test(a.value)) return a;
  const eq = a.value.indexOf("=");
  const body = a.value.slice(2, eq < 0 ? undefined : eq);
  if (names.includes(body)) return a;
  const matches = names.filter((n) => n.startsWith(body));
  if (matches.length !== 1) return a;
  const value = "--" + matches[0] + (eq < 0 ? "" : a.value.slice(eq));
  return shapedArg({ ...a, value, text: value });
}

/** Subcommands whose `-n` means --dry-run. */
const DRY_RUN_SUBCOMMANDS = new Set(["clean", "rm", "mv", "add", "push"]);
/** Option values that are messages: data, never commands. */
// Messages and searched text (`git log -S 'rm -rf'`, `-G 'DROP TABLE'`) are data.
const MESSAGE_OPTIONS = new Set(["m", "message", "grep", "author", "committer", "format", "pretty", "S", "G"]);

const git: Handler = (inv, r): RunResult | void => {
  const args = inv.args;
  let i = 0;
  let cwd = inv.scope.cwd;
  const aliases = new Map<string, Arg>();
  const resolveDir = (d: Arg) => (known(d) && cwd !== undefined ? resolvePath(d.value, { cwd, home: inv.scope.home }) : undefined);
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (v === undefined) break;
    if (GLOBAL_FLAGS.test(v)) continue;
    const eq = v.indexOf("=");
    const name = eq > 0 ? v.slice(0, eq) : v;
    if (GLOBAL_WITH_VALUE.has(name)) {
      const value = eq > 0 ? syntheticArg(v.slice(eq + 1), args[i].span) : args[++i];
      if (!value) break;
      if (name === "-C") cwd = resolveDir(value);
      // `-c alias.nuke='reset --hard'`: the alias is the command it stands for.
      if (name === "-c" && known(value)) {
        const m = /^alias\.([^=]+)=/i.exec(value.value);
        if (m) aliases.set(m[1], syntheticArg(value.value.slice(m[0].length), value.span, value.code ? sliceCode(value.code, m[0].length) : undefined));
      }
      if (name === "--work-tree") cwd = resolveDir(value);
      if (name === "--git-dir" || name === "--work-tree") mentionAll(inv, r, [value]);
      continue;
    }
    break;
  }
  // Aliases from the environment: GIT_CONFIG_COUNT=n with GIT_CONFIG_KEY_k/GIT_CONFIG_VALUE_k.
  const count = inv.scope.get("GIT_CONFIG_COUNT");
  if (count.kind === "literal" && /^\d{1,2}$/.test(count.value)) {
    for (let k = 0; k < Number(count.value); k++) {
      const key = inv.scope.get(`GIT_CONFIG_KEY_${k}`);
      const val = inv.scope.get(`GIT_CONFIG_VALUE_${k}`);
      const m = key.kind === "literal" ? /^alias\.(.+)$/i.exec(key.value) : null;
      if (m && val.kind === "literal") aliases.set(m[1], syntheticArg(val.value, inv.span));
    }
  }
  let sub = args[i];
  let rest = args.slice(i + 1);
  // Aliases set by an earlier `git config alias.X …` in the same command line.
  const configured = sub && known(sub) ? inv.scope.get(`gitalias ${sub.value}`) : undefined;
  if (configured?.kind === "literal" && !aliases.has(sub.value!)) aliases.set(sub.value!, syntheticArg(configured.value, inv.span));
  const alias = sub && known(sub) ? aliases.get(sub.value) : undefined;
  if (alias && known(alias)) {
    if (alias.value.startsWith("!")) {
      // A shell alias: its text runs in a shell, with the remaining words as arguments.
      const code = alias.code ? sliceCode(alias.code, 1) : identityCode(alias.value.slice(1), alias.span.start);
      r.runCode(code, inv.scope, inv.stdin, inv.depth + 1, "a git shell alias");
      return;
    }
    const words = alias.value.split(/\s+/).filter(Boolean).map((w) => syntheticArg(w, alias.span));
    if (words.length) {
      sub = words[0];
      rest = [...words.slice(1), ...rest];
    }
  }
  const scope = cwd === inv.scope.cwd ? inv.scope : Object.assign(inv.scope.fork(), { cwd });
  const at = { scope };
  if (!sub || !known(sub)) {
    r.emit(inv, { head: ["git"], args: args.slice(i).map(shown) });
    return;
  }
  const name = sub.value;
  // git takes any unambiguous prefix of a long option (`git reset --har`): written in full.
  // Own names only: `git constructor` is no subcommand of ours.
  const longs = Object.prototype.hasOwnProperty.call(LONG_OPTIONS, name) ? LONG_OPTIONS[name] : undefined;
  if (longs) rest = rest.map((a) => expandLong(a, longs));
  const p = parseOptions(rest, (Object.prototype.hasOwnProperty.call(SUB_SPECS, name) ? SUB_SPECS[name] : undefined) ?? {});
  // `-m MSG` hides MSG; `--message=MSG` / `-mMSG` hide the whole word.
  const data = new Set<Arg>();
  for (const o of p.options) {
    if (!o.value || !MESSAGE_OPTIONS.has(o.name)) continue;
    data.add(o.value);
    if (!rest.includes(o.value)) data.add(o.arg);
  }
  if (name === "grep") data.add(p.operands[0]);
  if (name === "stash" && ["save"].includes(p.operands[0]?.value ?? "")) for (const m of p.operands.slice(1)) data.add(m);

  const extra: string[][] = [];
  if (name === "push") {
    // `+refspec` forces that ref: the same as --force for the patterns.
    const forced = rest.some((a) => known(a) && /^\+[^+]/.test(a.value));
    // `--force-if-includes` only tightens `--force-with-lease`: it forces nothing by itself.
    for (const a of rest) if (known(a) && /^--(no-)?force-if-includes$/.test(a.value)) data.add(a);
    if (forced) extra.push(["--force", ...rest.map((a) => (known(a) && a.value.startsWith("+") ? a.value.slice(1) : shown(a)))]);
    // `--mirror` force-updates and deletes every remote ref to match the local ones.
    if (rest.some((a) => a.value === "--mirror")) extra.push(["--force", ...rest.filter((a) => a.value !== "--mirror").map(shown)]);
  }
  if (name === "branch" && has(p, "d", "delete") && has(p, "f", "force")) {
    // `--delete --force` (`-df`, `-d -f`) is git's own spelling of `-D`.
    extra.push(["-D", ...rest.filter((a) => !(known(a) && /^(-[df]+|--delete|--force)$/.test(a.value))).map(shown)]);
  }
  const whole = (a: Arg) => known(a) && !a.value.startsWith("-") && (/^:(\/|\(top\))\.?$/.test(a.value) || (scope.cwd !== undefined && resolvePath(a.value, { cwd: scope.cwd, home: scope.home }) === scope.cwd));
  if (name === "checkout" || name === "restore") {
    // A pathspec naming the whole tree (`./`, `:/`, `$PWD`) is `.`; `git checkout .` is
    // `git checkout -- .` (an operand that is the work tree cannot be a branch).
    const ops = p.operands.filter((a) => !data.has(a));
    if (ops.some(whole)) {
      const shownArgs = rest.map((a) => (ops.includes(a) && whole(a) ? "." : shown(a)));
      extra.push(shownArgs);
      if (name === "checkout" && p.doubleDash < 0) {
        extra.push([...rest.filter((a) => !ops.includes(a) || !whole(a)).map(shown), "--", "."]);
      }
    }
  }
  // `--source HEAD~2` is also written `--source=HEAD~2` (and `-s X` as `-sX`), so moving flags
  // around cannot leave the option's value where a pathspec would be (`git restore --source X .`).
  // A short option is not joined to a value of letters only: `-bfeature` would read as the flags
  // -b -f -e … (a `-f` that was never written).
  const separate = p.options.filter((o) => o.value && o.value !== o.arg && rest.includes(o.value) && !data.has(o.value) && known(o.value) && (o.arg.value!.startsWith("--") || !/^[A-Za-z]+$/.test(o.value.value)));
  if (separate.length) {
    const joined = new Map(separate.map((o) => [o.arg, o.arg.value!.startsWith("--") ? `${o.arg.value}=${o.value!.value}` : `${o.arg.value}${o.value!.value}`]));
    const values = new Set(separate.map((o) => o.value!));
    extra.push(rest.filter((a) => !values.has(a)).map((a) => joined.get(a) ?? (data.has(a) ? DATA : shown(a))));
  }
  // `git restore --staged` (without --worktree) only touches the index: no reordering variant may
  // make it look like `git restore .`.
  const worktree = name !== "restore" || !has(p, "S", "staged") || has(p, "W", "worktree");
  // A dry run removes nothing: its flag is written `-n`, first, and the order is kept, so a pattern
  // for the real thing (`git clean -f`/`-d`) does not see `-d` of `git clean -nd` as a deletion.
  const dryRun = DRY_RUN_SUBCOMMANDS.has(name) && has(p, "n", "dry-run");
  const presented = dryRun
    ? { head: ["git", name, "-n"], args: rest.filter((a) => !["-n", "--dry-run"].includes(a.value ?? "")).map((a) => (data.has(a) ? DATA : a.value === undefined ? a.text : /^-[A-Za-z]*n[A-Za-z]*$/.test(a.value) ? a.value.replace("n", "") : a.value)).filter((a) => a !== "-"), fixedOrder: true }
    : present(["git", name], rest, data, extra);
  if (!worktree) presented.fixedOrder = true;
  r.emit(inv, presented);

  const operands = p.operands.filter((a) => !data.has(a));
  if (scope.cwd !== undefined) for (const e of gitStateOf(name, p, operands, scope.cwd)) r.sink.gitState(e);
  // Ref destroyers, shown as the command they amount to so its rule judges them.
  // A dry run (`git push -n --delete`) deletes nothing on the remote.
  if (name === "push" && !has(p, "n", "dry-run")) {
    // `git push origin --delete b` / `git push origin :b` deletes branch b on the remote, unchecked.
    const del = has(p, "d", "delete");
    const gone = p.operands
      .slice(1)
      .filter((a) => known(a) && (del || /^:[^:]+$/.test(a.value)))
      .map((a) => a.value!.replace(/^:/, ""))
      .filter((b) => !/^(refs\/tags\/|tags\/)/.test(b) && !has(p, "tags"));
    if (gone.length) r.emitText(["git", "branch", "-D", ...gone].join(" "), inv.span);
  }
  // A branch moved by force loses the commits only it reached, as a deleted one does.
  const overwritten = forcedBranch(name, p, operands);
  if (overwritten && known(overwritten)) r.emitText(`git branch -D ${overwritten.value}`, inv.span);
  if (name === "update-ref" && has(p, "d")) r.emitText(["git", "branch", "-D", ...operands.map((a) => shown(a).replace(/^refs\/heads\//, ""))].join(" "), inv.span);
  // Plumbing that discards work (issue 36, family 8), shown as the porcelain it amounts to.
  const plumbing = plumbingAsPorcelain(name, p, operands);
  if (plumbing) r.emitText(plumbing, inv.span);
  if (name === "reflog" && operands[0]?.value === "expire") {
    // Expiring every reflog entry now (with --all, or refs/stash) drops the stash entries for good.
    const now = rest.some((a) => known(a) && /^--expire(-unreachable)?=(now|all|0)$/.test(a.value));
    if (now && rest.some((a) => a.value === "--all" || a.value === "refs/stash" || a.value === "stash")) r.emitText("git stash clear", inv.span);
  }
  switch (name) {
    case "rm":
      if (!has(p, "cached", "n", "dry-run")) {
        for (const a of operands) r.path(at, a, "delete", has(p, "r"), "git rm");
        // `git rm -r` deletes the tree from the work tree too: the recursive rm it amounts to.
        if (has(p, "r")) r.emitText(["rm", "-r", ...(has(p, "f", "force") ? ["-f"] : []), ...operands.map(shown)].join(" "), inv.span);
      }
      break;
    case "mv": {
      const dest = operands[operands.length - 1];
      for (const a of operands.slice(0, -1)) r.path(at, a, "delete", true, "git mv");
      if (dest && operands.length > 1) r.path(at, dest, "write", false, "git mv onto");
      break;
    }
    // restore / checkout -- / reset --hard put back committed content: they are judged by the git
    // patterns (ask / block). The paths they name are overwritten (not what is below them, which
    // would make `git restore .` a read-only block): `git checkout main -- PLAN.md` writes PLAN.md.
    case "restore":
      if (worktree) for (const a of operands) if (!whole(a)) r.path(at, a, "write", false, "git restore");
      break;
    case "checkout":
      if (p.doubleDash >= 0) for (const a of rest.slice(p.doubleDash + 1)) if (!data.has(a) && !whole(a)) r.path(at, a, "write", false, "git checkout --");
      break;
    case "reset":
      break;
    case "config": {
      // `git config [--global] alias.X 'reset --hard'`: later `git X` in this line runs it.
      const ops = operands.filter(known);
      const at0 = ops.findIndex((a) => /^alias\./i.test(a.value));
      if (at0 >= 0 && ops[at0 + 1]) inv.scope.set(`gitalias ${ops[at0].value.slice(6)}`, { kind: "literal", value: ops[at0 + 1].value });
      mentionAll({ ...inv, scope }, r, operands);
      break;
    }
    case "clean":
      if (has(p, "f", "force") && !has(p, "n", "dry-run")) {
        if (operands.length) for (const a of operands) r.path(at, a, "delete", true, "git clean");
        else if (scope.cwd !== undefined) r.sink.effect(scope.cwd, "delete", true, inv.span, "git clean -f");
      }
      break;
    case "ls-files":
    case "ls-tree":
      return { stdout: { kind: "under", dirs: scope.cwd !== undefined ? [scope.cwd] : [] } };
    case "diff":
      if (has(p, "name-only", "name-status")) return { stdout: { kind: "under", dirs: scope.cwd !== undefined ? [scope.cwd] : [] } };
      mentionAll({ ...inv, scope }, r, operands);
      break;
    default:
      mentionAll({ ...inv, scope }, r, operands);
      // `git show HEAD:.env`, `git cat-file -p main:config/.env`: REV:PATH names PATH in the tree.
      for (const a of operands) {
        const m = known(a) && !a.value.startsWith("-") && !/^[a-z][a-z0-9+.-]*:\/\//i.test(a.value) ? /^[^:\s]*:(?!\/\/)(.+)$/.exec(a.value) : null;
        if (m && m[1] !== "") r.path(at, subArg(a, m[1].replace(/^\.\//, "")), "read", false, `git ${name}`);
      }
  }
  return;
};

/**
 * The branch a command resets or overwrites by force: `git branch -f B [start]`, `git branch -M|-C
 * A B` (or -m/-c with --force: B is overwritten), `git checkout -B B`, `git switch -C B`.
 */
function forcedBranch(sub: string, p: ParsedArgs, operands: readonly Arg[]): Arg | undefined {
  if (sub === "checkout") return valuesOf(p, "B")[0];
  if (sub === "switch") return valuesOf(p, "C", "force-create")[0];
  if (sub !== "branch" || has(p, "d", "D", "delete") || operands.length === 0) return undefined;
  const force = has(p, "f", "force");
  // `git branch -M NEW` renames the current branch (issue 36: everyday); naming both overwrites the second.
  if (has(p, "M") && operands.length === 1 && !force) return undefined;
  if (has(p, "M", "C") || (force && has(p, "m", "move", "c", "copy"))) return operands[operands.length - 1];
  return force ? operands[0] : undefined;
}

/**
 * Low-level commands that rewrite the index and worktree, move refs or prune a remote: the
 * porcelain command each amounts to, so that command's rule judges it.
 */
function plumbingAsPorcelain(sub: string, p: ParsedArgs, operands: readonly Arg[]): string | undefined {
  // `read-tree -u --reset|-m TREE`: the worktree is overwritten with TREE, as `reset --hard` does.
  if (sub === "read-tree" && has(p, "u") && (has(p, "reset") || has(p, "m"))) return "git reset --hard";
  // `checkout-index -f -a` (or named paths): the index's copies overwrite the worktree's changes.
  if (sub === "checkout-index" && has(p, "f", "force")) return has(p, "a", "all") ? "git checkout -- ." : `git checkout -- ${operands.map(shown).join(" ")}`;
  // `update-ref refs/heads/B NEW`: B moved, the commits only it reached lost, as a forced branch is.
  // (To HEAD it is a bookmark of where you are: `update-ref refs/heads/backup HEAD`.)
  if (sub === "update-ref" && !has(p, "d") && operands.length >= 2 && known(operands[0]) && /^refs\/heads\//.test(operands[0].value) && operands[1].value !== "HEAD") return `git branch -D ${operands[0].value.slice(11)}`;
  // `filter-branch`/`filter-repo`: every branch's history rewritten; the commits only the old history reached are lost.
  if ((sub === "filter-branch" || sub === "filter-repo") && !has(p, "dry-run", "analyze")) return "git branch -D (every branch rewritten)";
  // Unreachable objects deleted now (`gc --prune=now`, `prune` without an --expire, `reflog expire
  // --expire=now --all`): the commits of a dropped stash, a deleted branch or a rewritten history,
  // which the reflog and `git fsck --lost-found` bring back for weeks, are gone (issue 36).
  if (sub === "gc" && valuesOf(p, "prune").some(pruneNow)) return "git prune --expire=now";
  if (sub === "prune" && !has(p, "n", "dry-run") && (valuesOf(p, "expire").length === 0 || valuesOf(p, "expire").some(pruneNow))) return "git prune --expire=now";
  if (sub === "reflog" && operands[0]?.value === "expire" && !has(p, "n", "dry-run") && valuesOf(p, "expire", "expire-unreachable").some(pruneNow)) return "git prune --expire=now";
  // `symbolic-ref HEAD refs/heads/X` points HEAD at another branch and leaves the index and the
  // worktree as they are (the next commit lands on X with this branch's content); `-d HEAD`
  // deletes HEAD: shown as the HEAD move it is. (`symbolic-ref HEAD` / `--short HEAD` only read it.)
  if (sub === "symbolic-ref" && operands[0]?.value === "HEAD" && (operands.length >= 2 || has(p, "d", "delete"))) return `git symbolic-ref --move HEAD ${operands[1] ? shown(operands[1]) : "(deleted)"}`;
  // `worktree remove --force`: the worktree's uncommitted changes go with it.
  if (sub === "worktree" && operands[0]?.value === "remove" && has(p, "f", "force")) return "git checkout -f";
  return undefined;
}

/** An expiry that is now: `now`, `all`, `0` (git's approxidate for "no grace period"). */
const pruneNow = (a: Arg) => known(a) && /^(now|all|0)$/i.test(a.value);

export function gitHandlers(): Record<string, Handler> {
  return { git };
}
export type { Invocation };
