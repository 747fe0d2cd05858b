// The guard cannot be switched off from inside (issue 35), each protection with its control:
// one endpoint per folder (a second serve is refused, a second in-process endpoint waits and
// takes over only when the first is gone); serve refuses inside an agent's tool call (marker
// variable, or an agent's process among its ancestors); a hook does not trust an endpoint an
// agent started; the product is known by what it is (a copy under another name, a symlink, the
// launcher, PATH); a signal to an endpoint's process is refused.
import * as assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Guard } from "../../src/core/guard";
import { agentOf, startedByAgent } from "../../src/core/provenance";
import { heldBy, lookupEndpoint, readRegistration, register } from "../../src/core/registry";
import { isProductFile } from "../../src/core/self-program";
import { launcherScript } from "../../src/install/launcher";
import { startGuardEndpoint } from "../../src/hookserver/start";
import { claudeBody, repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");

/** Resolves with the first line matching `re` on the child's stdout/stderr. */
function waitFor(child: ChildProcess, re: RegExp, ms = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`no ${re} within ${ms} ms: ${seen}`)), ms);
    const on = (b: Buffer) => {
      seen += b.toString();
      const m = re.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout?.on("data", on);
    child.stderr?.on("data", on);
  });
}

describe("self-protection: the guard cannot be switched off from inside", () => {
  let state: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-self-state-"));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "dc-self-"));
    fs.mkdirSync(path.join(folder, "data"));
    fs.writeFileSync(path.join(folder, "data/keep.txt"), "precious\n");
    fs.writeFileSync(path.join(folder, "empty.yaml"), "{}\n");
    // No agent marker from whoever runs the tests: these runs stand for the user's terminal.
    env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: state };
    for (const k of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_SANDBOX", "GEMINI_CLI", "QWEN_CODE", "OPENCODE", "OPENCODE_PID", "CODEX_SANDBOX_NETWORK_DISABLED"]) delete env[k];
  });
  afterEach(() => {
    // Only the processes this test started: each its own process group (a serve below a fake agent too).
    for (const c of children.splice(0)) {
      try {
        process.kill(-c.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    fs.rmSync(state, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  function serve(args: string[], extra: NodeJS.ProcessEnv = {}, command = process.execPath, pre: string[] = []): ChildProcess {
    const c = spawn(command, [...pre, CLI, "serve", "--cwd", folder, "--port", "0", ...args], { env: { ...env, ...extra }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    children.push(c);
    return c;
  }
  const exitOf = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once("exit", (code) => r(code))));

  describe("one endpoint per folder", () => {
    it("a second serve with empty rules is refused while the first lives; the registry still names the first", async () => {
      const first = serve([]);
      const url = (await waitFor(first, /listening (\S+)/)).split(" ")[1];
      const second = serve(["--rules", path.join(folder, "empty.yaml")]);
      const out = await waitFor(second, /already guarded by the endpoint at \S+/);
      assert.ok(out.includes(url), out);
      assert.equal(await exitOf(second), 4);
      assert.equal(lookupEndpoint(folder, state)?.url, url, "the hooks still find the first endpoint");
      assert.equal(lookupEndpoint(folder, state)?.pid, first.pid);
    });

    it("an endpoint started while the folder is held serves unfound, and takes the folder once the holder is gone", async () => {
      const first = serve([]);
      await waitFor(first, /listening/);
      const g = new Guard({ folders: [folder], ledger: false });
      const second = await startGuardEndpoint(g, "t".repeat(43), { host: "test", port: 0, stateDir: state });
      try {
        assert.deepEqual(second.registered, []);
        assert.deepEqual(second.waiting, [folder]);
        assert.equal(readRegistration(folder, state)?.pid, first.pid, "not replaced while the first lives");
        first.kill("SIGTERM");
        await exitOf(first);
        const deadline = Date.now() + 6000;
        while (second.waiting.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(second.registered, [folder], "taken once the holder is gone");
        assert.equal(lookupEndpoint(folder, state)?.url, second.url);
      } finally {
        await second.close();
        g.close();
      }
    });

    it("control: an entry whose process is gone is free (a crashed endpoint does not hold the folder)", () => {
      const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
      fs.mkdirSync(path.join(state, "endpoints"), { recursive: true });
      register([folder], "http://127.0.0.1:1", 1, "test", state);
      const file = fs.readdirSync(path.join(state, "endpoints")).find((f) => f.endsWith(".json"))!;
      const reg = JSON.parse(fs.readFileSync(path.join(state, "endpoints", file), "utf8"));
      fs.writeFileSync(path.join(state, "endpoints", file), JSON.stringify({ ...reg, pid: dead }));
      assert.equal(heldBy(folder, state), undefined);
    });
  });

  describe("an endpoint the user did not start is neither started nor trusted", () => {
    it("serve refuses inside an agent's tool call: a marker variable", async () => {
      const c = serve([], { CLAUDECODE: "1" });
      await waitFor(c, /serve refused: it was started inside a tool call of an agent \(CLAUDECODE is set\)/);
      assert.equal(await exitOf(c), 4);
      assert.equal(lookupEndpoint(folder, state), undefined);
    });

    it("serve refuses inside an agent's tool call: an agent's process among its ancestors, with no marker", async () => {
      // A process whose executable is named `claude` (a symlink to node) runs a shell that runs serve.
      const bin = fs.mkdtempSync(path.join(os.tmpdir(), "dc-agent-"));
      fs.symlinkSync(process.execPath, path.join(bin, "claude"));
      const script = `require("child_process").spawnSync("sh", ["-c", ${JSON.stringify(`"${process.execPath}" "${CLI}" serve --cwd "${folder}" --port 0`)}], { stdio: "inherit" })`;
      const c = spawn(path.join(bin, "claude"), ["-e", script], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      children.push(c);
      try {
        await waitFor(c, /serve refused: it was started inside a tool call of Claude Code/);
      } finally {
        fs.rmSync(bin, { recursive: true, force: true });
      }
    });

    it("the verbs that change the guard refuse inside an agent's call even when run from a script; listing verbs do not", () => {
      const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [CLI, ...args], { env: { ...env, HOME: state, XDG_CONFIG_HOME: path.join(state, "config"), ...extra }, encoding: "utf8" });
      for (const args of [["endpoint", "--cwd", folder], ["exceptions"], ["uninstall", "claude", "--cwd", folder], ["snapshots", "--clear"], ["restore", "20261204T1200000000-00ab"], ["undo-restore", "20261204T1200000000-00ab"]]) {
        const r = cli(args, { CLAUDECODE: "1" });
        assert.equal(r.status, 4, `${args.join(" ")}: ${r.stderr}`);
        assert.match(r.stderr, /refused: it runs inside a tool call of an agent \(CLAUDECODE is set\)/, args.join(" "));
      }
      // Control: from the user's terminal the same verbs run (exceptions lists, snapshots --clear clears).
      assert.equal(cli(["exceptions"]).status, 0);
      assert.equal(cli(["snapshots", "--clear"]).status, 0);
      assert.doesNotMatch(cli(["endpoint", "--cwd", folder]).stderr, /refused/);
      for (const args of [["snapshots", "--cwd", folder], ["rules", "lint", "--cwd", folder]]) assert.doesNotMatch(cli(args, { CLAUDECODE: "1" }).stderr, /refused/, args.join(" "));
    });

    it("control: the same serve from the user's terminal starts", async () => {
      const c = serve([]);
      await waitFor(c, /listening/);
      assert.equal(lookupEndpoint(folder, state)?.pid, c.pid);
    });

    it("a registered endpoint whose process an agent started is skipped by the hooks' lookup", async () => {
      // Real listeners (a `sleep` used to stand in): the lookup now also requires the registered
      // process to be the one listening on the entry's port (test/unit/endpoint-trust.test.ts).
      const listener = ["-e", 'const s = require("net").createServer().listen(0, "127.0.0.1", () => console.log("port " + s.address().port)); setTimeout(() => {}, 30000)'];
      const agentMade = spawn(process.execPath, listener, { env: { ...env, CLAUDECODE: "1" }, detached: true, stdio: ["ignore", "pipe", "ignore"] });
      const userMade = spawn(process.execPath, listener, { env, detached: true, stdio: ["ignore", "pipe", "ignore"] });
      children.push(agentMade, userMade);
      const portOf = async (c: ChildProcess) => Number((await waitFor(c, /port \d+/)).split(" ")[1]);
      const ports = new Map([
        [agentMade.pid!, await portOf(agentMade)],
        [userMade.pid!, await portOf(userMade)],
      ]);
      const entry = (pid: number) => {
        register([folder], "http://127.0.0.1:2", 2, "serve", state);
        const file = fs.readdirSync(path.join(state, "endpoints")).find((f) => f.endsWith(".json"))!;
        const reg = JSON.parse(fs.readFileSync(path.join(state, "endpoints", file), "utf8"));
        fs.writeFileSync(path.join(state, "endpoints", file), JSON.stringify({ ...reg, pid, port: ports.get(pid), url: `http://127.0.0.1:${ports.get(pid)}` }));
      };
      entry(agentMade.pid!);
      assert.equal(lookupEndpoint(folder, state), undefined, "not trusted");
      assert.equal(lookupEndpoint(folder, state, { trust: false })?.pid, agentMade.pid, "control: found when provenance is not checked");
      entry(userMade.pid!);
      assert.equal(lookupEndpoint(folder, state)?.pid, userMade.pid, "control: the user's is found");
      assert.equal(startedByAgent(agentMade.pid!), "an agent (CLAUDECODE is set)");
    });

    it("the agents' processes are known by name or package path, not anything else", () => {
      assert.equal(agentOf(["/home/u/.local/bin/claude", "-p", "x"]), "Claude Code");
      assert.equal(agentOf(["/x/node_modules/@anthropic-ai/claude-code/bin/claude.exe"]), "Claude Code");
      assert.equal(agentOf(["node", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"]), "Gemini CLI");
      assert.equal(agentOf(["node", "/x/node_modules/@openai/codex/bin/codex.js"]), "Codex");
      assert.equal(agentOf(["/usr/bin/bash", "-c", "claude"]), undefined, "a shell that mentions an agent is not one");
      assert.equal(agentOf(["node", "server.js"]), undefined);
      // A package path matches whole segments: a checkout in a folder named hcline is not Cline.
      assert.equal(agentOf(["node", "/x/node_modules/cline/dist/cli.js"]), "Cline");
      assert.equal(agentOf(["node", "/work/wt/hcline/dist/cli.js", "install"]), undefined);
    });
  });

  describe("the product's own program, known by what it is", () => {
    let guard: Guard;
    let tools: string;
    beforeEach(() => {
      tools = fs.mkdtempSync(path.join(os.tmpdir(), "dc-self-tools-"));
      guard = new Guard({ folders: [folder], ledger: false, env: { ...env, PATH: `${tools}${path.delimiter}${process.env.PATH}` } });
    });
    afterEach(() => {
      guard.close();
      fs.rmSync(tools, { recursive: true, force: true });
    });
    const decide = async (command: string) => (await claudeBody(guard, { session_id: "s", cwd: folder, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } })) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    const refused = async (command: string) => (await decide(command)).hookSpecificOutput?.permissionDecision === "deny";

    it("the bundle copied elsewhere under another name is still the product: its guard verbs are refused", async () => {
      fs.copyFileSync(CLI, path.join(tools, "format-helper.js"));
      const copy = path.join(tools, "format-helper.js");
      for (const c of [
        `node ${copy} serve --cwd . --rules empty.yaml`,
        `nohup node ${copy} serve --port 0 > /dev/null 2>&1 &`,
        `node ${copy} uninstall claude`,
        `node ${copy} install claude --cwd .`,
        `node ${copy} exceptions revoke x-123`,
        `node ${copy} snapshots --clear`,
        `node ${copy} snapshots --delete 20261204T1200000000-00ab`,
        `node ${copy} restore 20261204T1200000000-00ab`,
        `node ${copy} undo-restore 20261204T1200000000-00ab`,
        `node ${copy} endpoint`,
        `bash -c "node ${copy} serve"`,
        `cp ${CLI} /tmp/dc-not-yet-${process.pid}.js && node /tmp/dc-not-yet-${process.pid}.js serve`,
      ]) {
        assert.ok(await refused(c), c);
      }
      // A bare file name given to node is relative to the cwd, like any path.
      fs.copyFileSync(CLI, path.join(folder, "fmt.js"));
      for (const c of ["node fmt.js serve --cwd . --rules empty.yaml", "XDG_CONFIG_HOME=/tmp/cfg node fmt.js serve", "ln -s fmt.js t.js && node t.js serve", "timeout 5 node fmt.js endpoint"]) assert.ok(await refused(c), c);
      const reason = (await decide(`node ${copy} serve`)).hookSpecificOutput?.permissionDecisionReason ?? "";
      assert.match(reason, /is Damage Control's own program/);
      for (const c of [`node ${copy} check`, `node ${copy} doctor`, `node ${copy} rules lint`, `node ${copy} snapshots`, `node ${copy} snapshots --json`, `node ${copy} --help`]) {
        assert.equal(await refused(c), false, c);
      }
    });

    it("control: a program without the mark, same name and verbs, is not the product", async () => {
      fs.writeFileSync(path.join(tools, "format-helper.js"), "console.log(process.argv)\n");
      assert.equal(await refused(`node ${path.join(tools, "format-helper.js")} serve --rules empty.yaml`), false);
      assert.equal(await refused(`node ${path.join(tools, "format-helper.js")} restore x`), false);
      fs.writeFileSync(path.join(folder, "app.js"), "console.log(1)\n");
      assert.equal(await refused("node app.js serve"), false, "a project's own server script");
      assert.equal(await refused("node app.js install"), false);
    });

    it("a symlink to it, a copy on PATH under another name, the launcher: all the product", async () => {
      fs.symlinkSync(CLI, path.join(tools, "innocent"));
      fs.copyFileSync(CLI, path.join(tools, "devtool"));
      fs.chmodSync(path.join(tools, "devtool"), 0o755);
      assert.ok(await refused(`${path.join(tools, "innocent")} serve`));
      assert.ok(await refused(`devtool exceptions add x`), "found on PATH");
      const launcher = path.join(tools, "hook.sh");
      fs.writeFileSync(launcher, launcherScript({ stateDir: state, nodePath: process.execPath, askTimeoutSeconds: 60 }));
      assert.ok(isProductFile(launcher), "the launcher carries the mark");
      assert.ok(isProductFile(path.join(repoRoot, "dist/extension.js")), "the extension's bundle too");
      assert.equal(isProductFile(path.join(repoRoot, "package.json")), false);
    });

    it("a signal to a live endpoint's process is refused; other processes may be signalled", async () => {
      const endpoint = serve([]);
      await waitFor(endpoint, /listening/);
      const other = spawn("sleep", ["30"], { detached: true });
      children.push(other);
      const g = new Guard({ folders: [folder], ledger: false, env });
      try {
        const refusedHere = async (command: string) => ((await claudeBody(g, { session_id: "s", cwd: folder, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } })) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision === "deny";
        for (const c of [`kill ${endpoint.pid}`, `kill -9 ${endpoint.pid}`, `kill -s KILL ${endpoint.pid}`, "pkill -f 'cli.js serve'", "pkill node", "killall node", `sleep 1; kill -TERM ${endpoint.pid}`, "kill $(pgrep -f 'cli.js serve')", "pgrep node | xargs kill", "kill -9 $(pidof node)"]) assert.ok(await refusedHere(c), c);
        for (const c of [`kill ${other.pid}`, "pkill -f my-dev-server", "killall vite", "pgrep -f 'cli.js serve'", "kill $(pgrep -f my-dev-server)"]) assert.equal(await refusedHere(c), false, c);
      } finally {
        g.close();
      }
    });
  });
});
