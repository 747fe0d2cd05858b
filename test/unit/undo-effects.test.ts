// What a call would destroy, per effect family (engine, pure): the facts the snapshot step keeps.
import * as assert from "node:assert/strict";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import { analyzePowerShell } from "../../src/engine/powershell/analyze";
import { normalizeToolCall } from "../../src/engine/toolcall";
import { destroysOf } from "../../src/engine/undo/destroys";
import { decide, type Seen } from "../../src/engine/decide";
import { defaultRules } from "../../src/engine/rules/defaults";

const ctx = { cwd: "/w", home: "/home/u", root: "/w" };
const bash = (c: string) => destroysOf(normalizeToolCall({ tool: "Bash", input: { command: c } }), analyzeCommand(c, ctx), ctx);
const files = (c: string) => bash(c)?.files.map((f) => `${f.how} ${f.path}${f.recursive ? " -r" : ""}`) ?? [];
const git = (c: string) => bash(c)?.git.map((g) => [g.kind, ...("names" in g ? g.names : []), ...("refs" in g ? g.refs : [])].join(" ")) ?? [];

describe("undo: what a call destroys", () => {
  it("deletes unlink (a hard link keeps them)", () => {
    assert.deepEqual(files("rm -r data"), ["unlinks /w/data -r"]);
    assert.deepEqual(files("unlink a.txt"), ["unlinks /w/a.txt"]);
    assert.deepEqual(files("find logs -name '*.log' -delete").filter((f) => f.startsWith("unlinks /w/logs")), ["unlinks /w/logs -r"]);
    assert.deepEqual(files("python3 -c 'import shutil; shutil.rmtree(\"data\")'"), ["unlinks /w/data -r"]);
  });

  it("renames over the target unlink it; rewriting the same inode needs a copy", () => {
    assert.deepEqual(files("mv a.txt b.txt"), ["unlinks /w/a.txt -r", "unlinks /w/b.txt"]);
    assert.deepEqual(files("sed -i s/a/b/ notes.md"), ["unlinks /w/notes.md"]);
    assert.deepEqual(files("echo x > notes.md"), ["in-place /w/notes.md"]);
    assert.deepEqual(files("cp new.txt old.txt"), ["in-place /w/old.txt"]);
    assert.deepEqual(files("truncate -s 0 big.log"), ["in-place /w/big.log"]);
    assert.deepEqual(files("shred -u key.pem"), ["in-place /w/key.pem"]);
  });

  it("appends, new folders, permissions and reads destroy nothing: no facts at all", () => {
    for (const c of ["echo x >> notes.md", "mkdir -p a/b", "touch x", "chmod 644 x", "cat a b | grep c", "ls -la", "git status", "git checkout -b feature"]) assert.equal(bash(c), undefined, c);
  });

  it("temp scratch is not kept; regenerable output is marked, for the core to keep only when git says it holds work", () => {
    // Behaviour change (issue 37): regenerable names are no longer dropped here, but marked; the
    // core keeps them only when they hold uncommitted or not-ignored files (core/snapshots/regenerable.ts).
    const marked = (c: string) => bash(c)?.files.filter((f) => !f.regenerable).map((f) => `${f.how} ${f.path}${f.recursive ? " -r" : ""}`) ?? [];
    const regen = (c: string) => bash(c)?.files.filter((f) => f.regenerable).map((f) => f.path) ?? [];
    assert.deepEqual(marked("rm -rf node_modules dist"), []);
    assert.deepEqual(regen("rm -rf node_modules dist"), ["/w/node_modules", "/w/dist"]);
    assert.equal(bash("rm -rf /tmp/scratch-1"), undefined);
    assert.deepEqual(marked("rm -rf dist src"), ["unlinks /w/src -r"]);
    // Regenerable files by kind too, as the defaults' regenerable carve-out counts them (kinds.ts).
    assert.deepEqual(marked("rm app/cache.pyc .DS_Store"), []);
    assert.deepEqual(regen("rm app/cache.pyc .DS_Store"), ["/w/app/cache.pyc", "/w/.DS_Store"]);
    assert.deepEqual(marked("rm app/cache.pyc app/main.py"), ["unlinks /w/app/main.py"]);
  });

  it("PowerShell's Remove-Item and redirection", () => {
    const ps = (c: string) => destroysOf(normalizeToolCall({ tool: "PowerShell", input: { command: c } }), analyzePowerShell(c, ctx), ctx)?.files.map((f) => `${f.how} ${f.path}`);
    assert.deepEqual(ps("Remove-Item -Recurse data"), ["unlinks /w/data"]);
    assert.deepEqual(ps("'x' > notes.md"), ["in-place /w/notes.md"]);
  });

  it("Write/Edit and MCP file tools over a file", () => {
    // As the guard asks: the facts come from what deciding computed (an MCP call's analysis of its arguments).
    const tool = (name: string, input: object) => {
      const seen: Seen = {};
      decide({ tool: name, input }, defaultRules(), ctx, "claude", seen);
      return destroysOf(seen.norm ?? normalizeToolCall({ tool: name, input }, "claude"), seen.analysis, ctx)?.files.map((f) => `${f.how} ${f.path}`);
    };
    assert.deepEqual(tool("Write", { file_path: "/w/a.ts", content: "x" }), ["in-place /w/a.ts"]);
    assert.deepEqual(tool("Edit", { file_path: "/w/a.ts", old_string: "a", new_string: "b" }), ["in-place /w/a.ts"]);
    assert.deepEqual(tool("mcp__fs__delete_file", { path: "/w/a.ts" }), ["unlinks /w/a.ts"]);
    assert.equal(tool("Read", { file_path: "/w/a.ts" }), undefined);
  });

  it("git state: uncommitted changes, branch tips, stashes, the remote's tip", () => {
    assert.deepEqual(git("git reset --hard"), ["worktree"]);
    // Behaviour change (issue 37): a reset to a commit moves the branch; its old position is kept.
    assert.deepEqual(git("git reset --soft HEAD~1"), ["head"]);
    assert.deepEqual(git("git reset --hard HEAD~1"), ["worktree", "head"]);
    // --mixed (the default) rewrites the index: it is kept with the position.
    assert.deepEqual(git("git reset HEAD~1"), ["worktree", "head"]);
    assert.deepEqual(git("git reset --hard HEAD"), ["worktree"]);
    assert.deepEqual(git("git rebase main"), ["head"]);
    assert.deepEqual(git("git -C sub checkout -- a.txt"), ["worktree"]);
    assert.equal(bash("git -C sub checkout -- a.txt")!.git[0].repo, "/w/sub");
    assert.deepEqual(git("git restore ."), ["worktree"]);
    assert.deepEqual(git("git clean -fd"), ["worktree"]);
    assert.deepEqual(git("git clean -n"), []);
    assert.deepEqual(git("git switch --discard-changes main"), ["worktree"]);
    assert.deepEqual(git("git stash drop"), ["stashes"]);
    assert.deepEqual(git("git stash clear"), ["stashes"]);
    assert.deepEqual(git("git branch -D old"), ["branches old"]);
    assert.deepEqual(git("git branch -f main HEAD~3"), ["branches main"]);
    assert.deepEqual(git("git checkout -B main"), ["branches main"]);
    assert.deepEqual(git("git push --force origin main"), ["remote-tip main"]);
    assert.deepEqual(git("git push origin +main"), ["remote-tip main"]);
    assert.deepEqual(git("git push origin main"), []);
    // git's own path effects are kept as git state, not as files (clean -f would name the whole tree).
    assert.deepEqual(bash("git clean -f")!.files, []);
  });
});
