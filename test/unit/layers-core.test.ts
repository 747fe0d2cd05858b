// Layer files, approvals by hash, the user-layer exception writer, migration, the CLI's layer line.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { approve, isApproved, readApprovals, revokeApproval } from "../../src/core/approvals";
import { addUserCommandException, listUserExceptions, revokeUserException, userRulesFile } from "../../src/core/layer-files";
import { decide } from "../../src/engine/decide";
import { looseningItems } from "../../src/engine/rules/layers";
import { parseRules } from "../../src/engine/rules/parse";
import { Guard } from "../../src/core/guard";
import { RulesStore } from "../../src/core/rules-store";
import { repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");
const EMPTY = "bashToolPatterns: []\nzeroAccessPaths: []\nreadOnlyPaths: []\nnoDeletePaths: []\n";
const DROPS_SUDO = "disable: [sudo, rm-recursive-force]\nbashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n";

describe("rule layers on disk", () => {
  let tmp: string;
  let home: string;
  let folder: string;
  let state: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-layers-"));
    home = path.join(tmp, "home");
    folder = path.join(tmp, "ws");
    state = path.join(tmp, "state");
    fs.mkdirSync(path.join(folder, ".pi"), { recursive: true });
    fs.mkdirSync(home);
    env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), DAMAGE_CONTROL_STATE_DIR: state, DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "etc/rules.yaml") };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const wsFile = () => path.join(folder, ".pi/damage-control-rules.yaml");
  const ctx = () => ({ cwd: folder, home, root: folder });
  const bash = (s: RulesStore, command: string) => decide({ tool: "Bash", input: { command } }, s.current().rules, ctx(), "claude");

  it("check --cwd <folder with an empty committed rules file> refuses rm -rf ~, cat ~/.ssh/id_rsa, git push --force, and names the layer", () => {
    fs.writeFileSync(wsFile(), EMPTY);
    for (const command of ["rm -rf ~", "cat ~/.ssh/id_rsa", "git push --force origin main"]) {
      const r = spawnSync(process.execPath, [CLI, "check", "--cwd", folder, "--home", home], { input: JSON.stringify({ tool: "Bash", input: { command } }), encoding: "utf8", env, timeout: 20_000 });
      const lines = r.stdout.trim().split("\n");
      assert.equal(lines[0], "block", `${command}: ${r.stdout}${r.stderr}`);
      assert.ok(lines.includes("layer: default"), `${command}: ${r.stdout}`);
    }
    // --jsonl carries the layer too.
    const j = spawnSync(process.execPath, [CLI, "check", "--jsonl", "--cwd", folder, "--home", home], { input: JSON.stringify({ tool: "Bash", input: { command: "sudo ls" } }), encoding: "utf8", env, timeout: 20_000 });
    assert.equal(JSON.parse(j.stdout).layer, "default");
  });

  it("check: a workspace file that disables defaults only adds, unless --trust-workspace-rules", () => {
    fs.writeFileSync(wsFile(), DROPS_SUDO);
    const run = (extra: string[]) =>
      spawnSync(process.execPath, [CLI, "check", "--cwd", folder, ...extra], { input: JSON.stringify({ tool: "Bash", input: { command: "sudo ls" } }), encoding: "utf8", env, timeout: 20_000 });
    const plain = run([]);
    assert.equal(plain.stdout.split("\n")[0], "block");
    assert.match(plain.stderr, /would disable 2 rule\(s\).*not in force/);
    assert.equal(run(["--trust-workspace-rules"]).stdout.split("\n")[0], "allow");
  });

  it("the user layer and the managed layer apply to every folder; managed is strongest", () => {
    fs.mkdirSync(path.dirname(userRulesFile(env)), { recursive: true });
    fs.writeFileSync(userRulesFile(env), "disable: [sudo]\nbashToolPatterns:\n  - pattern: '\\bcurl\\b'\n    reason: mine\n");
    const s = new RulesStore(folder, undefined, { env });
    assert.equal(bash(s, "sudo ls").action, "allow");
    assert.equal(bash(s, "curl x").rule?.layer, "user");
    fs.mkdirSync(path.join(tmp, "etc"));
    fs.writeFileSync(path.join(tmp, "etc/rules.yaml"), "bashToolPatterns:\n  - pattern: '\\bsudo\\b'\n    reason: platform\n");
    assert.equal(bash(s, "sudo ls").rule?.layer, "managed", "an edit of the managed file is noticed");
  });

  it("approval by hash: pending until approved, then in force; a tightening edit keeps it, a loosening edit needs it again", () => {
    fs.writeFileSync(wsFile(), DROPS_SUDO);
    const trust = { kind: "approved" as const, isApproved: (f: string, t: string, i: string[]) => isApproved(f, t, i, state) };
    const s = new RulesStore(folder, undefined, { env, trust });
    assert.equal(bash(s, "sudo ls").action, "block", "before approval: the floor holds");
    assert.equal(bash(s, "make").rule?.layer, "workspace", "its additions apply at once");
    const p = s.current().pending!;
    assert.deepEqual(p.loosening.drops.map((d) => d.name), ["sudo", "rm-recursive-force"]);
    approve(p.file, p.text, p.items, state);
    assert.equal(s.reload().pending, undefined);
    assert.equal(bash(s, "sudo ls").action, "allow", "after approval: the workspace file applies");
    // A tightening edit (one more rule): still approved.
    fs.writeFileSync(wsFile(), DROPS_SUDO + "  - pattern: '\\bcmake\\b'\n    reason: no cmake\n");
    assert.equal(bash(s, "sudo ls").action, "allow");
    assert.equal(bash(s, "cmake").action, "block");
    // A loosening edit (one more disabled rule): pending again, the floor holds.
    fs.writeFileSync(wsFile(), DROPS_SUDO.replace("rm-recursive-force]", "rm-recursive-force, git-push-force]"));
    assert.equal(bash(s, "sudo ls").action, "block");
    assert.ok(s.current().pending);
    // Revoked: back to additions only.
    const id = readApprovals(state)[0].id;
    assert.equal(revokeApproval(id, state), true);
    assert.equal(readApprovals(state).length, 0);
  });

  it("migration: an old single file that left defaults out keeps its own rules, and the floor applies under it", () => {
    fs.writeFileSync(wsFile(), "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\nzeroAccessPaths:\n  - secrets/\n");
    const s = new RulesStore(folder, undefined, { env });
    assert.equal(bash(s, "make").rule?.layer, "workspace");
    assert.equal(bash(s, "sudo ls").rule?.layer, "default");
    assert.equal(s.current().pending, undefined, "leaving defaults out loosens nothing: no approval asked");
    assert.equal(s.current().source, "file");
  });

  it("--rules (policy) is that file alone: no floor, no user layer", () => {
    fs.writeFileSync(wsFile(), "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n");
    fs.mkdirSync(path.dirname(userRulesFile(env)), { recursive: true });
    fs.writeFileSync(userRulesFile(env), "bashToolPatterns:\n  - pattern: '\\bcurl\\b'\n    reason: mine\n");
    const s = new RulesStore(folder, wsFile(), { env, policy: true });
    assert.equal(bash(s, "sudo ls").action, "allow");
    assert.equal(bash(s, "curl x").action, "allow");
    assert.equal(bash(s, "make").rule?.layer, "policy");
  });

  it("the guard's own state is zero-access; what can change what guards a folder is read-only", () => {
    const s = new RulesStore(folder, undefined, { env });
    const call = (tool: string, input: Record<string, unknown>) => decide({ tool, input }, s.current().rules, ctx(), "claude").action;
    const read = (p: string) => call("Read", { file_path: p });
    const write = (p: string) => call("Write", { file_path: p, content: "{}" });
    assert.equal(read(path.join(state, "approvals.json")), "block");
    assert.equal(read(path.join(state, "token")), "block");
    // Changed on purpose (issue 15 lists these as read-only; zero-access inside the project
    // refused every recursive search of it): readable, never writable.
    for (const p of [userRulesFile(env), path.join(home, ".claude/settings.json"), path.join(folder, ".github/hooks/dc.json"), path.join(home, ".copilot/hooks/dc.json"), path.join(home, ".codex/config.toml")]) {
      assert.equal(read(p), "allow", p);
      assert.equal(write(p), "block", p);
    }
    assert.equal(call("Grep", { pattern: "TODO", path: folder }), "allow", "a search of the whole project");
    assert.equal(call("Glob", { pattern: "src/**/*.ts", path: folder }), "allow");
    assert.equal(read(path.join(folder, "README.md")), "allow");
    assert.equal(read(wsFile()), "allow");
  });

  it("the exception writer: narrowest exception in the user file, comments kept, no duplicate, revocable", () => {
    fs.mkdirSync(path.dirname(userRulesFile(env)), { recursive: true });
    fs.writeFileSync(userRulesFile(env), "# my rules\nbashToolPatterns:\n  - pattern: '\\bcurl\\b' # no curl\n    reason: mine\n");
    const id = addUserCommandException("rm -rf vendor", folder, "reinstall", env);
    assert.equal(addUserCommandException("rm -rf vendor", folder, "again", env), id);
    const text = fs.readFileSync(userRulesFile(env), "utf8");
    assert.match(text, /^# my rules/);
    assert.match(text, /# no curl/);
    const parsed = parseRules(text);
    assert.equal(parsed.ok, true, JSON.stringify(parsed.diagnostics));
    assert.equal(parsed.rules.allow!.length, 1);
    assert.deepEqual(listUserExceptions(env).map((e) => e.id), [id]);
    const s = new RulesStore(folder, undefined, { env });
    assert.equal(bash(s, "rm -rf vendor").action, "allow");
    assert.equal(bash(s, "rm -rf vendor/../..").action, "block");
    assert.equal(decide({ tool: "Bash", input: { command: "rm -rf vendor" } }, s.current().rules, { cwd: tmp, home, root: tmp }, "claude").action, "block", "another folder");
    assert.equal(revokeUserException(id, env), true);
    assert.equal(bash(s, "rm -rf vendor").action, "block");
  });

  it("Always allow in this folder: the guard writes the exception to the user layer and the next identical call is not asked", async () => {
    fs.writeFileSync(wsFile(), "bashToolPatterns:\n  - pattern: '\\bgit\\s+stash\\s+pop\\b'\n    reason: may conflict\n    ask: true\n");
    let asked = 0;
    const asker = { ask: async () => (asked++, { approved: true, why: "", always: true }) };
    const guard = new Guard({ folders: [folder], home, env, ledger: false });
    const call = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git stash pop" }, cwd: folder, session_id: "s" };
    const first = (await guard.handle("claude", call, { asker })).body as { hookSpecificOutput?: { permissionDecision?: string } };
    assert.equal(first.hookSpecificOutput?.permissionDecision, "allow");
    assert.equal(asked, 1);
    assert.match(fs.readFileSync(userRulesFile(env), "utf8"), /git stash pop/);
    assert.doesNotMatch(fs.readFileSync(wsFile(), "utf8"), /allow:/, "never the workspace file");
    await guard.handle("claude", call, { asker });
    assert.equal(asked, 1, "the next identical call is not asked");
    await guard.handle("claude", { ...call, tool_input: { command: "git stash pop --index" } }, { asker });
    assert.equal(asked, 2, "a different command still is");
    guard.close();
  });

  it("looseningItems ignore reasons, so rewording an exception needs no new approval", () => {
    const a = parseRules("allow:\n  - command: x\n    reason: one\n").rules;
    const b = parseRules("allow:\n  - command: x\n    reason: two\n").rules;
    assert.deepEqual(looseningItems(a), looseningItems(b));
  });
});
