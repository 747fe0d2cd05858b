// A watched guard (serve, the extension) stops stat'ing the rules files on every decision and
// follows them with fs.watch instead. That must never cost a missed edit: each test changes a
// file on disk, waits for the guard's "rules" event (the watcher's reload; no sleeps), and the
// next decision must already follow the file as it is now.
import * as assert from "node:assert/strict";
import { once } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { inProcessDecider } from "../../src/core/in-process-decider";

const NO_MAKE = "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make here\n";
const NO_CMAKE = "bashToolPatterns:\n  - pattern: '\\bcmake\\b'\n    reason: no cmake here\n";
const BROKEN = "bashToolPatterns:\n  - pattern: '('\n    reason: oops\n";

describe("rules freshness: watched files, the next decision sees an edit", () => {
  let dir: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  let guard: Guard;
  let userFile: string;
  let managedFile: string;
  let wsFile: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-fresh-")));
    ws = path.join(dir, "ws");
    fs.mkdirSync(ws);
    userFile = path.join(dir, "config", "rules.yaml");
    fs.mkdirSync(path.dirname(userFile));
    // The managed layer's folder does not exist when the guard starts (as /etc/damage-control on most machines).
    managedFile = path.join(dir, "etc", "damage-control", "rules.yaml");
    wsFile = path.join(ws, ".pi", "damage-control-rules.yaml");
    env = { HOME: dir, DAMAGE_CONTROL_USER_RULES: userFile, DAMAGE_CONTROL_MANAGED_RULES: managedFile, DAMAGE_CONTROL_STATE_DIR: path.join(dir, "state") };
    guard = new Guard({ folders: [ws], decider: inProcessDecider, ledger: false, env, home: dir });
    guard.watch();
  });
  afterEach(() => {
    guard.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const decide = async (command: string) => (await guard.tryCall({ tool: "bash", input: { command } }, ws)).action;
  /** Waits until the guard has reloaded rules in which `pred` holds (the watcher may reload more than once per edit). */
  const reloaded = async (pred: () => boolean) => {
    while (!pred()) await once(guard, "rules");
  };
  const has = (pattern: string) => () => guard.rulesStates()[0].rules.bashToolPatterns.some((r) => r.pattern === pattern);
  const hasNot = (pattern: string) => () => !has(pattern)();

  it("the user layer: created, edited, deleted, created again", async () => {
    assert.equal(await decide("make all"), "allow");
    fs.writeFileSync(userFile, NO_MAKE);
    await reloaded(has("\\bmake\\b"));
    assert.equal(await decide("make all"), "block", "the new user rule is in force at the next decision");
    fs.writeFileSync(userFile, NO_CMAKE);
    await reloaded(hasNot("\\bmake\\b"));
    assert.equal(await decide("make all"), "allow");
    assert.equal(await decide("cmake ."), "block");
    fs.rmSync(userFile);
    await reloaded(hasNot("\\bcmake\\b"));
    assert.equal(await decide("cmake ."), "allow", "a deleted layer adds nothing");
    fs.writeFileSync(userFile, NO_MAKE);
    await reloaded(has("\\bmake\\b"));
    assert.equal(await decide("make all"), "block", "recreated: followed again");
  });

  it("a layer whose folder appears after the start (the managed layer)", async () => {
    assert.equal(await decide("make all"), "allow");
    fs.mkdirSync(path.dirname(managedFile), { recursive: true });
    fs.writeFileSync(managedFile, NO_MAKE);
    await reloaded(has("\\bmake\\b"));
    assert.equal(await decide("make all"), "block");
  });

  it("the workspace file: its folder removed and made again; a broken save keeps the last good rules", async () => {
    fs.mkdirSync(path.dirname(wsFile));
    fs.writeFileSync(wsFile, NO_MAKE);
    await reloaded(has("\\bmake\\b"));
    assert.equal(await decide("make all"), "block");
    fs.writeFileSync(wsFile, BROKEN);
    await reloaded(() => guard.rulesStates()[0].broken);
    assert.equal(await decide("make all"), "block", "broken file: the last good rules stay in force");
    fs.rmSync(path.dirname(wsFile), { recursive: true });
    await reloaded(() => guard.rulesStates()[0].source === "default");
    assert.equal(await decide("make all"), "allow");
    fs.mkdirSync(path.dirname(wsFile));
    fs.writeFileSync(wsFile, NO_CMAKE);
    await reloaded(has("\\bcmake\\b"));
    assert.equal(await decide("cmake ."), "block", "the folder made again is watched again");
  });
});
