// Undo with the real Claude Code: the mock model runs an `rm -r data` lifted by an exception in
// the user's rules layer, then a `git reset --hard` over uncommitted edits (a tracked file edited,
// a new file staged; a plain untracked file, which reset --hard leaves alone, beside them) — also
// lifted by a user-layer exception, the approval path that exists in a headless run. The guard
// keeps a snapshot before each; `damage-control restore` brings both back byte for byte.
// The control: the same run without the guard, after which nothing can be restored.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { claudeBin } from "../../scripts/test-tools.js";
import { bash, startAnthropicMock, toolUse } from "./support/anthropic-mock";
import { runClaude } from "./support/claude";
import { CLI, startGuarded } from "./support/guarded";
import { makeProject } from "./support/project";
import { explain, requireTools, useCleanups, useProxyTrap } from "./support/suite";
import { piBash, startOpenAIMock } from "./support/openai-mock";
import { runPi } from "./support/pi";
import { PI_EXTENSION } from "./support/guarded";
import { tempDir } from "./support/tmp";

const proxy = useProxyTrap();
const addCleanup = useCleanups();
const V = "2.1.332";

const USER_RULES = `allow:
  - command: 'rm -r data'
    reason: the scenario's data folder may go (a snapshot keeps it)
  - command: 'git reset --hard'
    reason: the scenario discards its edits (a snapshot keeps them)
# Issue 34: the kernel sandbox is off for this scenario. Its .env is tracked by git and zero-access;
# inside the sandbox git reset --hard cannot rewrite it ("unable to unlink old '.env'"), by design
# (exceptions never open zero-access paths; docs/sandbox.md). The damage must happen to be undone.
sandbox:
  mode: off
`;

const DATA = { "data/keep.txt": "precious\n", "data/deep/blob.bin": Buffer.from([0, 1, 2, 255, 10, 13]).toString("latin1") };

/** The data folder is untracked (git cannot give it back); the edits are uncommitted. */
function editWorkTree(dir: string): void {
  // The guarded project's fixture commits a data/ folder: taken out of git here.
  gitIn(dir, ["rm", "-r", "-q", "--cached", "--ignore-unmatch", "data"]);
  gitIn(dir, ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "-q", "--allow-empty", "-m", "data is local"]);
  for (const [rel, content] of Object.entries(DATA)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content, "latin1");
  }
  fs.appendFileSync(path.join(dir, "src.txt"), "an afternoon of edits\n");
  fs.writeFileSync(path.join(dir, "staged-new.txt"), "staged, never committed\n");
  gitIn(dir, ["add", "staged-new.txt"]);
  fs.writeFileSync(path.join(dir, "untracked.txt"), "not even staged\n");
}

function gitIn(dir: string, args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(dir) } });
}

function snapshotsOf(dir: string, env: Record<string, string>): { id: string; command: string; paths: string[] }[] {
  const out = execFileSync(process.execPath, [CLI, "snapshots", "--cwd", dir, "--json"], { env: { ...process.env, ...env }, encoding: "utf8" });
  return JSON.parse(out);
}

async function runModel(cwd: string, env: Record<string, string>) {
  const mock = await startAnthropicMock({ steps: [[bash("rm -r data")], [bash("git reset --hard")]] });
  addCleanup(() => mock.close());
  const r = await runClaude({ version: V, cwd, baseUrl: mock.url, prompt: "Clean up.", allowedTools: ["Bash"], env: { ...proxy.trap.env, ...env } });
  assert.equal(r.exitCode, 0, explain(r));
  proxy.assertNoEscapes();
  return mock.toolResults();
}

describe("Undo with Claude Code 2.1.332", function () {
  requireTools("claude-2.1.332");

  it("rm -r data and git reset --hard, both allowed by user exceptions: restore brings both back byte for byte", async function () {
    const rulesDir = tempDir("dc-user-rules");
    fs.writeFileSync(path.join(rulesDir, "rules.yaml"), USER_RULES);
    const g = await startGuarded({ rules: "bashToolPatterns: []\n", files: { "src.txt": "committed\n" }, guardEnv: { DAMAGE_CONTROL_USER_RULES: path.join(rulesDir, "rules.yaml") } });
    addCleanup(() => g.close());
    addCleanup(() => fs.rmSync(rulesDir, { recursive: true, force: true }));
    assert.equal(g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V), DAMAGE_CONTROL_USER_RULES: path.join(rulesDir, "rules.yaml") }).status, 0);
    editWorkTree(g.proj.dir);
    const before = { src: g.proj.read("src.txt"), staged: g.proj.read("staged-new.txt"), keep: fs.readFileSync(g.proj.path("data/keep.txt")), blob: fs.readFileSync(g.proj.path("data/deep/blob.bin")) };

    const results = await runModel(g.proj.dir, g.env);
    assert.deepEqual(results.map((t) => t.isError), [false, false], JSON.stringify(results));
    // The damage happened: the calls were allowed.
    assert.equal(g.proj.exists("data"), false);
    assert.equal(g.proj.read("src.txt"), "committed\n");
    assert.equal(g.proj.exists("staged-new.txt"), false);

    const kept = snapshotsOf(g.proj.dir, g.env);
    assert.deepEqual(kept.map((s) => s.command), ["git reset --hard", "rm -r data"], "newest first");
    assert.deepEqual(kept.map((s) => s.paths), [[], ["data"]]);
    for (const s of kept) {
      const r = g.cli(["restore", s.id, "--cwd", g.proj.dir]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
    }
    assert.deepEqual(fs.readFileSync(g.proj.path("data/keep.txt")), before.keep);
    assert.deepEqual(fs.readFileSync(g.proj.path("data/deep/blob.bin")), before.blob);
    assert.equal(g.proj.read("src.txt"), before.src);
    assert.equal(g.proj.read("staged-new.txt"), before.staged);
    assert.equal(g.proj.read("untracked.txt"), "not even staged\n");
    const staged = gitIn(g.proj.dir, ["diff", "--cached", "--name-only"]);
    assert.equal(staged.trim(), "staged-new.txt", "the staged file is staged again");
    // Restoring again changes nothing and still exits 0.
    for (const s of kept) assert.equal(g.cli(["restore", s.id, "--cwd", g.proj.dir]).status, 0);
  });

  it("control: the same run without the guard leaves nothing to restore", async function () {
    const proj = makeProject({ files: { "src.txt": "committed\n" } });
    addCleanup(() => proj.remove());
    const stateDir = tempDir("dc-state-control");
    addCleanup(() => fs.rmSync(stateDir, { recursive: true, force: true }));
    editWorkTree(proj.dir);
    const results = await runModel(proj.dir, { DAMAGE_CONTROL_STATE_DIR: stateDir });
    assert.deepEqual(results.map((t) => t.isError), [false, false], JSON.stringify(results));
    assert.equal(proj.exists("data"), false, JSON.stringify(results));
    assert.equal(proj.exists("data"), false);
    assert.equal(proj.exists("staged-new.txt"), false);
    assert.deepEqual(snapshotsOf(proj.dir, { DAMAGE_CONTROL_STATE_DIR: stateDir }), []);
  });
});

describe("Undo with pi 1.6.0's extension deciding locally (endpoint down)", function () {
  requireTools("pi-1.6.0", "node22");

  it("an allowed rm keeps a snapshot in pi's own decision; restore brings the file back", async function () {
    const g = await startGuarded({ files: { "notes.txt": "pi's notes\n" } });
    addCleanup(() => g.close());
    await g.stopEndpoint();
    const mock = await startOpenAIMock({ steps: [[piBash("rm notes.txt")]] });
    addCleanup(() => mock.close());
    const r = await runPi({ version: "1.6.0", cwd: g.proj.dir, baseUrl: mock.baseUrl, prompt: "Clean up.", extensions: [PI_EXTENSION], env: { ...proxy.trap.env, ...g.env }, mode: "print" });
    assert.equal(r.exitCode, 0, explain(r));
    proxy.assertNoEscapes();
    assert.equal(g.proj.exists("notes.txt"), false, "the call ran");
    const kept = snapshotsOf(g.proj.dir, g.env);
    assert.deepEqual(kept.map((s) => [s.command, s.paths]), [["rm notes.txt", ["notes.txt"]]]);
    assert.equal(g.cli(["restore", kept[0].id, "--cwd", g.proj.dir]).status, 0);
    assert.equal(g.proj.read("notes.txt"), "pi's notes\n");
  });
});

describe("Undo of overwrites with Claude Code 2.1.332", function () {
  requireTools("claude-2.1.332");

  const OLD = { "notes.md": "the old notes\n", "doc.txt": "alpha\nbeta\n" };

  /** Read then Write over notes.md (Claude Code writes only a file it has read), then `sed -i` on doc.txt. */
  async function runOverwrites(cwd: string, env: Record<string, string>) {
    const mock = await startAnthropicMock({
      steps: [[toolUse("Read", { file_path: path.join(cwd, "notes.md") })], [toolUse("Write", { file_path: path.join(cwd, "notes.md"), content: "overwritten by the agent\n" })], [bash("sed -i s/alpha/ALPHA/ doc.txt")]],
    });
    addCleanup(() => mock.close());
    const r = await runClaude({ version: V, cwd, baseUrl: mock.url, prompt: "Tidy the notes.", allowedTools: ["Bash", "Read", "Write"], env: { ...proxy.trap.env, ...env } });
    assert.equal(r.exitCode, 0, explain(r));
    proxy.assertNoEscapes();
    return { results: mock.toolResults(), requests: JSON.stringify(mock.requests.map((q) => q.body)) };
  }

  it("a Write over a file and sed -i: restore puts each old version in place and keeps the agent's beside it", async function () {
    // guardEnv: the guard keeps its snapshots in this run's state folder.
    const g = await startGuarded({ rules: "bashToolPatterns: []\n", files: OLD, guardEnv: {} });
    addCleanup(() => g.close());
    assert.equal(g.cli(["install", "claude", "--cwd", g.proj.dir], { DAMAGE_CONTROL_CLAUDE_BIN: claudeBin(V) }).status, 0);
    const { results, requests } = await runOverwrites(g.proj.dir, g.env);
    assert.deepEqual(results.map((t) => t.isError), [false, false, false], JSON.stringify(results));
    // The damage happened.
    assert.equal(g.proj.read("notes.md"), "overwritten by the agent\n");
    assert.equal(g.proj.read("doc.txt"), "ALPHA\nbeta\n");
    const kept = snapshotsOf(g.proj.dir, g.env);
    assert.deepEqual(kept.map((s) => s.paths), [["doc.txt"], ["notes.md"]], "newest first");
    assert.equal(kept[0].command, "sed -i s/alpha/ALPHA/ doc.txt");
    // The model was told a snapshot exists and that the user can restore it.
    for (const s of kept) assert.ok(requests.includes(`Damage Control kept a snapshot (${s.id})`), `the model saw snapshot ${s.id}`);
    assert.ok(requests.includes("The user can restore it"));
    for (const s of kept) {
      const r = g.cli(["restore", s.id, "--cwd", g.proj.dir]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /is at \S+\.before-restore-/);
    }
    assert.equal(g.proj.read("notes.md"), OLD["notes.md"]);
    assert.equal(g.proj.read("doc.txt"), OLD["doc.txt"]);
    const aside = fs.readdirSync(g.proj.dir).filter((n) => n.includes(".before-restore-")).sort();
    assert.deepEqual(aside.map((n) => [n.split(".before-restore-")[0], g.proj.read(n)]), [["doc.txt", "ALPHA\nbeta\n"], ["notes.md", "overwritten by the agent\n"]]);
  });

  it("control: the same run without the guard overwrites both and keeps nothing", async function () {
    const proj = makeProject({ files: OLD });
    addCleanup(() => proj.remove());
    const stateDir = tempDir("dc-state-control");
    addCleanup(() => fs.rmSync(stateDir, { recursive: true, force: true }));
    const { results } = await runOverwrites(proj.dir, { DAMAGE_CONTROL_STATE_DIR: stateDir });
    assert.deepEqual(results.map((t) => t.isError), [false, false, false], JSON.stringify(results));
    assert.equal(proj.read("notes.md"), "overwritten by the agent\n");
    assert.equal(proj.read("doc.txt"), "ALPHA\nbeta\n");
    assert.deepEqual(snapshotsOf(proj.dir, { DAMAGE_CONTROL_STATE_DIR: stateDir }), []);
  });
});
