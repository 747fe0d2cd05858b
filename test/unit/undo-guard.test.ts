// The guard's snapshot step and the public CLI (`snapshots`, `restore`), on real folders.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard, type DecisionRecord } from "../../src/core/guard";
import type { AskRequest, Asker } from "../../src/core/asker";
import { inProcessDecider } from "../../src/core/in-process-decider";
import { repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");
let tmp: string;
let ws: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-undo-guard-"));
  ws = path.join(tmp, "ws");
  fs.mkdirSync(path.join(ws, "data"), { recursive: true });
  fs.writeFileSync(path.join(ws, "data/a.txt"), "alpha");
  env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state"), XDG_CONFIG_HOME: path.join(tmp, "config"), HOME: tmp, DAMAGE_CONTROL_USER_RULES: path.join(tmp, "config/rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function decideBash(command: string, asker?: Asker): Promise<DecisionRecord | undefined> {
  const g = new Guard({ folders: [ws], decider: inProcessDecider, env, ledger: false });
  let rec: DecisionRecord | undefined;
  g.on("decision", (d: DecisionRecord) => (rec = d));
  await g.handle("cli", { tool: "Bash", input: { command }, cwd: ws }, { asker });
  g.close();
  return rec;
}

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ws, env, encoding: "utf8" });

describe("undo: the guard keeps a snapshot before an allowed destructive call", () => {
  it("an allowed rm keeps the file; `snapshots --json` lists it; `restore` brings it back", async () => {
    const rec = await decideBash("rm data/a.txt");
    assert.equal(rec?.decision, "allow");
    const note = rec?.snapshot;
    assert.ok(note && "id" in note, JSON.stringify(rec));
    fs.rmSync(path.join(ws, "data/a.txt"));
    const list = cli(["snapshots", "--json"]);
    assert.equal(list.status, 0, list.stderr);
    const parsed = JSON.parse(list.stdout);
    assert.equal(parsed.length, 1);
    assert.deepEqual([parsed[0].id, parsed[0].command, parsed[0].paths], [note.id, "rm data/a.txt", ["data/a.txt"]]);
    assert.equal(typeof parsed[0].time, "string");
    const dry = cli(["restore", note.id, "--dry-run"]);
    assert.equal(dry.status, 0, dry.stderr);
    assert.equal(fs.existsSync(path.join(ws, "data/a.txt")), false, "a dry run writes nothing");
    const r = cli(["restore", note.id]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(fs.readFileSync(path.join(ws, "data/a.txt"), "utf8"), "alpha");
    // Behaviour change (issue 37): a file changed since gets the kept version in place; what was
    // there is moved aside under a name that says so, and the output says where.
    fs.writeFileSync(path.join(ws, "data/a.txt"), "changed since");
    const again = cli(["restore", note.id]);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.equal(fs.readFileSync(path.join(ws, "data/a.txt"), "utf8"), "alpha");
    assert.equal(fs.readFileSync(path.join(ws, `data/a.txt.before-restore-${note.id}`), "utf8"), "changed since");
    assert.match(again.stdout, new RegExp(`kept: .* at data/a\\.txt is at data/a\\.txt\\.before-restore-${note.id}`));
    assert.equal(cli(["snapshots", "--delete", note.id]).status, 0);
    assert.equal(JSON.parse(cli(["snapshots", "--json"]).stdout).length, 0);
  });

  it("the ask says approving is recoverable; the approved call keeps its snapshot", async () => {
    fs.mkdirSync(path.join(ws, ".pi"));
    fs.writeFileSync(path.join(ws, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '\\brm\\b'\n    reason: rm needs a human here\n    ask: true\n");
    const asked: AskRequest[] = [];
    const rec = await decideBash("rm data/a.txt", { ask: async (q) => (asked.push(q), { approved: true, why: "" }) });
    assert.equal(rec?.decision, "allowed-by-user");
    assert.match(asked[0]?.undo ?? "", /A snapshot is kept before it runs: Restore from the panel/);
    assert.ok(rec?.snapshot && "id" in rec.snapshot);
    const none: AskRequest[] = [];
    await decideBash("rm no-such-file-here", { ask: async (q) => (none.push(q), { approved: false, why: "no" }) });
    assert.equal(fs.readdirSync(path.join(tmp, "state/snapshots")).length, 1, "a denied call keeps nothing");
  });

  it("a call without a destructive effect touches no store; a refused one keeps nothing", async () => {
    const rec = await decideBash("cat data/a.txt | wc -l");
    assert.equal(rec?.snapshot, undefined);
    assert.equal(fs.existsSync(path.join(tmp, "state/snapshots")), false);
    const refused = await decideBash("rm -rf data");
    assert.equal(refused?.decision, "block");
    assert.equal(refused?.snapshot, undefined);
    assert.equal(fs.existsSync(path.join(tmp, "state/snapshots")), false);
  });

  it("a command hook's local decision (no endpoint) keeps the snapshot too", () => {
    const payload = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm data/a.txt" }, cwd: ws, session_id: "s", tool_use_id: "t1" };
    const r = spawnSync(process.execPath, [CLI, "hook", "claude", "--local"], { cwd: ws, env, input: JSON.stringify(payload), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const list = JSON.parse(cli(["snapshots", "--json"]).stdout);
    assert.deepEqual(list.map((s: { command: string; agent: string }) => [s.command, s.agent]), [["rm data/a.txt", "claude"]]);
  });

  it("past the time bound from the user's settings file: the call goes on, the ledger says not kept", async () => {
    fs.mkdirSync(path.join(tmp, "config/damage-control"), { recursive: true });
    fs.writeFileSync(path.join(tmp, "config/damage-control/settings.json"), JSON.stringify({ snapshots: { timeBudgetMs: 0 } }));
    const rec = await decideBash("rm data/a.txt");
    assert.equal(rec?.decision, "allow");
    assert.deepEqual(rec?.snapshot && "notKept" in rec.snapshot ? rec.snapshot.notKept : rec?.snapshot, "too slow");
  });
});
