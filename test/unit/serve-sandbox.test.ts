// The wiring line of `serve` (src/cli/serve.ts: `sandbox: sandboxFromRules(...)`): the real
// `damage-control serve` takes the sandbox mode and policy from the folder's own rules file, and
// follows an edit of it on the next call. A Codex PreToolUse for a harmless shell command (Codex
// asks nobody: bypassPermissions) is answered with the runner's rewrite under `auto` and
// `required` (where bubblewrap works here), and with no opinion under `off`.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "./support";
import { needsSandbox } from "../support/needs-sandbox";

const CLI = path.join(repoRoot, "dist/cli.js");
const RULES = ".pi/damage-control-rules.yaml";

describe("serve: the sandbox step comes from the folder's rules (issue 34)", function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let state: string;
  let child: ReturnType<typeof spawn> | undefined;
  let url: string;
  let token: string;

  const writeMode = (mode: string) => fs.writeFileSync(path.join(ws, RULES), `zeroAccessPaths:\n  - .env\nsandbox:\n  mode: ${mode}\n`);

  before(function () {
    needsSandbox(this, "bwrap");
  });

  async function serve(mode: string): Promise<void> {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-serve-sandbox-"));
    ws = path.join(tmp, "ws");
    state = path.join(tmp, "state");
    fs.mkdirSync(path.join(ws, ".pi"), { recursive: true });
    writeMode(mode);
    // The workspace file may switch the sandbox off only when it is trusted (docs/sandbox.md).
    const env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: state, HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, "config"), DAMAGE_CONTROL_USER_RULES: path.join(tmp, "config/rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
    child = spawn(process.execPath, [CLI, "serve", "--cwd", ws, "--port", "0", "--trust-workspace-rules"], { env, stdio: ["ignore", "pipe", "pipe"] });
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child!.stdout!.on("data", (d) => {
        out += d;
        const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.on("exit", (c) => reject(new Error(`serve exited ${c}`)));
    });
    token = fs.readFileSync(path.join(state, "token"), "utf8").trim();
  }

  afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child!.on("exit", resolve));
    }
    child = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  let n = 0;
  type CodexAnswer = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: { command?: string } } };
  /** The endpoint's answer to Codex's PreToolUse for `ls`: "bypassPermissions" (Codex asks nobody) or "default" (it would ask its user). */
  async function codexLs(mode: "bypassPermissions" | "default" = "bypassPermissions"): Promise<CodexAnswer> {
    const payload = { session_id: "s", cwd: ws, hook_event_name: "PreToolUse", permission_mode: mode, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: `call_${n++}` };
    const res = await fetch(`${url}/hook/codex`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(payload) });
    assert.equal(res.status, 200);
    return (await res.json()) as CodexAnswer;
  }
  const runner = () => new RegExp(`^'?${state.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/sandbox/run'? [0-9a-f]{32} ls$`);
  /**
   * Which mode the answers show: auto rewrites the call and leaves Codex's own question to it;
   * required rewrites it and refuses the call it cannot rewrite (Codex would ask, and takes a
   * rewrite only with an allow); off does neither.
   */
  async function modeShown(): Promise<string> {
    const bypass = await codexLs();
    const asks = await codexLs("default");
    const rewritten = bypass.hookSpecificOutput?.permissionDecision === "allow" && runner().test(bypass.hookSpecificOutput.updatedInput?.command ?? "");
    const refused = asks.hookSpecificOutput?.permissionDecision === "deny" && /cannot run in the sandbox, which is required here/.test(asks.hookSpecificOutput.permissionDecisionReason ?? "");
    if (rewritten && refused) return "required";
    if (rewritten && JSON.stringify(asks) === "{}") return "auto";
    if (JSON.stringify(bypass) === "{}" && JSON.stringify(asks) === "{}") return "off";
    return `unexpected: ${JSON.stringify({ bypass, asks })}`;
  }
  /** serve follows the rules file in the background: the next calls see an edit once it is read. */
  async function followed(mode: string): Promise<void> {
    let shown = await modeShown();
    for (let i = 0; i < 300 && shown !== mode; i++) {
      await new Promise((r) => setTimeout(r, 50));
      shown = await modeShown();
    }
    assert.equal(shown, mode);
  }

  for (const mode of ["auto", "required", "off"]) {
    it(`sandbox: {mode: ${mode}} in the folder's rules → the answers of that mode`, async () => {
      await serve(mode);
      assert.equal(await modeShown(), mode);
    });
  }

  it("an edit of the rules file is followed on the next calls: off → required → auto", async () => {
    await serve("off");
    assert.equal(await modeShown(), "off");
    writeMode("required");
    await followed("required");
    writeMode("auto");
    await followed("auto");
  });
});
