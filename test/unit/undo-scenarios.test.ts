// Undo as a skeptical user tries it (issue 37): on a real git repository, every destructive call
// goes through the endpoint (HTTP, Claude Code's PreToolUse payload, a user exception lifting the
// rules), then runs as the agent would run it; `damage-control restore` must give back the tree
// byte for byte with modes, hard links, symlinks and FIFOs, and git's refs, stashes, index and
// config. Each scenario first checks the damage happened (the control: without the restore the
// tree differs), then that restore undoes it and what is there now is kept, never lost.
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Guard, type DecisionRecord } from "../../src/core/guard";
import { inProcessDecider } from "../../src/core/in-process-decider";
import { startEndpoint, type Endpoint } from "../../src/hookserver/server";
import { repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");
const TOKEN = "t".repeat(32);
let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;
let guard: Guard;
let endpoint: Endpoint;
let records: DecisionRecord[];
let callN = 0;

const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const sh = (c: string, cwd = ws) => execFileSync("bash", ["-c", c], { cwd, env: { ...process.env, ...GIT_ENV } }).toString();
const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args, "--cwd", ws], { cwd: ws, env: { ...env, ...GIT_ENV }, encoding: "utf8" });

async function start(settings?: object): Promise<void> {
  if (settings) {
    fs.mkdirSync(path.join(tmp, "config/damage-control"), { recursive: true });
    fs.writeFileSync(path.join(tmp, "config/damage-control/settings.json"), JSON.stringify({ snapshots: settings }));
  }
  guard = new Guard({ folders: [ws], decider: inProcessDecider, env, ledger: false });
  guard.on("decision", (d: DecisionRecord) => records.push(d));
  endpoint = await startEndpoint({ guard, token: TOKEN, port: 0 });
}

/** The agent's PreToolUse through the endpoint; returns the hook's answer and the call's id. */
async function ask(tool: string, input: object): Promise<{ body: Record<string, unknown>; id: string }> {
  const id = `toolu_${++callN}`;
  const res = await fetch(`${endpoint.url}/claude/hook`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd: ws, session_id: "s1", tool_use_id: id }),
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  const out = body.hookSpecificOutput as { permissionDecision?: string } | undefined;
  assert.notEqual(out?.permissionDecision, "deny", JSON.stringify(body));
  return { body, id };
}

/** The agent's PostToolUse for call `id` (where the agent has one). */
async function after(tool: string, input: object, id: string): Promise<void> {
  const res = await fetch(`${endpoint.url}/claude/hook`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ hook_event_name: "PostToolUse", tool_name: tool, tool_input: input, tool_response: {}, cwd: ws, session_id: "s1", tool_use_id: id }),
  });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
}

/** A Bash call: through the endpoint, then run as the agent runs it. Returns the snapshot id. */
async function bash(command: string): Promise<string | undefined> {
  const { id } = await ask("Bash", { command });
  sh(command);
  await after("Bash", { command }, id);
  return lastSnapshot();
}

/** The scenario's shape: set up, the call through the endpoint did damage, restore undoes all of it. */
async function undone(setup: string, command: string): Promise<void> {
  if (setup) sh(setup);
  const before = state();
  const id = await bash(command);
  assert.ok(id, `a snapshot was kept for ${command}`);
  assert.notDeepEqual(state(), before, "the control: the call did damage");
  restore(id);
  assert.deepEqual(state(), before);
}

function lastSnapshot(): string | undefined {
  const note = records[records.length - 1]?.snapshot;
  return note && "id" in note ? note.id : undefined;
}

function restore(id: string, expectStatus = 0): string {
  const r = cli(["restore", id]);
  assert.equal(r.status, expectStatus, r.stdout + r.stderr);
  assert.equal(r.stderr, "");
  return r.stdout;
}

const ASIDE = /\.(before-restore|call-version)-/;

/** The tree as bytes and modes (type, mode, content hash or link target, hard-link groups) and git's state. */
function state(dir = ws, skip: RegExp = ASIDE): Record<string, string> {
  const out: Record<string, string> = {};
  const inodes = new Map<string, string[]>();
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const rel = path.relative(dir, p);
      if (rel === ".git" || skip.test(name)) continue;
      const st = fs.lstatSync(p);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out[rel] = `symlink -> ${fs.readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = `dir ${mode}`;
        walk(p);
      } else if (st.isFIFO()) out[rel] = `fifo ${mode}`;
      else if (st.isFile()) {
        out[rel] = `file ${mode} ${crypto.createHash("sha256").update(fs.readFileSync(p)).digest("hex").slice(0, 16)}`;
        if (st.nlink > 1) inodes.set(`${st.ino}`, [...(inodes.get(`${st.ino}`) ?? []), rel]);
      } else out[rel] = "special";
    }
  };
  walk(dir);
  for (const names of inodes.values()) for (const n of names) out[n] += ` linked-with ${names.join(",")}`;
  if (fs.existsSync(path.join(dir, ".git"))) {
    out["git:refs"] = sh("git for-each-ref --format='%(refname) %(objectname)'", dir);
    out["git:HEAD"] = sh("git symbolic-ref -q HEAD || git rev-parse HEAD", dir);
    out["git:stash"] = sh("git stash list --format='%H %gs'", dir);
    out["git:index"] = sh("git ls-files -s", dir);
    out["git:config"] = sh("git config --local --list", dir);
  }
  return out;
}

function asideFiles(): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = path.join(d, e.name);
      if (ASIDE.test(e.name)) found.push(path.relative(ws, p));
      else if (e.isDirectory()) walk(p);
    }
  };
  walk(ws);
  return found.sort();
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-undo-scn-"));
  ws = path.join(tmp, "ws");
  fs.mkdirSync(ws);
  records = [];
  fs.mkdirSync(path.join(tmp, "config"), { recursive: true });
  fs.writeFileSync(path.join(tmp, "rules.yaml"), "allow:\n  - command: '.*'\n    reason: every scenario's call runs (a snapshot keeps what it destroys)\n");
  env = { ...process.env, ...GIT_ENV, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state"), XDG_CONFIG_HOME: path.join(tmp, "config"), HOME: tmp, DAMAGE_CONTROL_USER_RULES: path.join(tmp, "rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
  sh("git init -q -b main && echo '*.log' > .gitignore && echo readme > README.md && echo notes > notes.txt && printf 'alpha\\nbeta\\n' > doc.txt && git add . && git commit -qm init");
});

afterEach(async () => {
  await endpoint?.close();
  guard?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("undo scenarios: overwrites come back in place, what is there now is kept", () => {
  beforeEach(() => start());

  for (const [name, command] of [
    ["mv onto a file", "mv notes.txt README.md"],
    ["sed -i", "sed -i s/alpha/ALPHA/ doc.txt"],
    ["truncate", "truncate -s 0 doc.txt"],
    [": > truncation", ": > doc.txt"],
    ["cp onto a file", "cp notes.txt doc.txt"],
  ]) {
    it(`${name}: restore puts the old version in place (exit 0) and keeps the call's version beside it`, async () => {
      const before = state();
      const id = await bash(command);
      assert.ok(id, "a snapshot was kept");
      assert.notDeepEqual(state(), before, "the control: the call did damage");
      const out = restore(id);
      assert.deepEqual(state(), before);
      const aside = asideFiles();
      assert.equal(aside.length, 1, out);
      assert.match(out, /the call's change/, "the post-tool copy tells the call's own change apart");
      assert.match(out, new RegExp(aside[0].replace(/\./g, "\\.")));
      // Twice: nothing more, nothing new aside.
      restore(id);
      assert.deepEqual(asideFiles(), aside);
    });
  }

  it("Write, Edit, MultiEdit, an MCP file write and NotebookEdit over a file: each restored in place", async () => {
    sh(`echo '{"cells":[{"source":"print(1)"}]}' > nb.ipynb && git add nb.ipynb && git commit -qm nb`);
    const before = state();
    const calls: [string, object, () => void][] = [
      ["Write", { file_path: path.join(ws, "README.md"), content: "written\n" }, () => fs.writeFileSync(path.join(ws, "README.md"), "written\n")],
      ["Edit", { file_path: path.join(ws, "doc.txt"), old_string: "alpha", new_string: "edited" }, () => fs.writeFileSync(path.join(ws, "doc.txt"), "edited\nbeta\n")],
      ["MultiEdit", { file_path: path.join(ws, "notes.txt"), edits: [{ old_string: "notes", new_string: "multi" }] }, () => fs.writeFileSync(path.join(ws, "notes.txt"), "multi\n")],
      ["mcp__fs__write_file", { path: path.join(ws, ".gitignore"), content: "x" }, () => fs.writeFileSync(path.join(ws, ".gitignore"), "x")],
      ["NotebookEdit", { notebook_path: path.join(ws, "nb.ipynb"), cell_id: "c1", new_source: "print(2)" }, () => fs.writeFileSync(path.join(ws, "nb.ipynb"), '{"cells":[{"source":"print(2)"}]}')],
    ];
    const ids: string[] = [];
    for (const [tool, input, run] of calls) {
      const { body, id } = await ask(tool, input);
      const sid = lastSnapshot();
      assert.ok(sid, `${tool} kept a snapshot`);
      // The agent learns the snapshot exists and that the USER can restore it, never that it may.
      const ctx = String((body.hookSpecificOutput as { additionalContext?: string })?.additionalContext ?? "");
      assert.match(ctx, new RegExp(`snapshot \\(${sid}\\)`));
      assert.match(ctx, /The user can restore it/);
      assert.match(ctx, /do not run restore or delete snapshots yourself/);
      ids.push(sid);
      run();
      await after(tool, input, id);
    }
    assert.notDeepEqual(state(), before);
    for (const id of ids) restore(id);
    assert.deepEqual(state(), before);
    assert.equal(asideFiles().length, 5);
  });

  it("two calls on one file: the snapshots restore in either order, and nothing is lost", async () => {
    const v1 = state();
    const first = (await bash("sed -i s/alpha/two/ doc.txt"))!;
    const v2 = state();
    const second = (await bash(": > doc.txt"))!;
    // Oldest first: v1 in place; then the newer one: v2 in place (v1 kept aside again).
    restore(first);
    assert.deepEqual(state(), v1);
    restore(second);
    assert.deepEqual(state(), v2);
    restore(first);
    assert.deepEqual(state(), v1);
    const kept = new Set(asideFiles().map((f) => fs.readFileSync(path.join(ws, f), "utf8")));
    assert.deepEqual([...kept].sort(), ["", "alpha\nbeta\n", "two\nbeta\n"], "the empty file, v1 and v2: every version that was in place is kept");
  });

  it("the file edited by the user after the call: the old version goes in place, both later versions are kept", async () => {
    const before = state();
    const id = (await bash("sed -i s/alpha/agent/ doc.txt"))!;
    fs.writeFileSync(path.join(ws, "doc.txt"), "the user's edit\n");
    const out = restore(id);
    assert.deepEqual(state(), before);
    assert.match(out, /an edit made after the call/);
    const kept = Object.fromEntries(asideFiles().map((f) => [f.replace(/-[0-9T]+-[0-9a-f]+$/, ""), fs.readFileSync(path.join(ws, f), "utf8")]));
    assert.deepEqual(kept, { "doc.txt.before-restore": "the user's edit\n", "doc.txt.call-version": "agent\nbeta\n" });
  });
});

describe("undo scenarios: git state whole", () => {
  beforeEach(() => start());

  it("reset --hard HEAD~1 over uncommitted work: the branch goes back and the work comes back", () => undone("echo two >> README.md && git commit -qam two && echo edit >> doc.txt && echo new > staged.txt && git add staged.txt && echo draft > untracked.txt", "git reset --hard HEAD~1"));

  it("a commit made after a reset: restore prints the command and moves nothing (exit 1)", async () => {
    sh("echo two >> README.md && git commit -qam two");
    const old = sh("git rev-parse main").trim();
    const id = (await bash("git reset --hard HEAD~1"))!;
    sh("echo later > later.txt && git add later.txt && git commit -qm later");
    const mid = state();
    const out = restore(id, 1);
    assert.deepEqual(state(), mid, "nothing moved");
    assert.match(out, new RegExp(`not restored: branch main \\(commits were made on it since the snapshot: nothing moved; to put it back at ${old.slice(0, 12)} anyway: git -C \\S+ reset --keep ${old}\\)`));
  });

  for (const mode of ["--soft", "--mixed"]) {
    it(`reset ${mode} HEAD~1 with staged work: the branch goes back, the index and the work tree stay whole`, () =>
      undone("echo two >> README.md && git commit -qam two && echo staged > staged.txt && git add staged.txt && echo edit >> doc.txt", `git reset -q ${mode} HEAD~1`));
  }

  it("checkout -B main HEAD~1 (the checked-out branch moved): it goes back with the work tree", () =>
    undone("echo two >> README.md && git commit -qam two", "git checkout -q -B main HEAD~1"));

  it("branch -f of a branch not checked out: the kept tip in place, where it was kept as a branch", async () => {
    sh("git branch topic && echo two >> README.md && git commit -qam two");
    const before = state();
    const id = (await bash("git branch -f topic main"))!;
    assert.notDeepEqual(state(), before);
    const out = restore(id);
    const moved = sh(`git rev-parse topic.before-restore-${id}`).trim();
    assert.equal(moved, sh("git rev-parse main").trim());
    sh(`git branch -D -q topic.before-restore-${id}`);
    assert.deepEqual(state(), before);
    assert.match(out, new RegExp(`where the branch was at branch topic is at branch topic\\.before-restore-${id}`));
  });

  it("a rebase that moved the branch: its old position comes back", () => undone("git checkout -qb topic && echo t > t.txt && git add t.txt && git commit -qm topic && git checkout -q main && echo m > m.txt && git add m.txt && git commit -qm main && git checkout -q topic", "git rebase -q main"));

  it("git clean -fd PATHS: untracked files and folders come back", () =>
    undone("mkdir -p scratch/deep && echo a > scratch/deep/a.txt && echo b > loose.txt", "git clean -fd scratch loose.txt"));

  it("a mode-only change in uncommitted work (chmod +x, then git checkout -- .) comes back", () => undone("chmod +x doc.txt", "git checkout -- ."));

  it("a stash dropped from the middle comes back at its place in the list", () =>
    undone([1, 2, 3].map((n) => `echo s${n} >> doc.txt && git stash -q -m s${n}`).join(" && "), "git stash drop -q stash@{1}"));

  it("branch -D: the tip and its upstream configuration come back", async () => {
    const remote = path.join(tmp, "remote.git");
    await undone(`git init -q --bare ${remote} && git remote add origin ${remote} && git checkout -qb topic && echo t > t.txt && git add t.txt && git commit -qm t && git push -q -u origin topic && git config branch.topic.description 'the topic' && git checkout -q main`, "git branch -D topic");
  });
});

describe("undo scenarios: files whole", () => {
  beforeEach(() => start());

  it("rm -r: folder modes (umask-proof), hard links as links, symlinks and FIFOs as they were; a socket is said", async () => {
    sh("mkdir -p data/sub data/open && echo a > data/a && ln data/a data/b && ln -s ../README.md data/sub/link && mkfifo -m 640 data/pipe && chmod 700 data && chmod 750 data/sub && chmod 777 data/open");
    const server = net.createServer().listen(path.join(ws, "data/sock"));
    await new Promise((r) => server.once("listening", r));
    const expected = state();
    delete expected["data/sock"];
    const id = (await bash("rm -r data"))!;
    server.close();
    assert.equal(fs.existsSync(path.join(ws, "data")), false);
    const out = restore(id);
    assert.deepEqual(state(), expected);
    assert.match(out, /not kept: data\/sock was a socket/);
  });

  it("rm -rf build holding a tracked file with an uncommitted edit: kept and restored", async () => {
    await undone("mkdir build && echo out > build/out.txt && git add -f build/out.txt && git commit -qm build && echo 'build/' >> .gitignore && git commit -qam ignore && echo edited >> build/out.txt", "rm -rf build");
  });

  it("rm -rf build holding only ignored output: nothing kept (regenerable as the defaults say)", async () => {
    sh("echo 'build/' >> .gitignore && git commit -qam ignore && mkdir build && echo out > build/out.js");
    assert.equal(await bash("rm -rf build"), undefined);
    assert.equal(records[records.length - 1]?.snapshot, undefined);
  });
});

describe("undo scenarios: bounds and the CLI", () => {
  it("past a small time budget: not kept, too slow, nothing in the store, and the call goes on", async () => {
    await start({ timeBudgetMs: 5 });
    sh("mkdir -p many && for i in $(seq 1 3000); do echo $i > many/$i; done");
    await bash("rm -r many");
    const note = records[records.length - 1]?.snapshot;
    assert.deepEqual(note && "notKept" in note ? note.notKept : note, "too slow");
    assert.equal(fs.existsSync(path.join(ws, "many")), false, "the call went on");
    // Nothing left in the store (the store folder may not exist at all: the budget can run out before it is made).
    const storeDir = path.join(tmp, "state/snapshots");
    assert.deepEqual(fs.existsSync(storeDir) ? fs.readdirSync(storeDir) : [], []);
  });

  it("`snapshots | head -1` ends quietly: no EPIPE, no stack trace", async () => {
    await start();
    for (let i = 0; i < 40; i++) await bash(`echo ${i} > doc.txt`);
    const r = spawnSync("bash", ["-c", `set -o pipefail; node ${CLI} snapshots --cwd ${ws} | head -1`], { env, encoding: "utf8" });
    assert.equal(r.stderr, "");
    assert.equal(r.stdout.split("\n").filter(Boolean).length, 1);
  });

  it("a refusal with nobody to ask is recorded as unconfirmed, not as the user's denial", async () => {
    fs.writeFileSync(path.join(tmp, "rules.yaml"), "bashToolPatterns:\n  - pattern: '\\bchmod\\b'\n    reason: chmod needs a human here\n    ask: true\n");
    await start();
    const res = await fetch(`${endpoint.url}/claude/hook`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "chmod 600 doc.txt" }, cwd: ws, session_id: "s1", tool_use_id: "tx" }),
    });
    const body = (await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } };
    assert.equal(body.hookSpecificOutput?.permissionDecision, "deny");
    await new Promise((r) => setImmediate(r));
    assert.equal(records[records.length - 1]?.decision, "unconfirmed");
  });
});

describe("undo restore: what a restore replaced comes back, nothing changed since is overwritten", () => {
  beforeEach(() => start());

  function undoRestore(id: string, expectStatus = 0, extra: string[] = []): string {
    const r = cli(["undo-restore", id, ...extra]);
    assert.equal(r.status, expectStatus, r.stdout + r.stderr);
    assert.equal(r.stderr, "");
    return r.stdout;
  }

  /** The call did damage, restore undid it, undo-restore undoes the restore: the damaged tree again, no set-aside file left. */
  async function restoredThenUndone(setup: string, command: string): Promise<string> {
    if (setup) sh(setup);
    const before = state();
    const id = (await bash(command))!;
    assert.ok(id, `a snapshot was kept for ${command}`);
    const damaged = state();
    assert.notDeepEqual(damaged, before, "the control: the call did damage");
    restore(id);
    // (A branch the restore moved keeps where it was under a spare name: the undo removes it.)
    const spareless = (t: Record<string, string>) => ({ ...t, ...(t["git:refs"] !== undefined && { "git:refs": t["git:refs"].split("\n").filter((l) => !ASIDE.test(l)).join("\n") }) });
    assert.deepEqual(spareless(state()), spareless(before), "the control: the restore put it back");
    undoRestore(id);
    assert.deepEqual(state(), damaged);
    assert.deepEqual(asideFiles(), [], "the set-aside files went back in place");
    return id;
  }

  it("sed -i: undo puts the call's version back from beside it; Restore works again after", async () => {
    const before = state();
    const id = await restoredThenUndone("", "sed -i s/alpha/ALPHA/ doc.txt");
    assert.equal(fs.readFileSync(path.join(ws, "doc.txt"), "utf8"), "ALPHA\nbeta\n");
    // Nothing left to undo: said, exit 1, nothing changes.
    const mid = state();
    assert.match(undoRestore(id, 1), /^no restore of \S+ to undo$/m);
    assert.deepEqual(state(), mid);
    restore(id);
    assert.deepEqual(state(), before);
  });

  it("rm -r: what the restore created (folders, hard links, symlinks, FIFOs) is removed again", () =>
    restoredThenUndone("mkdir -p data/sub && echo a > data/a && ln data/a data/b && ln -s ../README.md data/sub/link && mkfifo -m 640 data/pipe && chmod 750 data/sub", "rm -r data"));

  it("a mode-only change in uncommitted work (chmod +x, then git checkout -- .): undo takes the mode back off", () => restoredThenUndone("chmod +x doc.txt", "git checkout -- ."));

  it("the user's edit after the call: undo puts the edit back and removes the call's copy the restore wrote beside it", async () => {
    const id = (await bash("sed -i s/alpha/agent/ doc.txt"))!;
    fs.writeFileSync(path.join(ws, "doc.txt"), "the user's edit\n");
    const edited = state();
    restore(id);
    assert.equal(asideFiles().length, 2, "the control: the edit and the call's version are beside it");
    const out = undoRestore(id);
    assert.match(out, /^remove doc\.txt\.call-version-\S+ \(the restore made it\)$/m);
    assert.deepEqual(state(), edited);
    assert.deepEqual(asideFiles(), []);
  });

  it("a file changed since the restore: undo stops, names it, changes nothing; once it is as restored, undo goes through", async () => {
    const id = (await bash("sed -i s/alpha/agent/ doc.txt"))!;
    const damaged = state();
    restore(id);
    fs.writeFileSync(path.join(ws, "doc.txt"), "the user's edit after the restore\n");
    const mid = state();
    const aside = asideFiles();
    const out = undoRestore(id, 1);
    assert.match(out, /^changed since the restore: doc\.txt changed since the restore$/m);
    assert.match(out, /nothing was undone/);
    assert.deepEqual(state(), mid, "nothing changed");
    assert.deepEqual(asideFiles(), aside, "the set-aside copy is still there");
    // A dry run says the same and changes nothing either.
    assert.match(undoRestore(id, 1, ["--dry-run"]), /changed since the restore: doc\.txt/);
    fs.writeFileSync(path.join(ws, "doc.txt"), "alpha\nbeta\n");
    assert.match(undoRestore(id, 0, ["--dry-run"]), /^would put back doc\.txt$/m);
    assert.deepEqual(asideFiles(), aside, "a dry run moves nothing");
    assert.match(undoRestore(id), /^put back doc\.txt$/m);
    assert.deepEqual(state(), damaged);
  });

  it("a set-aside copy deleted since: undo stops and says it cannot come back", async () => {
    const id = (await bash(": > doc.txt"))!;
    restore(id);
    const [aside] = asideFiles();
    fs.rmSync(path.join(ws, aside));
    const mid = state();
    assert.match(undoRestore(id, 1), new RegExp(`changed since the restore: ${aside.replace(/\./g, "\\.")} is gone`));
    assert.deepEqual(state(), mid);
  });

  it("reset --hard over uncommitted work: the branch, the index and the work tree go back as the call left them", () =>
    restoredThenUndone("echo two >> README.md && git commit -qam two && echo edit >> doc.txt && echo new > staged.txt && git add staged.txt && echo draft > untracked.txt", "git reset --hard HEAD~1"));

  it("reset --mixed with staged work: the branch and the index go back", () =>
    restoredThenUndone("echo two >> README.md && git commit -qam two && echo staged > staged.txt && git add staged.txt && echo edit >> doc.txt", "git reset -q --mixed HEAD~1"));

  it("branch -D: the branch and its configuration the restore brought back go again", async () => {
    const remote = path.join(tmp, "remote.git");
    await restoredThenUndone(`git init -q --bare ${remote} && git remote add origin ${remote} && git checkout -qb topic && echo t > t.txt && git add t.txt && git commit -qm t && git push -q -u origin topic && git checkout -q main`, "git branch -D topic");
  });

  it("branch -f: the branch goes back where the call put it, the restore's spare branch goes", () => restoredThenUndone("git branch topic && echo two >> README.md && git commit -qam two", "git branch -f topic main"));

  it("a stash dropped from the middle: the list goes back as the call left it", () =>
    restoredThenUndone([1, 2, 3].map((n) => `echo s${n} >> doc.txt && git stash -q -m s${n}`).join(" && "), "git stash drop -q stash@{1}"));

  it("a branch moved since the restore: undo stops and names it", async () => {
    sh("echo two >> README.md && git commit -qam two");
    const id = (await bash("git reset --hard HEAD~1"))!;
    restore(id);
    sh("echo later > later.txt && git add later.txt && git commit -qm later");
    const mid = state();
    assert.match(undoRestore(id, 1), /^changed since the restore: branch main moved since the restore$/m);
    assert.deepEqual(state(), mid);
  });
});
