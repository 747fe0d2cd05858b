// The built CLI (dist/cli.js), run as a user would run it.
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_RULES_TEXT } from "../../src/engine/rules/defaults";
import { fixture, repoRoot } from "./support";

const CLI = path.join(repoRoot, "dist/cli.js");

describe("damage-control CLI", () => {
  let state: string;
  let work: string;
  const env = () => ({ ...process.env, DAMAGE_CONTROL_STATE_DIR: state, HOME: work });
  const run = (args: string[], input = "", extraEnv: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, ...args], { input, encoding: "utf8", env: { ...env(), ...extraEnv }, timeout: 20_000 });

  before(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), "dc-cli-state-"));
    work = fs.mkdtempSync(path.join(os.tmpdir(), "dc-cli-work-"));
  });
  after(() => {
    fs.rmSync(state, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  describe("check", () => {
    const ref = ["--rules", fixture("corpus/rules.yaml"), "--cwd", "/home/dev/plume-factory", "--home", "/home/dev"];
    it("prints the decision word first, then the rule and the reason", () => {
      const r = run(["check", ...ref], JSON.stringify({ tool: "bash", input: { command: "git checkout -- ." } }));
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.trim().split("\n");
      assert.equal(lines[0], "ask");
      assert.match(lines[1], /^rule: bash pattern/);
      // --rules FILE is the whole policy: its layer is "policy".
      assert.equal(lines[2], "layer: policy");
      assert.match(lines[3], /^reason: /);
    });
    it("both vocabularies; cwd and home in the JSON override the flags", () => {
      assert.equal(run(["check", ...ref], JSON.stringify({ tool: "Read", input: { file_path: "/home/dev/plume-factory/.env" } })).stdout.split("\n")[0], "block");
      assert.equal(run(["check", ...ref], JSON.stringify({ tool: "read", input: { path: "PLAN.md" } })).stdout.split("\n")[0], "allow");
      const r = run(["check", ...ref], JSON.stringify({ tool: "read", input: { path: "/home/dev/.ssh/id_rsa" }, home: "/home/other" }));
      assert.equal(r.stdout.split("\n")[0], "allow", "~ is /home/other here, so /home/dev/.ssh is not the protected one");
    });
    it("--jsonl: one verdict per line, errors in place", () => {
      const input = [JSON.stringify({ tool: "read", input: { path: ".env" } }), "not json", JSON.stringify({ tool: "write", input: { path: "src/a.ts", content: "" } })].join("\n");
      const r = run(["check", "--jsonl", ...ref], input);
      assert.equal(r.status, 0);
      const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(out[0].action, "block");
      assert.equal(out[0].rule.kind, "zeroAccess");
      assert.match(out[1].error, /line 2/);
      assert.equal(out[2].action, "allow");
    });
    it('"cwd" in the JSON is the workspace too: its root and its rules file, per line under --jsonl (issue 27)', () => {
      const rm = { tool: "Bash", input: { command: "rm -rf node_modules" } };
      // The folder need not exist: node_modules below the JSON's cwd is regenerable there.
      const single = run(["check"], JSON.stringify({ ...rm, cwd: "/some/project" })).stdout.split("\n");
      assert.equal(single[0], "allow", single.join("\n"));
      // Control: the same call with the cwd outside the JSON's folder is refused.
      assert.equal(run(["check", "--cwd", work], JSON.stringify({ ...rm, input: { command: "rm -rf /some/project/node_modules" } })).stdout.split("\n")[0], "block");
      const ws = fs.mkdtempSync(path.join(work, "ws-json-"));
      fs.mkdirSync(path.join(ws, ".pi"));
      fs.writeFileSync(path.join(ws, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n");
      const make = { tool: "bash", input: { command: "make" } };
      const lines = [{ ...make, cwd: ws }, { ...make, cwd: "/some/project" }, { ...rm, cwd: "/some/project" }, { ...rm, cwd: ws }];
      const r = run(["check", "--jsonl", "--cwd", work], lines.map((l) => JSON.stringify(l)).join("\n"));
      assert.equal(r.status, 0, r.stderr);
      const out = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(out.map((o) => o.action), ["block", "allow", "allow", "allow"], r.stdout);
      assert.equal(out[0].layer, "workspace", "the rules file found from the line's own cwd");
    });
    it("without --rules: the workspace rules file adds to the embedded defaults (it no longer replaces them)", () => {
      const ws = fs.mkdtempSync(path.join(work, "ws-"));
      assert.equal(run(["check", "--cwd", ws], JSON.stringify({ tool: "bash", input: { command: "sudo ls" } })).stdout.split("\n")[0], "block");
      fs.mkdirSync(path.join(ws, ".pi"));
      fs.writeFileSync(path.join(ws, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '\\bmake\\b'\n    reason: no make\n");
      // Changed on purpose (issue 15): a make-only file used to allow `sudo ls`; the floor stays now.
      const sudo = run(["check", "--cwd", ws], JSON.stringify({ tool: "bash", input: { command: "sudo ls" } })).stdout.split("\n");
      assert.equal(sudo[0], "block");
      assert.ok(sudo.includes("layer: default"), sudo.join("\n"));
      const make = run(["check", "--cwd", path.join(ws)], JSON.stringify({ tool: "bash", input: { command: "make" } })).stdout.split("\n");
      assert.equal(make[0], "block");
      assert.ok(make.includes("layer: workspace"), make.join("\n"));
      // The same file as --rules is the whole policy: sudo passes (control).
      assert.equal(run(["check", "--rules", path.join(ws, ".pi/damage-control-rules.yaml"), "--cwd", ws], JSON.stringify({ tool: "bash", input: { command: "sudo ls" } })).stdout.split("\n")[0], "allow");
    });
    it("bad input: one line on stderr, documented exit code, no stack trace", () => {
      const cases: [string[], string, number, RegExp][] = [
        [["check"], "{oops", 2, /not valid JSON/],
        [["check"], JSON.stringify({ input: {} }), 2, /"tool"/],
        [["check"], JSON.stringify({ tool: "Read", input: { file_path: 7 } }), 2, /unknown tool shape/],
        [["check", "--rules", "/nonexistent.yaml"], "{}", 3, /cannot read rules file/],
        [["check", "--frobnicate"], "{}", 2, /Unknown option/],
        [["nonsense"], "", 2, /unknown verb/],
      ];
      for (const [args, input, code, msg] of cases) {
        const r = run(args, input);
        assert.equal(r.status, code, `${args.join(" ")}: ${r.stderr}`);
        assert.match(r.stderr, msg);
        assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
        assert.ok(!/\n\s+at /.test(r.stderr), "no stack trace");
      }
    });
    it("a broken rules file is an error, not a silent fallback", () => {
      const bad = path.join(work, "bad.yaml");
      fs.writeFileSync(bad, "bashToolPatterns:\n  - pattern: '('\n    reason: x\n");
      const r = run(["check", "--rules", bad], JSON.stringify({ tool: "bash", input: { command: "ls" } }));
      assert.equal(r.status, 3);
      assert.match(r.stderr, /line 2/);
    });
  });

  describe("rules lint", () => {
    it("FILE:LINE:COL: severity: message, exit 1 on errors", () => {
      const f = path.join(work, "lint.yaml");
      fs.writeFileSync(f, "bashToolPatterns:\n  - pattern: 'a'\n    reason: r\n    ask: maybe\nreadOnlyPath:\n  - x\n");
      const r = run(["rules", "lint", f]);
      assert.equal(r.status, 1);
      assert.deepEqual(r.stdout.trim().split("\n"), [`${f}:4:10: error: ask must be true or false (got "maybe").`, `${f}:5:1: error: Unknown key "readOnlyPath". Did you mean "readOnlyPaths"?`]);
    });
    // Issue 16: the reference rules' four slow flag patterns are now run as their linear
    // equivalent (rules/slow-patterns.ts), so lint reports them as information with a quick fix.
    it("exit 0 when there are only warnings (the reference rules: four slow patterns, run as their linear form)", () => {
      const r = run(["rules", "lint", fixture("corpus/rules.yaml")]);
      assert.equal(r.status, 0, r.stdout);
      assert.equal(r.stdout.trim().split("\n").filter((l) => /: information: .*equivalent linear form/.test(l)).length, 4);
    });
    it("exit 0 and no output on a clean file (the embedded defaults)", () => {
      const f = path.join(work, "defaults.yaml");
      fs.writeFileSync(f, DEFAULT_RULES_TEXT);
      const r = run(["rules", "lint", f]);
      assert.equal(r.status, 0, r.stdout);
      assert.equal(r.stdout, "");
    });
  });

  it("--help for every verb", () => {
    for (const verb of [["check"], ["serve"], ["endpoint"], ["hook"], ["install"], ["uninstall"], ["rules"]]) {
      const r = run([...verb, "--help"]);
      assert.equal(r.status, 0, verb.join(" "));
      assert.match(r.stdout, /^Usage: damage-control/);
    }
    assert.match(run(["--help"]).stdout, /Verbs:/);
  });

  describe("serve, endpoint and hook claude", () => {
    let ws: string;
    let child: ReturnType<typeof spawn> | undefined;
    let url: string;

    before(async () => {
      ws = fs.mkdtempSync(path.join(work, "served-"));
      child = spawn(process.execPath, [CLI, "serve", "--cwd", ws, "--port", "0"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
      url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child!.stdout!.on("data", (d) => {
          out += d;
          const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child!.on("exit", (c) => reject(new Error(`serve exited ${c}`)));
        setTimeout(() => reject(new Error("serve did not start")), 10_000);
      });
    });
    after(() => {
      if (child && child.exitCode === null) child.kill("SIGKILL");
    });

    it("endpoint --cwd prints the url and token of the endpoint guarding the folder (and subfolders)", () => {
      const sub = path.join(ws, "deep/er");
      fs.mkdirSync(sub, { recursive: true });
      const r = run(["endpoint", "--cwd", sub]);
      assert.equal(r.status, 0, r.stderr);
      const info = JSON.parse(r.stdout);
      assert.equal(info.url, url);
      assert.equal(info.token, fs.readFileSync(path.join(state, "token"), "utf8").trim());
      assert.equal((fs.statSync(path.join(state, "token")).mode & 0o777).toString(8), "600");
      assert.equal(run(["endpoint", "--cwd", os.tmpdir()]).status, 4);
    });

    it("hook claude forwards to the endpoint", () => {
      const payload = { session_id: "s", cwd: ws, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "sudo rm x" } };
      const r = run(["hook", "claude"], JSON.stringify(payload));
      assert.equal(r.status, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "deny");
      const ledgerFile = path.join(ws, ".damage-control/audit.jsonl");
      // The endpoint writes its ledger asynchronously: give it a moment.
      const deadline = Date.now() + 5000;
      while (!(fs.existsSync(ledgerFile) && /sudo rm x/.test(fs.readFileSync(ledgerFile, "utf8"))) && Date.now() < deadline) spawnSync("sleep", ["0.05"]);
      assert.match(fs.readFileSync(ledgerFile, "utf8"), /sudo rm x/, "decided by the endpoint, which wrote the ledger");
    });

    it("hook claude with a wrong token in the environment is turned away (401) and decides locally (never allows)", async () => {
      // While serve is up (after SIGTERM this would test "down" instead): the endpoint answers
      // /health with the real token, and decides nothing for the hook, which was refused with 401.
      const health = async () => {
        const res = await fetch(`${url}/health`, { headers: { authorization: `Bearer ${fs.readFileSync(path.join(state, "token"), "utf8").trim()}` } });
        assert.equal(res.status, 200, "the endpoint is up");
        return ((await res.json()) as { decisions: number }).decisions;
      };
      const wrong = await fetch(`${url}/claude/hook`, { method: "POST", headers: { authorization: "Bearer wrong" }, body: "{}" });
      assert.equal(wrong.status, 401, "the endpoint turns the wrong token away");
      const before = await health();
      const payload = { session_id: "s", cwd: ws, hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: path.join(ws, ".env") } };
      const r = run(["hook", "claude"], JSON.stringify(payload), { DAMAGE_CONTROL_TOKEN: "wrong", DAMAGE_CONTROL_URL: url });
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "deny");
      assert.equal(await health(), before, "the endpoint decided the call: the wrong token was not sent");
    });

    it("serve stops on SIGTERM and marks itself inactive", async () => {
      child!.kill("SIGTERM");
      const code = await new Promise((resolve) => child!.on("exit", resolve));
      assert.equal(code, 0);
      assert.equal(run(["endpoint", "--cwd", ws]).status, 4);
    });

    it("hook claude decides locally when the endpoint is down: still refused", () => {
      const payload = { session_id: "s", cwd: ws, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push --force origin main" } };
      const r = run(["hook", "claude"], JSON.stringify(payload));
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout).hookSpecificOutput;
      assert.equal(out.permissionDecision, "deny");
      const harmless = run(["hook", "claude"], JSON.stringify({ ...payload, tool_input: { command: "ls" } }));
      assert.deepEqual(JSON.parse(harmless.stdout), {});
    });

    it("hook claude on garbage input: deny and exit 2", () => {
      const r = run(["hook", "claude"], "garbage");
      assert.equal(r.status, 2);
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "deny");
    });
  });

  describe("install and uninstall", () => {
    it("claude: writes the settings, idempotent, uninstall removes it", () => {
      const ws = fs.mkdtempSync(path.join(work, "inst-"));
      const r1 = run(["install", "claude", "--cwd", ws, "--claude-version", "2.1.332"]);
      assert.equal(r1.status, 0, r1.stderr);
      const file = path.join(ws, ".claude/settings.local.json");
      const text = fs.readFileSync(file, "utf8");
      assert.match(text, /"onFailure": "block"/);
      assert.match(run(["install", "claude", "--cwd", ws, "--claude-version", "2.1.332"]).stdout, /^unchanged/);
      assert.equal(fs.readFileSync(file, "utf8"), text);
      const old = run(["install", "claude", "--cwd", ws, "--claude-version", "2.1.197"]);
      assert.match(old.stdout, /command hooks/);
      assert.match(fs.readFileSync(file, "utf8"), /hook claude/);
      assert.match(run(["uninstall", "claude", "--cwd", ws]).stdout, /removed 3 hook/);
      assert.equal(fs.existsSync(file), false);
    });
    it("pi: into the global extensions folder, the extension and its local guard side by side", () => {
      const agentDir = path.join(work, "pi-agent");
      const r = run(["install", "pi"], "", { PI_CODING_AGENT_DIR: agentDir });
      assert.equal(r.status, 0, r.stderr);
      const installed = path.join(agentDir, "damage-control/pi-extension.js");
      for (const bundle of ["pi-extension.js", "pi-local-guard.js"]) {
        assert.deepEqual(fs.readFileSync(path.join(agentDir, "damage-control", bundle)), fs.readFileSync(path.join(repoRoot, "dist", bundle)), bundle);
      }
      // An install without its local guard (an older one) is not one: install again writes it.
      fs.rmSync(path.join(agentDir, "damage-control/pi-local-guard.js"));
      assert.match(run(["install", "pi"], "", { PI_CODING_AGENT_DIR: agentDir }).stdout, /^installed/);
      assert.ok(fs.existsSync(path.join(agentDir, "damage-control/pi-local-guard.js")));
      const settings = path.join(agentDir, "settings.json");
      assert.deepEqual(JSON.parse(fs.readFileSync(settings, "utf8")), { extensions: [installed] });
      fs.writeFileSync(settings, JSON.stringify({ theme: "dark", extensions: ["/other/ext.ts", installed] }));
      assert.match(run(["install", "pi"], "", { PI_CODING_AGENT_DIR: agentDir }).stdout, /^unchanged/);
      assert.match(run(["uninstall", "pi"], "", { PI_CODING_AGENT_DIR: agentDir }).stdout, /removed/);
      assert.equal(fs.existsSync(path.dirname(installed)), false);
      assert.deepEqual(JSON.parse(fs.readFileSync(settings, "utf8")), { theme: "dark", extensions: ["/other/ext.ts"] }, "other settings untouched");
    });
  });
});
