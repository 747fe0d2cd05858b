// The sandbox runner (issue 34, item 3): the policy → bubblewrap arguments and Seatbelt profile
// (pure), the runner script under the real bubblewrap (the kernel refuses; the command otherwise
// runs as it would: exit codes, stdin, output), and the guard's sandbox step: a rewrite rides only
// on an answer that already lets the call run, and `required` refuses what cannot be sandboxed.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { bwrapArgs, argsFile } from "../../src/engine/sandbox/bwrap-args";
import { seatbeltProfile, sbString } from "../../src/engine/sandbox/seatbelt";
import { kernelRefusals } from "../../src/engine/sandbox/refusals";
import { toFeed } from "../../src/views/panel/feed";
import type { SandboxMode, SandboxPolicy } from "../../src/engine/sandbox/policy-types";
import { SandboxRunner } from "../../src/core/sandbox/runner";
import { Guard } from "../../src/core/guard";
import { inProcessDecider } from "../../src/core/in-process-decider";
import type { Asker } from "../../src/core/asker";

const HAVE_BWRAP = fs.existsSync("/usr/bin/bwrap");

function policy(dir: string, extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    version: 1,
    folder: dir,
    denyRead: [{ path: path.join(dir, ".env"), rule: ".env" }, { path: path.join(dir, "secrets"), rule: "secrets/" }],
    denyWrite: [{ path: path.join(dir, "keep"), rule: "keep/" }],
    allowWrite: [],
    ...extra,
  };
}

describe("sandbox: policy → bubblewrap arguments (pure)", () => {
  const kinds: Record<string, "file" | "dir"> = { "/w/.env": "file", "/w/secrets": "dir", "/w/keep": "dir", "/w": "dir", "/tmp": "dir" };
  const facts = { kind: (p: string) => kinds[p], emptyFile: "/s/empty-file", emptyDir: "/s/empty-dir" };

  it("everything as today, read-only over denyWrite, a mode-000 placeholder over denyRead, strictest last", () => {
    const { args, skipped } = bwrapArgs(policy("/w"), facts);
    assert.deepEqual(args, ["--die-with-parent", "--cap-drop", "ALL", "--dev-bind", "/", "/", "--ro-bind", "/w/keep", "/w/keep", "--ro-bind", "/s/empty-file", "/w/.env", "--ro-bind", "/s/empty-dir", "/w/secrets"]);
    assert.deepEqual(skipped, []);
  });

  it("allowWrite: the root read-only, writes only in the listed folders (devices kept)", () => {
    const { args } = bwrapArgs(policy("/w", { allowWrite: ["/w", "/tmp"] }), facts);
    assert.deepEqual(args.slice(3, 15), ["--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--bind", "/w", "/w", "--bind", "/tmp", "/tmp"]);
    // The read-only and masked paths inside a writable folder come after it: they win.
    assert.ok(args.indexOf("/w/keep") > args.indexOf("/tmp"));
  });

  it("a path with nothing there is left out and reported (bubblewrap cannot mount over it)", () => {
    const { args, skipped } = bwrapArgs(policy("/w", { denyWrite: [{ path: "/w/nope", rule: "x" }] }), facts);
    assert.ok(!args.includes("/w/nope"));
    assert.deepEqual(skipped, ["/w/nope"]);
  });

  it("the --args file: each argument NUL-terminated; a NUL inside one is refused", () => {
    assert.equal(argsFile(["--a", "b c"]), "--a\0b c\0");
    assert.throws(() => argsFile(["a\0b"]));
  });
});

describe("sandbox: policy → Seatbelt profile (macOS; text only, no Mac here)", () => {
  it("allow by default, then the denials (Seatbelt applies the last matching rule)", () => {
    const text = seatbeltProfile(policy("/w"));
    const lines = text.trim().split("\n");
    assert.deepEqual(lines.slice(0, 2), ["(version 1)", "(allow default)"]);
    assert.ok(lines.includes('(deny file-write* (subpath "/w/keep"))'));
    assert.ok(lines.includes('(deny file-read* file-write* (subpath "/w/.env"))'));
    assert.ok(lines.includes('(deny file-read* file-write* (subpath "/w/secrets"))'));
    assert.ok(!text.includes("require-not"), "no allowWrite: writes are not narrowed");
  });

  it("allowWrite narrows writes to the listed folders and /dev", () => {
    const text = seatbeltProfile(policy("/w", { allowWrite: ["/w", "/tmp"] }));
    assert.match(text, /\(deny file-write\* \(require-not \(require-any \(subpath "\/w"\) \(subpath "\/tmp"\) \(subpath "\/dev"\)\)\)\)/);
    assert.ok(text.indexOf("require-not") < text.indexOf('(subpath "/w/keep")'), "the denials come after the narrowing");
  });

  it("quotes and backslashes are escaped; a line break in a path or a rule cannot end a form or a comment", () => {
    assert.equal(sbString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
    assert.throws(() => sbString("/a\n(allow default)"));
    const text = seatbeltProfile(policy("/w", { denyWrite: [{ path: "/w/k", rule: "evil\n(allow file-write*)" }] }));
    assert.ok(!text.split("\n").includes("(allow file-write*)"));
  });
});

(HAVE_BWRAP ? describe : describe.skip)("sandbox: the runner under the real bubblewrap", function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let state: string;
  let runner: SandboxRunner;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sandbox-"));
    ws = path.join(tmp, "ws");
    state = path.join(tmp, "state");
    fs.mkdirSync(path.join(ws, "keep"), { recursive: true });
    fs.mkdirSync(path.join(ws, "secrets"));
    fs.writeFileSync(path.join(ws, ".env"), "KEY=never-show-this\n");
    fs.writeFileSync(path.join(ws, "secrets/id"), "private\n");
    fs.writeFileSync(path.join(ws, "keep/a.txt"), "precious\n");
    runner = new SandboxRunner(state, "/usr/bin/bwrap");
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const sh = (command: string, env: NodeJS.ProcessEnv = process.env, input?: string) => spawnSync("/bin/sh", ["-c", command], { cwd: ws, env, encoding: "utf8", input });

  it("the kernel refuses reading denyRead (file and folder) and writing denyWrite; the rest works", () => {
    const { command } = runner.prepare(policy(ws), "cat .env; echo r1=$?; ls secrets; echo r2=$?; rm -rf keep; echo r3=$?; echo new > made.txt; echo r4=$?");
    const r = sh(command);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /never-show-this/);
    assert.match(r.stdout, /r1=1/);
    assert.match(r.stderr, /\.env: Permission denied/);
    assert.match(r.stdout, /r2=2/);
    assert.match(r.stderr, /Read-only file system/);
    assert.match(r.stdout, /r4=0/);
    assert.equal(fs.readFileSync(path.join(ws, "keep/a.txt"), "utf8"), "precious\n");
    assert.equal(fs.readFileSync(path.join(ws, "made.txt"), "utf8"), "new\n");
  });

  it("control: the same command without the runner reads the secret and deletes keep/", () => {
    const r = sh("cat .env; rm -rf keep");
    assert.match(r.stdout, /never-show-this/);
    assert.equal(fs.existsSync(path.join(ws, "keep")), false);
  });

  it("the command runs as it would: its exit status, stdin, quotes, bash syntax, the working folder", () => {
    assert.equal(sh(runner.prepare(policy(ws), "exit 7").command).status, 7);
    assert.equal(sh(runner.prepare(policy(ws), "tr a-z A-Z").command, process.env, "hello").stdout, "HELLO");
    assert.equal(sh(runner.prepare(policy(ws), `printf '%s|' "a b" 'c'"'"'d'; [[ -n x ]] && pwd`).command).stdout, `a b|c'd|${ws}\n`);
  });

  it("the policy comes only from the guard's file: the environment cannot point it elsewhere, a made-up id is refused", () => {
    const { command, id } = runner.prepare(policy(ws), "cat .env");
    const other = path.join(tmp, "other");
    fs.mkdirSync(path.join(other, "sandbox"), { recursive: true });
    fs.writeFileSync(path.join(other, "sandbox", `${id}.args`), argsFile(["--dev-bind", "/", "/"]));
    const r = sh(command, { ...process.env, DAMAGE_CONTROL_STATE_DIR: other, XDG_STATE_HOME: other });
    assert.doesNotMatch(r.stdout, /never-show-this/);
    const forged = sh(`'${runner.script}' ../../etc/x 'cat .env'`);
    assert.equal(forged.status, 126);
    assert.doesNotMatch(forged.stdout, /never-show-this/);
    const gone = sh(`'${runner.script}' ${"0".repeat(32)} 'cat .env'`);
    assert.equal(gone.status, 126);
    assert.match(gone.stderr, /policy 0+ is gone/);
  });

  it("one file per distinct policy: the same policy reuses its id, another gets its own", () => {
    const a = runner.prepare(policy(ws), "true");
    const b = runner.prepare(policy(ws), "false");
    const c = runner.prepare(policy(ws, { denyWrite: [] }), "true");
    assert.equal(a.id, b.id);
    assert.notEqual(a.id, c.id);
    assert.deepEqual(fs.readdirSync(path.join(state, "sandbox")).filter((f) => f.endsWith(".args")).sort(), [`${a.id}.args`, `${c.id}.args`].sort());
  });
});

describe("sandbox: the guard's step (modes; a rewrite only on an answer that already lets the call run)", function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sandbox-step-"));
    ws = path.join(tmp, "ws");
    fs.mkdirSync(path.join(ws, ".pi"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".pi/damage-control-rules.yaml"), "bashToolPatterns:\n  - pattern: '\\btouch\\s+needs-a-human\\b'\n    reason: needs a human\n    ask: true\nzeroAccessPaths:\n  - .env\n");
    env = { ...process.env, DAMAGE_CONTROL_STATE_DIR: path.join(tmp, "state"), XDG_CONFIG_HOME: path.join(tmp, "config"), HOME: tmp, DAMAGE_CONTROL_USER_RULES: path.join(tmp, "config/rules.yaml"), DAMAGE_CONTROL_MANAGED_RULES: path.join(tmp, "none.yaml") };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function guard(mode: SandboxMode, pathVar = process.env.PATH): Guard {
    return new Guard({ folders: [ws], home: tmp, decider: inProcessDecider, env, ledger: false, snapshots: false, sandbox: { mode: () => mode, policy: () => policy(ws), stateDir: path.join(tmp, "state"), env: { PATH: pathVar } } });
  }
  const codex = (command: string, id = "t1", mode = "bypassPermissions") => ({ session_id: "s", cwd: ws, hook_event_name: "PreToolUse", permission_mode: mode, tool_name: "Bash", tool_input: { command }, tool_use_id: id });
  const gemini = (command: string) => ({ session_id: "s", cwd: ws, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command } });
  const body = async (g: Guard, agent: "codex" | "gemini" | "claude" | "qwen", p: unknown, asker?: Asker) => JSON.stringify((await g.handle(agent, p, { asker })).body);
  const approve: Asker = { ask: async () => ({ approved: true, why: "" }) };

  (HAVE_BWRAP ? it : it.skip)("auto: an allowed call is rewritten (Codex: allow + updatedInput; Gemini: tool_input), recorded as sandboxed", async () => {
    const g = guard("auto");
    const seen: unknown[] = [];
    g.on("decision", (d) => seen.push(d));
    try {
      const c = JSON.parse(await body(g, "codex", codex("python3 cleanup.py")));
      assert.equal(c.hookSpecificOutput.permissionDecision, "allow");
      assert.match(c.hookSpecificOutput.updatedInput.command, /\/sandbox\/run'? [0-9a-f]{32} 'python3 cleanup\.py'$/);
      const gm = JSON.parse(await body(g, "gemini", gemini("ls")));
      assert.match(gm.hookSpecificOutput.tool_input.command, /\/sandbox\/run'? [0-9a-f]{32} ls$/);
      await g.drain();
      assert.ok(seen.some((d) => (d as { sandbox?: { ran?: string } }).sandbox?.ran === "bubblewrap"));
    } finally {
      g.close();
    }
  });

  (HAVE_BWRAP ? it : it.skip)("an ask nobody answered stays a refusal (no rewrite, never an allow); a human's Allow carries the rewrite", async () => {
    const g = guard("auto");
    try {
      const refused = JSON.parse(await body(g, "codex", codex("touch needs-a-human")));
      assert.equal(refused.hookSpecificOutput.permissionDecision, "deny");
      assert.equal(refused.hookSpecificOutput.updatedInput, undefined);
      const allowed = JSON.parse(await body(g, "codex", codex("touch needs-a-human", "t2"), approve));
      assert.equal(allowed.hookSpecificOutput.permissionDecision, "allow");
      assert.match(allowed.hookSpecificOutput.updatedInput.command, /sandbox\/run/);
      // A refusal by the rules is never rewritten.
      const blocked = JSON.parse(await body(g, "codex", codex("cat .env", "t3")));
      assert.equal(blocked.hookSpecificOutput.permissionDecision, "deny");
    } finally {
      g.close();
    }
  });

  (HAVE_BWRAP ? it : it.skip)("Codex where it would ask its user: no allow-carried rewrite (auto: no opinion, required: refused); a human's Allow still carries it", async () => {
    const a = guard("auto");
    const r = guard("required");
    try {
      assert.equal(await body(a, "codex", codex("python3 cleanup.py", "t1", "default")), "{}");
      const refused = JSON.parse(await body(r, "codex", codex("python3 cleanup.py", "t2", "default")));
      assert.equal(refused.hookSpecificOutput.permissionDecision, "deny");
      assert.match(refused.hookSpecificOutput.permissionDecisionReason, /codex would ask its user before this command/);
      const approved = JSON.parse(await body(a, "codex", codex("touch needs-a-human", "t3", "default"), approve));
      assert.equal(approved.hookSpecificOutput.permissionDecision, "allow");
      assert.match(approved.hookSpecificOutput.updatedInput.command, /sandbox\/run/);
    } finally {
      a.close();
      r.close();
    }
  });

  it("off: nothing changes (Codex gets no opinion)", async () => {
    const g = guard("off");
    try {
      assert.equal(await body(g, "codex", codex("python3 cleanup.py")), "{}");
    } finally {
      g.close();
    }
  });

  it("auto without bubblewrap on PATH: runs as before; required: refused with the reason and the fix", async () => {
    const a = guard("auto", "/nonexistent");
    const r = guard("required", "/nonexistent");
    try {
      assert.equal(await body(a, "codex", codex("python3 cleanup.py")), "{}");
      const refused = JSON.parse(await body(r, "gemini", gemini("python3 cleanup.py")));
      assert.equal(refused.decision, "deny");
      assert.match(refused.reason, /required here \(bubblewrap \(bwrap\) is not installed or not on PATH\)\. Fix: install it: sudo apt-get install bubblewrap/);
    } finally {
      a.close();
      r.close();
    }
  });

  it("required: an agent that cannot take a rewrite (Qwen Code) is refused; Claude Code (a sandbox of its own) is left alone", async () => {
    const g = guard("required");
    try {
      const q = JSON.parse(await body(g, "qwen", { ...codex("ls"), tool_name: "run_shell_command" }));
      assert.equal(q.hookSpecificOutput.permissionDecision, "deny");
      assert.match(q.hookSpecificOutput.permissionDecisionReason, /the qwen agent cannot have a shell call rewritten/);
      assert.doesNotMatch(await body(g, "claude", codex("ls")), /deny|sandbox\/run/);
    } finally {
      g.close();
    }
  });
});

describe("sandbox: what the kernel refused, read from a sandboxed call's output (the feed's path and rule)", () => {
  const p = policy("/w");
  it("Python, coreutils, sh and Node messages → the path and the policy entry that covers it", () => {
    const out = [
      "read failed: [Errno 13] Permission denied: '.env'",
      "delete failed: [Errno 30] Read-only file system: 'keep/a.txt'",
      "rm: cannot remove 'keep/b': Read-only file system",
      "ls: cannot open directory 'secrets': Permission denied",
      "sh: 1: cannot create keep/x: Read-only file system",
      "Error: EACCES: permission denied, open '/w/secrets/id'",
    ].join("\n");
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    assert.deepEqual(kernelRefusals(out, p, "/w").sort(byPath), [
      { path: "/w/.env", kind: "read", rule: ".env" },
      { path: "/w/keep/a.txt", kind: "write", rule: "keep/" },
      { path: "/w/keep/x", kind: "write", rule: "keep/" },
      { path: "/w/secrets/id", kind: "read", rule: "secrets/" },
      { path: "/w/keep/b", kind: "write", rule: "keep/" },
      { path: "/w/secrets", kind: "read", rule: "secrets/" },
    ].sort(byPath));
  });

  it("a refusal on a path the policy does not cover is not ours: not reported", () => {
    assert.deepEqual(kernelRefusals("cat: /root/x: Permission denied\nrm: cannot remove '/usr/bin/ls': Read-only file system", p, "/w"), []);
  });

  (HAVE_BWRAP ? it : it.skip)("from a real sandboxed run: the secret and the read-only folder, each with its rule", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dc-sandbox-ref-"));
    try {
      fs.mkdirSync(path.join(tmp, "keep"));
      fs.writeFileSync(path.join(tmp, "keep/a"), "x");
      fs.writeFileSync(path.join(tmp, ".env"), "K=v");
      const pol = policy(tmp);
      const runner = new SandboxRunner(path.join(tmp, "state"), "/usr/bin/bwrap");
      const r = spawnSync("/bin/sh", ["-c", runner.prepare(pol, "cat .env; rm -rf keep; python3 -c \"open('.env')\"").command], { cwd: tmp, encoding: "utf8" });
      const got = kernelRefusals(r.stdout + r.stderr, pol, tmp).map((x) => `${x.kind} ${path.relative(tmp, x.path)} ${x.rule}`);
      assert.ok(got.includes("read .env .env"), JSON.stringify(got));
      assert.ok(got.includes("write keep/a keep/"), JSON.stringify(got));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("sandbox: the feed marks a call that ran sandboxed", () => {
  const base = { time: "2026-12-04T00:00:00.000Z", agent: "codex", event: "PreToolUse", tool: "bash", target: "python3 cleanup.py", decision: "allow" as const, folder: "/w" };
  it("a record with sandbox.ran → the entry says so; one that could not run sandboxed, or none, does not", () => {
    assert.equal(toFeed({ ...base, sandbox: { ran: "bubblewrap", policy: "ab" } }).sandboxed, true);
    assert.equal(toFeed({ ...base, sandbox: { unsandboxed: "no bwrap" } }).sandboxed, undefined);
    assert.equal(toFeed(base).sandboxed, undefined);
  });
});
