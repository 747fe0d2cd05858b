// install/uninstall codex|gemini and their doctor checks (issue 18): merged with what is there,
// removed exactly; the Codex TOML block never rewrites the user's TOML.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CODEX_BEGIN, CODEX_END, codexHookHash, codexStatus, countPreToolUseGroups, installCodex, splitOurBlock, tomlString, uninstallCodex, withOurBlock } from "../../src/install/codex";
import { geminiStatus, installGemini, uninstallGemini } from "../../src/install/gemini";
import { copilotCliHooks, geminiLoadsProjectSettings, moreAgentChecks } from "../../src/install/doctor-agents";
import { repoRoot } from "./support";

const USER_TOML = `# my settings
model = "o4"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "my-audit"

[projects."/home/me/src"]
trust_level = "trusted"`;

describe("install codex: one delimited block in ~/.codex/config.toml", () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  const file = () => path.join(home, ".codex/config.toml");
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-codex-"));
    env = { HOME: home };
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it("appends the block after the user's TOML, byte for byte, and uninstall restores the file exactly", () => {
    fs.mkdirSync(path.join(home, ".codex"));
    fs.writeFileSync(file(), USER_TOML + "\n");
    const r = installCodex("node /x/cli.js hook codex", env);
    assert.equal(r.changed, true);
    assert.equal(r.group, 1, "our group comes after the user's one");
    const text = fs.readFileSync(file(), "utf8");
    assert.ok(text.startsWith(USER_TOML + "\n\n" + CODEX_BEGIN), text);
    assert.ok(text.endsWith(CODEX_END + "\n"));
    assert.match(text, new RegExp(`\\[hooks\\.state\\."${file().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:pre_tool_use:1:0"\\]`));
    assert.equal(installCodex("node /x/cli.js hook codex", env).changed, false, "idempotent");
    assert.equal(uninstallCodex(env).removed, true);
    assert.equal(fs.readFileSync(file(), "utf8"), USER_TOML + "\n");
  });

  it("the block also wires PostToolUse (the kernel's refusals), trusted at its own group index", () => {
    fs.mkdirSync(path.join(home, ".codex"));
    const user = USER_TOML + '\n\n[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ntype = "command"\ncommand = "my-log"\n';
    fs.writeFileSync(file(), user);
    installCodex("dc hook codex", env);
    const block = splitOurBlock(fs.readFileSync(file(), "utf8")).block!;
    assert.match(block, /\n\[\[hooks\.PostToolUse\]\]\n\n\[\[hooks\.PostToolUse\.hooks\]\]\ntype = "command"\ncommand = "dc hook codex"\ntimeout = 60\n/);
    // After the user's one PostToolUse group: ours is group 1, and its trust entry says so.
    assert.ok(block.includes(`[hooks.state.${tomlString(`${file()}:post_tool_use:1:0`)}]\nenabled = true\ntrusted_hash = ${tomlString(codexHookHash("dc hook codex", 60, "post_tool_use"))}`), block);
    assert.equal(codexStatus(env).state, "guarding");
    assert.throws(() => withOurBlock("[hooks]\nPostToolUse = []\n", "c", file()), /PostToolUse = \[\.\.\.\]/);
    uninstallCodex(env);
    assert.equal(fs.readFileSync(file(), "utf8"), user);
  });

  it("creates the file when there is none, and removes it when only our block was in it", () => {
    installCodex("dc hook codex", env);
    assert.equal(codexStatus(env).state, "guarding");
    uninstallCodex(env);
    assert.equal(fs.existsSync(file()), false);
    assert.equal(codexStatus(env).state, "not-installed");
  });

  it("a file without a final newline keeps its text; re-install after a command change replaces the block", () => {
    fs.mkdirSync(path.join(home, ".codex"));
    fs.writeFileSync(file(), 'model = "x"');
    installCodex("a hook codex", env);
    installCodex("b hook codex", env);
    const text = fs.readFileSync(file(), "utf8");
    assert.equal(text.split(CODEX_BEGIN).length, 2, "one block");
    assert.match(text, /command = "b hook codex"/);
    uninstallCodex(env);
    assert.equal(fs.readFileSync(file(), "utf8"), 'model = "x"');
  });

  it("refuses (and says why) what the block would make invalid TOML", () => {
    for (const bad of ["hooks = { PreToolUse = [] }", "[hooks]\nPreToolUse = []", `[hooks.state."${path.join(home, ".codex/config.toml")}:pre_tool_use:0:0"]\nenabled = true`]) {
      assert.throws(() => withOurBlock(bad + "\n", "c", path.join(home, ".codex/config.toml")), /cannot add the Damage Control hook/, bad);
    }
  });

  it("a start marker without an end marker is an error, never a guess", () => {
    assert.throws(() => splitOurBlock(`x = 1\n${CODEX_BEGIN}\n[[hooks.PreToolUse]]\n`), /no end marker/);
  });

  it("counts only real [[hooks.PreToolUse]] headers", () => {
    assert.equal(countPreToolUseGroups('# [[hooks.PreToolUse]]\n[[hooks.PreToolUse]] # x\n  [[ hooks.PreToolUse ]]\n[[hooks.PreToolUse.hooks]]\nx = "[[hooks.PreToolUse]]"\n'), 2);
  });

  it("TOML strings escape quotes, backslashes and controls", () => {
    assert.equal(tomlString(`a"b\\c\n`), `"a\\"b\\\\c\\u000a"`);
  });

  it("the trust hash is Codex's normalized identity (sha256 of sorted compact JSON)", () => {
    // {"event_name":"pre_tool_use","hooks":[{"async":false,"command":"x","timeout":60,"type":"command"}]}
    assert.equal(codexHookHash("x", 60), "sha256:" + require("node:crypto").createHash("sha256").update('{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"x","timeout":60,"type":"command"}]}').digest("hex"));
  });

  it("doctor: a group added before ours shifts Codex's numbering → installed but not guarding", () => {
    installCodex("dc hook codex", env);
    const text = fs.readFileSync(file(), "utf8");
    fs.writeFileSync(file(), "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n\n" + text);
    const s = codexStatus(env);
    assert.equal(s.state, "not-guarding");
    assert.equal(moreAgentChecks(home, env).find((c) => c.id === "codex")?.status, "fail");
  });
});

describe("install gemini: BeforeTool in settings.json", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-gemini-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("merges with the user's settings and hooks, and uninstall removes exactly ours", () => {
    const file = path.join(dir, ".gemini/settings.json");
    // The user's AfterTool hook: ours goes beside it since install also wires AfterTool (the kernel's
    // refusals, docs/sandbox.md). (Was `AfterTool: []`: an empty list of the user's cannot be told
    // from one we emptied, and uninstall drops an event list it leaves empty.)
    const mine = { theme: "x", hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ name: "mine", type: "command", command: "audit" }] }], AfterTool: [{ matcher: "read_file", hooks: [{ name: "mine-after", type: "command", command: "log" }] }] } };
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify(mine));
    installGemini(file, "dc hook gemini");
    assert.equal(installGemini(file, "dc hook gemini").changed, false);
    const s = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(s.hooks.BeforeTool.length, 2);
    assert.equal(s.hooks.BeforeTool[0].hooks[0].name, "damage-control");
    assert.equal(s.hooks.BeforeTool[0].hooks[0].command, "dc hook gemini");
    assert.equal(s.hooks.BeforeTool[0].matcher, ".*");
    assert.equal(s.hooks.AfterTool.length, 2);
    assert.deepEqual(s.hooks.AfterTool[0], { matcher: "^run_shell_command$", hooks: [{ name: "damage-control", type: "command", command: "dc hook gemini", timeout: 60000, description: "Damage Control: shows what the sandbox's kernel refused (never refuses)" }] });
    assert.equal(geminiStatus(file).state, "guarding");
    // BeforeTool and AfterTool: two hooks of ours (was one before AfterTool was wired).
    assert.equal(uninstallGemini(file).removed, 2);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), mine);
  });

  it("doctor: hooks disabled is installed-but-not-guarding; absent is not installed", () => {
    const file = path.join(dir, ".gemini/settings.json");
    assert.equal(geminiStatus(file).state, "not-installed");
    installGemini(file, "c");
    const s = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...s, hooksConfig: { enabled: false } }));
    assert.equal(geminiStatus(file).state, "not-guarding");
  });

  it("doctor: a project hook in a folder Gemini does not trust is not guarding", () => {
    const home = path.join(dir, "home");
    fs.mkdirSync(path.join(home, ".gemini"), { recursive: true });
    fs.writeFileSync(path.join(home, ".gemini/settings.json"), JSON.stringify({ security: { folderTrust: { enabled: true } } }));
    const proj = path.join(dir, "proj");
    installGemini(path.join(proj, ".gemini/settings.json"), "c");
    assert.equal(geminiLoadsProjectSettings(proj, { HOME: home }).loads, false);
    assert.equal(moreAgentChecks(proj, { HOME: home }).find((c) => c.id === "gemini")?.status, "fail");
    fs.writeFileSync(path.join(home, ".gemini/trustedFolders.json"), JSON.stringify({ [proj]: "TRUST_FOLDER" }));
    assert.equal(moreAgentChecks(proj, { HOME: home }).find((c) => c.id === "gemini")?.status, "ok");
  });

  it("doctor: nothing installed anywhere → every agent ok (not installed)", () => {
    const checks = moreAgentChecks(dir, { HOME: dir });
    // Qwen Code, OpenCode and Cline joined the list (issue 25).
    assert.deepEqual(checks.map((c) => [c.id, c.status]), [["codex", "ok"], ["gemini", "ok"], ["qwen", "ok"], ["opencode", "ok"], ["cline", "ok"], ["copilot-cli", "ok"]]);
    assert.ok(checks.every((c) => /not installed|no Damage Control entry/.test(c.message)));
  });

  it("doctor sees a Copilot CLI preToolUse entry of ours", () => {
    fs.mkdirSync(path.join(dir, ".github/hooks"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".github/hooks/dc.json"), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "damage-control hook copilot" }] } }));
    assert.deepEqual(copilotCliHooks(dir).map((h) => h.kind), ["preToolUse"]);
  });
});

describe("damage-control install codex|gemini (built CLI)", () => {
  const CLI = path.join(repoRoot, "dist/cli.js");
  it("install then uninstall leaves the user's files as they were; a collision exits 3 saying why", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "dc-inst-"));
    try {
      const run = (...a: string[]) => spawnSync(process.execPath, [CLI, ...a], { encoding: "utf8", env: { ...process.env, HOME: home, CODEX_HOME: "", DAMAGE_CONTROL_STATE_DIR: path.join(home, "state") }, cwd: home });
      fs.mkdirSync(path.join(home, ".codex"));
      fs.writeFileSync(path.join(home, ".codex/config.toml"), USER_TOML);
      let r = run("install", "codex", "--cwd", home);
      assert.equal(r.status, 0, r.stderr);
      assert.match(fs.readFileSync(path.join(home, ".codex/config.toml"), "utf8"), /hook codex"/);
      r = run("uninstall", "codex");
      assert.equal(r.status, 0, r.stderr);
      assert.equal(fs.readFileSync(path.join(home, ".codex/config.toml"), "utf8"), USER_TOML);
      fs.writeFileSync(path.join(home, ".codex/config.toml"), "[hooks]\nPreToolUse = []\n");
      r = run("install", "codex");
      assert.equal(r.status, 3);
      assert.match(r.stderr, /static array/);
      r = run("install", "gemini", "--user");
      assert.equal(r.status, 0, r.stderr);
      assert.match(fs.readFileSync(path.join(home, ".gemini/settings.json"), "utf8"), /hook gemini/);
      r = run("uninstall", "gemini", "--user");
      assert.equal(fs.existsSync(path.join(home, ".gemini/settings.json")), false);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
