// The snapshot store, taking and restoring, on real temp folders and real git repositories.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { analyzeCommand } from "../../src/engine/shell/analyze";
import { normalizeToolCall } from "../../src/engine/toolcall";
import { destroysOf } from "../../src/engine/undo/destroys";
import { restoreSnapshot } from "../../src/core/snapshots/restore";
import { SnapshotStore } from "../../src/core/snapshots/store";
import { takeSnapshot } from "../../src/core/snapshots/take";
import { DEFAULT_SNAPSHOT_SETTINGS } from "../../src/core/snapshots/settings";

let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;

const sh = (c: string, cwd = ws) => execFileSync("bash", ["-c", c], { cwd, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).toString();
const snap = (command: string, settings = DEFAULT_SNAPSHOT_SETTINGS) => {
  const c = { cwd: ws, home: tmp, root: ws };
  const d = destroysOf(normalizeToolCall({ tool: "Bash", input: { command } }), analyzeCommand(command, c), c);
  assert.ok(d, `no destructive facts for ${command}`);
  return takeSnapshot(d, { agent: "cli", tool: "Bash", command, folder: ws, cwd: ws }, { env, settings });
};
const kept = (o: ReturnType<typeof snap>) => {
  assert.ok("kept" in o, JSON.stringify(o));
  return o.kept;
};
const store = () => new SnapshotStore(env);

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-undo-"));
  ws = path.join(tmp, "ws");
  fs.mkdirSync(ws);
  env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state") };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("undo: snapshots of files", () => {
  it("rm -r: hard links keep the files; restore puts back content, mode and mtime; twice changes nothing", () => {
    fs.mkdirSync(path.join(ws, "data/sub"), { recursive: true });
    fs.writeFileSync(path.join(ws, "data/a.txt"), "alpha");
    fs.writeFileSync(path.join(ws, "data/sub/run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    fs.utimesSync(path.join(ws, "data/a.txt"), new Date(1e12), new Date(1e12));
    const ino = fs.statSync(path.join(ws, "data/a.txt")).ino;
    const m = kept(snap("rm -r data"));
    assert.deepEqual(m.paths, ["data"]);
    const a = m.files.find((f) => f.path.endsWith("a.txt"))!;
    assert.equal(fs.statSync(path.join(store().folderOf(m.id), a.stored!)).ino, ino, "a hard link, not a copy");
    assert.equal((fs.statSync(store().folderOf(m.id)).mode & 0o777).toString(8), "700");
    sh("rm -r data");
    const r = restoreSnapshot(store(), m);
    assert.equal(r.conflicts.length, 0);
    assert.equal(fs.readFileSync(path.join(ws, "data/a.txt"), "utf8"), "alpha");
    assert.equal(fs.statSync(path.join(ws, "data/a.txt")).mtimeMs, 1e12);
    assert.equal(fs.statSync(path.join(ws, "data/sub/run.sh")).mode & 0o777, 0o755);
    // Put in place whole (copied under a temporary name, then linked): nothing of that is left,
    // and the restored file is not a link to the kept one.
    assert.deepEqual(fs.readdirSync(path.join(ws, "data")).sort(), ["a.txt", "sub"]);
    assert.equal(fs.statSync(path.join(ws, "data/a.txt")).nlink, 1);
    assert.notEqual(fs.statSync(path.join(ws, "data/a.txt")).ino, ino);
    const again = restoreSnapshot(store(), m);
    assert.deepEqual(again.restored, []);
    assert.equal(again.conflicts.length, 0);
  });

  it("> truncation: a copy keeps the old content; restore puts it in place and keeps the call's version beside it", () => {
    // Behaviour change (issue 37): the kept version goes in place (it used to go beside the file,
    // leaving the damage in place); what was there is moved aside, never lost.
    fs.writeFileSync(path.join(ws, "notes.md"), "old notes");
    const m = kept(snap("echo new > notes.md"));
    sh("echo new > notes.md");
    const dry = restoreSnapshot(store(), m, { dryRun: true });
    assert.deepEqual(dry.setAside.map((a) => a.keptAt), [path.join(ws, `notes.md.before-restore-${m.id}`)]);
    assert.equal(fs.readFileSync(path.join(ws, "notes.md"), "utf8"), "new\n", "a dry run writes nothing");
    const r = restoreSnapshot(store(), m);
    assert.equal(r.conflicts.length, 0);
    assert.equal(fs.readFileSync(path.join(ws, "notes.md"), "utf8"), "old notes");
    assert.equal(fs.readFileSync(path.join(ws, `notes.md.before-restore-${m.id}`), "utf8"), "new\n", "never lost");
  });

  it("a file already identical counts as restored; a new file needs no snapshot", () => {
    fs.writeFileSync(path.join(ws, "a.txt"), "same");
    const m = kept(snap("rm a.txt"));
    const r = restoreSnapshot(store(), m);
    assert.deepEqual(r.unchanged, [path.join(ws, "a.txt")]);
    assert.ok("nothing" in snap("echo x > brand-new.txt"));
  });

  it("past the size bound: not kept, too large, and nothing left in the store", () => {
    fs.writeFileSync(path.join(ws, "big.bin"), Buffer.alloc(4096));
    const o = snap("rm big.bin", { ...DEFAULT_SNAPSHOT_SETTINGS, maxCallBytes: 1000 });
    assert.deepEqual(o && "notKept" in o ? o.notKept : o, "too large");
    assert.deepEqual(store().list(), []);
  });

  it("snapshot ids taken in the same millisecond still sort in the order they were taken (the oldest is pruned first)", () => {
    const s = store();
    const ids = Array.from({ length: 200 }, () => s.create().id);
    const sameMs = ids.filter((id, i) => i > 0 && id.slice(0, 18) === ids[i - 1]!.slice(0, 18)).length;
    assert.ok(sameMs > 0, "some ids share a millisecond (else this proves nothing)");
    assert.deepEqual([...ids].sort(), ids);
  });

  it("the store drops the oldest past its bound and the old past retention; delete and clear", () => {
    fs.writeFileSync(path.join(ws, "a"), "1234567890");
    const first = kept(snap("rm a"));
    const second = kept(snap("rm a"));
    assert.deepEqual(store().prune({ maxStoreBytes: 15, retentionDays: 7 }), [first.id]);
    assert.deepEqual(store().prune({ maxStoreBytes: 1e9, retentionDays: 7 }, Date.now() + 8 * 86_400_000), [second.id]);
    kept(snap("rm a"));
    assert.equal(store().clear(), 1);
  });
});

describe("undo: snapshots of git state", () => {
  beforeEach(() => {
    sh("git init -q -b main && echo one > tracked.txt && git add . && git commit -qm init && echo '*.log' > .gitignore && git add .gitignore && git commit -qm ignore");
  });

  it("reset --hard: uncommitted edits, staged changes and untracked files come back; ignored ones are not kept", () => {
    sh("echo edited >> tracked.txt && echo staged > staged.txt && git add staged.txt && echo draft > untracked.txt && echo x > noise.log");
    const m = kept(snap("git reset --hard"));
    assert.deepEqual(m.paths, []);
    const objects = sh("git count-objects -v");
    sh("git reset --hard && rm untracked.txt");
    // Nothing of the snapshot is reachable from the repository.
    assert.equal(sh("git count-objects -v"), objects);
    assert.equal(sh(`git cat-file -e ${m.git[0].worktree!.tree} 2>&1 || echo missing`).trim().endsWith("missing"), true);
    const r = restoreSnapshot(store(), m);
    assert.deepEqual(r.conflicts, []);
    assert.equal(fs.readFileSync(path.join(ws, "tracked.txt"), "utf8"), "one\nedited\n");
    assert.equal(fs.readFileSync(path.join(ws, "untracked.txt"), "utf8"), "draft\n");
    assert.equal(sh("git diff --cached --name-only").trim(), "staged.txt");
    assert.match(sh("git status --porcelain"), /\?\? untracked\.txt/);
    assert.equal(restoreSnapshot(store(), m).restored.length, 0, "twice: nothing more");
  });

  it("a clean tree has nothing uncommitted to keep", () => {
    assert.ok("nothing" in snap("git reset --hard"));
  });

  it("branch -D: the tip comes back; stash drop: the entry comes back", () => {
    sh("git checkout -qb topic && echo t > t.txt && git add t.txt && git commit -qm topic && git checkout -q main");
    const tip = sh("git rev-parse topic").trim();
    const b = kept(snap("git branch -D topic"));
    sh("git branch -D topic && git reflog expire --expire=now --all && git gc -q --prune=now");
    assert.match(sh(`git cat-file -t ${tip} 2>&1 || true`), /fatal|bad|could not/i);
    restoreSnapshot(store(), b);
    assert.equal(sh("git rev-parse topic").trim(), tip);

    sh("echo wip >> tracked.txt && git stash -q");
    const s = kept(snap("git stash drop"));
    sh("git stash drop -q");
    restoreSnapshot(store(), s);
    assert.equal(sh("git stash list").split("\n").filter(Boolean).length, 1);
  });

  it("force push: the remote's old tip is kept and the push that brings it back is printed, never run", () => {
    const remote = path.join(tmp, "remote.git");
    sh(`git init -q --bare ${remote} && git remote add origin ${remote} && git push -q -u origin main`);
    const old = sh("git rev-parse main").trim();
    const m = kept(snap("git push --force origin main"));
    const r = restoreSnapshot(store(), m);
    assert.equal(r.commands.length, 1);
    assert.match(r.commands[0], new RegExp(`push --force-with-lease=refs/heads/main origin ${old}:refs/heads/main$`));
  });
});

describe("undo: a folder named without its content", () => {
  it("Write onto a folder or mv into one keeps nothing", () => {
    fs.mkdirSync(path.join(ws, "dir"));
    const c = { cwd: ws, home: tmp, root: ws };
    const d = destroysOf(normalizeToolCall({ tool: "Write", input: { file_path: path.join(ws, "dir"), content: "x" } }, "claude"), undefined, c)!;
    assert.ok("nothing" in takeSnapshot(d, { agent: "claude", tool: "Write", command: "Write dir", folder: ws, cwd: ws }, { env }));
    fs.writeFileSync(path.join(ws, "a.txt"), "a");
    const o = snap("mv a.txt dir");
    assert.deepEqual("kept" in o ? o.kept.files.map((f) => path.relative(ws, f.path)) : o, ["a.txt"]);
  });
});
