// Cline (issue 25): the adapter (payload → engine calls, verdict → Cline's answer), the refusal
// command's quoting, the hook file and the launcher's last resort, install/uninstall and doctor.
// Several calls in one through the guard: agents-more.test.ts.
import { sandboxAvailability } from "../../src/core/sandbox/availability";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { clineWire, printableReason, refusalCommands } from "../../src/engine/agents/cline";
import { clineHookScript, clineHooksDir, clinePostHookScript, installCline, uninstallCline } from "../../src/install/cline";
import { clineCheck } from "../../src/install/doctor-agents-more";
import { installLauncher } from "../../src/install/launcher";
import { repoRoot } from "./support";

const DENY = { kind: "deny" as const, reason: "Blocked by Damage Control: recursive rm. Do not work around this; report it to the user." };
const clineCall = (name: string, input: unknown, ws = "/w") => ({ hookName: "tool_call", taskId: "t1", workspaceRoots: [ws], tool_call: { id: "c1", name, input }, preToolUse: { toolName: name, parameters: {} } });

describe("Cline: adapter", () => {
  it("run_commands: every command is a bash call of its own, in every input form Cline accepts", () => {
    const r = clineWire.read(clineCall("run_commands", { commands: ["ls", "rm -r data"] }));
    assert.deepEqual(r.calls, [{ tool: "bash", input: { command: "ls" } }, { tool: "bash", input: { command: "rm -r data" } }]);
    assert.deepEqual(r.call, { tool: "bash", input: { command: "ls" } });
    assert.equal(r.cwd, "/w");
    assert.equal(r.sessionId, "t1");
    assert.equal(r.event, "PreToolUse");
    const argv = clineWire.read(clineCall("run_commands", { commands: [{ command: "rm", args: ["-r", "my data"] }] }));
    assert.deepEqual(argv.call, { tool: "bash", input: { command: "rm -r 'my data'" } });
    assert.equal(argv.calls, undefined, "one call: no list");
    for (const input of ["rm -r data", ["rm -r data"], { command: "rm -r data" }, { cmd: "rm -r data" }, { commands: "rm -r data" }]) {
      assert.deepEqual(clineWire.read(clineCall("run_commands", input)).call, { tool: "bash", input: { command: "rm -r data" } }, JSON.stringify(input));
    }
    assert.match(clineWire.read(clineCall("run_commands", { commands: [42] })).malformed!, /string or \{command, args\}/);
    assert.match(clineWire.read(clineCall("run_commands", {})).malformed!, /commands/);
  });

  it("read_files, editor, apply_patch, search_codebase map onto read, write/edit, grep; other tools pass as they are", () => {
    assert.deepEqual(clineWire.read(clineCall("read_files", { files: [{ path: "/w/a" }, { path: "/w/.env", start_line: 1 }] })).calls, [
      { tool: "read", input: { file_path: "/w/a" } },
      { tool: "read", input: { file_path: "/w/.env" } },
    ]);
    for (const input of ["/w/.env", ["/w/.env"], { file_path: "/w/.env" }, { paths: "/w/.env" }, { file_paths: ["/w/.env"] }, { files: "/w/.env" }]) {
      assert.deepEqual(clineWire.read(clineCall("read_files", input)).call, { tool: "read", input: { file_path: "/w/.env" } }, JSON.stringify(input));
    }
    assert.ok(clineWire.read(clineCall("read_files", { files: [{ start_line: 1 }] })).malformed);
    assert.deepEqual(clineWire.read(clineCall("editor", { path: "/w/a", old_text: "x", new_text: "y" })).call, { tool: "edit", input: { file_path: "/w/a" } });
    assert.deepEqual(clineWire.read(clineCall("editor", { path: "/w/a", new_text: "y", insert_line: 3 })).call, { tool: "edit", input: { file_path: "/w/a" } });
    assert.deepEqual(clineWire.read(clineCall("editor", { path: "/w/a", new_text: "y" })).call, { tool: "write", input: { file_path: "/w/a" } });
    assert.ok(clineWire.read(clineCall("editor", { new_text: "y" })).malformed);
    assert.deepEqual(clineWire.read(clineCall("apply_patch", { input: "*** Begin Patch\n*** Delete File: data/keep.txt\n*** End Patch" })).call, { tool: "bash", input: { command: "rm -- 'data/keep.txt'" } });
    assert.deepEqual(clineWire.read(clineCall("search_codebase", { queries: ["x"] })).call, { tool: "grep", input: { path: "." } });
    assert.deepEqual(clineWire.read(clineCall("fetch_web_content", { requests: [] })).call, { tool: "fetch_web_content", input: { requests: [] } });
  });

  it("refuses what it cannot read; other hooks get no opinion", () => {
    assert.ok(clineWire.read("x").malformed);
    assert.ok(clineWire.read({ tool_call: { name: "run_commands", input: {} } }).malformed, "no hookName");
    assert.ok(clineWire.read({ hookName: "tool_call", tool_call: { input: {} } }).malformed);
    const other = clineWire.read({ hookName: "agent_start", workspaceRoots: ["/w"] });
    assert.deepEqual([other.malformed, other.call, other.event], [undefined, undefined, "agent_start"]);
  });

  it("answers: run_commands per call (override + context), any other tool cancels the task, no opinion is {}", () => {
    const run = clineWire.read(clineCall("run_commands", { commands: ["rm -r data"] }));
    assert.deepEqual(clineWire.render(run, DENY), { body: { overrideInput: refusalCommands(DENY.reason), context: DENY.reason }, exitCode: 0 });
    const edit = clineWire.read(clineCall("editor", { path: "/w/.env", new_text: "" }));
    assert.deepEqual(clineWire.render(edit, DENY), { body: { cancel: true, errorMessage: DENY.reason }, exitCode: 0 });
    assert.deepEqual(clineWire.render(run, { kind: "neutral" }).body, {});
    assert.deepEqual(clineWire.render(run, { kind: "allow", reason: "Allowed by the user in Damage Control: x" }).body, {});
    const ask = clineWire.render(run, { kind: "ask", reason: "Damage Control asks the user to confirm: x." }).body as { context: string };
    assert.match(ask.context, /^Blocked by Damage Control: x; Cline cannot ask here/);
    const malformed = clineWire.read(clineCall("run_commands", 7));
    assert.ok("overrideInput" in (clineWire.render(malformed, DENY).body as object), "a run_commands call we cannot read is replaced too");
  });
});

// PostToolUse as Cline 3.0.65 sends it (measured: a throwaway hook that dumped its stdin, the run
// of test/e2e/cline.test.ts's sandbox scenario); trimmed of the session fields.
const WRAPPER = "/s/sandbox/run 723a5f62d7619e45521ab97ac88c559d 'python3 cleanup.py'";
const OUT = "read failed: [Errno 13] Permission denied: '.env'\ndelete failed: [Errno 30] Read-only file system: 'app.yaml'\n";
const clineResult = (name: string, commands: string[], output: unknown = commands.map((c) => ({ query: c, result: c === WRAPPER ? OUT : "other\n", success: true }))) => ({
  hookName: "tool_result",
  taskId: "t1",
  workspaceRoots: ["/w"],
  iteration: 1,
  tool_result: { id: "call_1", name, input: { commands }, output, durationMs: 160 },
  postToolUse: { toolName: name, parameters: { commands: JSON.stringify(commands) }, result: JSON.stringify(output), success: true, executionTimeMs: 160 },
});

describe("Cline: PostToolUse (the kernel's refusals in the feed)", () => {
  it("a run_commands result is read into ToolResult: the command as it ran (our wrapper) and its output", () => {
    const r = clineWire.read(clineResult("run_commands", [WRAPPER]));
    assert.deepEqual([r.event, r.cwd, r.sessionId, r.malformed, r.call], ["ToolResult", "/w", "t1", undefined, undefined]);
    assert.deepEqual(r.result, { command: WRAPPER, output: OUT });
  });

  it("no result read from another tool, several commands (never one we rewrote), or an output it cannot match", () => {
    assert.equal(clineWire.read(clineResult("read_files", [WRAPPER])).result, undefined);
    assert.equal(clineWire.read(clineResult("run_commands", [WRAPPER, "ls"])).result, undefined);
    assert.equal(clineWire.read(clineResult("run_commands", [WRAPPER], [{ query: "ls", result: OUT }])).result, undefined);
    assert.equal(clineWire.read(clineResult("run_commands", [WRAPPER], 7)).result, undefined);
    for (const r of [clineWire.read(clineResult("read_files", [WRAPPER])), clineWire.read({ hookName: "tool_result", workspaceRoots: ["/w"] })]) {
      assert.deepEqual([r.event, r.malformed], ["ToolResult", undefined]);
    }
  });

  it("the answer is {} (Cline's no-op) whatever the guard says: never a cancel, an overrideInput or a context", () => {
    const r = clineWire.read(clineResult("run_commands", [WRAPPER]));
    for (const answer of [DENY, { kind: "ask" as const, reason: "x" }, { kind: "neutral" as const }, { kind: "allow" as const, reason: "x", run: "/s/sandbox/run p ls" }]) {
      assert.deepEqual(clineWire.render(r, answer), { body: {}, exitCode: 0 }, answer.kind);
    }
  });
});

describe("Cline: the refusal command", () => {
  const HOSTILE = [
    `x'; touch PWNED; echo '`,
    "$(touch PWNED)",
    "`touch PWNED`",
    "a\\'; touch PWNED #",
    "line\n touch PWNED",
    "& touch PWNED | tee PWNED2 > PWNED3 < /dev/null ; (touch PWNED)",
    "%PATH% ^& touch PWNED",
    "\u0000\u001b[31m; touch PWNED",
  ];

  it("prints only letters, digits and ,.:_/- — no quote, backslash or operator in any shell", () => {
    for (const h of HOSTILE) assert.match(printableReason(`Blocked by Damage Control: ${h}`), /^[A-Za-z0-9 ,.:_/-]*$/, h);
    assert.equal(printableReason("Blocked by Damage Control: recursive or forced rm (rm -r data)."), "Blocked by Damage Control: recursive or forced rm rm -r data .");
  });

  for (const shell of ["/bin/sh", "/bin/bash"]) {
    it(`run by ${shell}, hostile reasons print and exit 1, and nothing else runs`, () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dc-cline-quote-"));
      try {
        for (const h of HOSTILE) {
          const [command] = refusalCommands(`Blocked by Damage Control: ${h}`).commands;
          const r = spawnSync(shell, ["-c", command!], { cwd: dir, encoding: "utf8" });
          assert.equal(r.status, 1, `${h}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.equal(r.stderr, printableReason(`Blocked by Damage Control: ${h}`) + "\n");
          assert.deepEqual(fs.readdirSync(dir), [], `${h} ran something`);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("Cline: hook file, launcher, install and doctor", () => {
  const CLI = path.join(repoRoot, "dist/cli.js");
  let root: string;
  let ws: string;
  let home: string;
  let state: string;
  before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-cline-")));
    ws = path.join(root, "ws");
    home = path.join(root, "home");
    state = path.join(root, "state");
    fs.mkdirSync(path.join(ws, "data"), { recursive: true });
    fs.mkdirSync(home);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const runHook = (file: string, input: string, env: NodeJS.ProcessEnv = {}) =>
    spawnSync(file, [], { input, cwd: ws, encoding: "utf8", env: { PATH: process.env.PATH, HOME: home, DAMAGE_CONTROL_STATE_DIR: state, ...env }, timeout: 30_000 });

  it("the hook file refuses (cancel) when its launcher is missing, silent or prints garbage; passes a JSON object on", () => {
    const launcher = path.join(root, "fake-launcher");
    const file = path.join(root, "PreToolUse");
    fs.writeFileSync(file, clineHookScript(launcher), { mode: 0o755 });
    const cancel = (r: ReturnType<typeof runHook>) => JSON.parse(r.stdout) as { cancel?: boolean };
    assert.equal(cancel(runHook(file, "{}")).cancel, true, "launcher missing");
    for (const body of ["", "garbage", "exit 1", "echo '{not json'; exit 1"]) {
      fs.writeFileSync(launcher, `cat >/dev/null; ${body === "garbage" ? "echo garbage" : body}\n`);
      assert.equal(cancel(runHook(file, "{}")).cancel, true, body);
    }
    fs.writeFileSync(launcher, `cat >/dev/null; echo '{}'; exit 2\n`);
    const r = runHook(file, "{}");
    assert.deepEqual([r.status, JSON.parse(r.stdout)], [0, {}]);
  });

  it("the PostToolUse hook file hands the payload to the launcher and answers {} whatever it said (a cancel there would end the run)", () => {
    const launcher = path.join(root, "fake-post-launcher");
    const seen = path.join(root, "post-seen");
    const file = path.join(root, "PostToolUse");
    fs.writeFileSync(file, clinePostHookScript(launcher), { mode: 0o755 });
    const payload = JSON.stringify(clineResult("run_commands", [WRAPPER]));
    for (const body of [`cat > '${seen}'; echo '{}'`, `cat > '${seen}'; echo '{"cancel":true,"errorMessage":"x"}'; exit 2`, `cat > '${seen}'; echo garbage; exit 1`]) {
      fs.rmSync(seen, { force: true });
      fs.writeFileSync(launcher, body + "\n");
      const r = runHook(file, payload);
      assert.deepEqual([r.status, r.stdout], [0, "{}\n"], body);
      assert.equal(fs.readFileSync(seen, "utf8"), payload, "the launcher got the payload");
    }
    fs.rmSync(launcher);
    assert.deepEqual([runHook(file, payload).status, runHook(file, payload).stdout], [0, "{}\n"], "launcher missing");
  });

  it("the real launcher decides locally for cline; its last resort is Cline's cancel (never a shape Cline would run)", () => {
    const sh = installLauncher({ stateDir: state, distDir: path.join(repoRoot, "dist"), nodePath: process.execPath }).sh;
    const file = path.join(root, "PreToolUse-real");
    fs.writeFileSync(file, clineHookScript(sh), { mode: 0o755 });
    const rm = runHook(file, JSON.stringify(clineCall("run_commands", { commands: ["rm -rf data"] }, ws)));
    const body = JSON.parse(rm.stdout) as { overrideInput: unknown; context: string };
    assert.match(body.context, /Blocked by Damage Control: recursive or forced rm/);
    assert.deepEqual(body.overrideInput, refusalCommands(body.context));
    // Behaviour change on purpose (issue 34): the local decision takes the same sandbox step as the
    // endpoint, so an allowed command comes back wrapped in the runner where bubblewrap works
    // (mode auto), and unchanged ({}) where it does not.
    const ls = JSON.parse(runHook(file, JSON.stringify(clineCall("run_commands", { commands: ["ls"] }, ws))).stdout) as { overrideInput?: { commands: string[] } };
    if (sandboxAvailability().ok) assert.match(ls.overrideInput!.commands[0], /\/sandbox\/run [0-9a-f]+ ls$/);
    else assert.deepEqual(ls, {});
    assert.equal(JSON.parse(runHook(file, "not json {").stdout).cancel, true, "garbage in: the CLI's own refusal");
    // The launcher's last resort (its copy of the CLI gone): Cline's cancel, exit 2.
    fs.renameSync(path.join(state, "lib/cli.js"), path.join(state, "lib/cli.js.away"));
    try {
      const last = spawnSync("/bin/sh", [sh, "cline"], { input: "{}", cwd: ws, encoding: "utf8", env: { PATH: process.env.PATH, HOME: home } });
      assert.equal(last.status, 2);
      assert.deepEqual(Object.keys(JSON.parse(last.stdout)), ["cancel", "errorMessage"]);
    } finally {
      fs.renameSync(path.join(state, "lib/cli.js.away"), path.join(state, "lib/cli.js"));
    }
  });

  it("install keeps other hooks, refuses a PreToolUse of the user's own, uninstall removes only ours; doctor follows", () => {
    const env = { HOME: home };
    const dir = clineHooksDir({}, env);
    assert.equal(dir, path.join(home, ".cline/hooks"));
    assert.equal(clineHooksDir({}, { ...env, CLINE_DIR: "/c" }), "/c/hooks");
    assert.equal(clineHooksDir({ folder: "/p" }), "/p/.clinerules/hooks");
    assert.match(clineCheck(ws, env).message, /not installed/);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "PostToolUse"), "#!/bin/sh\necho '{}'\n");
    const launcher = path.join(root, "launcher-for-install");
    const r = installCline(dir, launcher);
    // The user's own PostToolUse is kept, and ours not written (it only feeds the panel).
    assert.deepEqual(r, { file: path.join(dir, "PreToolUse"), changed: true, post: { file: path.join(dir, "PostToolUse"), kept: true } });
    assert.equal(fs.readFileSync(path.join(dir, "PostToolUse"), "utf8"), "#!/bin/sh\necho '{}'\n");
    assert.equal(fs.statSync(r.file).mode & 0o111, 0o111, "executable");
    assert.equal(installCline(dir, launcher).changed, false);
    assert.equal(clineCheck(ws, env).status, "fail", "the launcher is missing");
    fs.writeFileSync(launcher, "#!/bin/sh\n");
    const ok = clineCheck(ws, env);
    assert.equal(ok.status, "ok");
    assert.match(ok.message, /cline hub stop/);
    // Another PreToolUse hook (any extension Cline runs, any folder it searches): a warning.
    fs.mkdirSync(path.join(ws, ".clinerules/hooks"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".clinerules/hooks/pretooluse.py"), "print('{}')\n");
    fs.writeFileSync(path.join(ws, ".clinerules/hooks/PreToolUse.txt"), "not a hook Cline runs\n");
    const warn = clineCheck(ws, env);
    assert.equal(warn.status, "warn");
    assert.match(warn.message, /also runs .*\.clinerules\/hooks\/pretooluse\.py: an overrideInput/);
    assert.doesNotMatch(warn.message, /PreToolUse\.txt|PostToolUse/);
    fs.rmSync(path.join(ws, ".clinerules"), { recursive: true });
    assert.equal(uninstallCline(dir).removed, true);
    assert.ok(fs.existsSync(path.join(dir, "PostToolUse")), "other hooks kept");
    fs.writeFileSync(path.join(dir, "PreToolUse"), "#!/bin/sh\necho mine\n");
    assert.throws(() => installCline(dir, launcher), /not Damage Control's/);
    assert.equal(uninstallCline(dir).removed, false, "not ours: kept");
    assert.equal(fs.readFileSync(path.join(dir, "PreToolUse"), "utf8"), "#!/bin/sh\necho mine\n");
  });

  it("install writes PostToolUse beside PreToolUse (executable, ours); uninstall removes both; reinstall is unchanged", () => {
    const dir = path.join(root, "post-hooks");
    const launcher = path.join(root, "launcher-for-post");
    const r = installCline(dir, launcher);
    assert.deepEqual(r, { file: path.join(dir, "PreToolUse"), changed: true, post: { file: path.join(dir, "PostToolUse"), changed: true } });
    assert.equal(fs.readFileSync(path.join(dir, "PostToolUse"), "utf8"), clinePostHookScript(launcher));
    assert.equal(fs.statSync(path.join(dir, "PostToolUse")).mode & 0o111, 0o111, "executable");
    assert.deepEqual(installCline(dir, launcher).post, { file: path.join(dir, "PostToolUse"), changed: false });
    fs.writeFileSync(path.join(dir, "PostToolUse.py"), "print('{}')\n");
    assert.deepEqual(uninstallCline(dir), { file: path.join(dir, "PreToolUse"), removed: true, postRemoved: true });
    assert.deepEqual(fs.readdirSync(dir), ["PostToolUse.py"], "the user's own hook kept");
  });

  it("CLI: install cline (--cwd) writes the hook and says to stop the hub daemon; a foreign PreToolUse is exit 3", () => {
    const e = { ...process.env, HOME: home, DAMAGE_CONTROL_STATE_DIR: path.join(root, "cli-state") };
    const i = spawnSync(process.execPath, [CLI, "install", "cline", "--cwd", ws], { encoding: "utf8", env: e });
    assert.equal(i.status, 0, i.stderr);
    assert.match(i.stdout, /cline hub stop/);
    assert.match(fs.readFileSync(path.join(ws, ".clinerules/hooks/PreToolUse"), "utf8"), /cli-state\/bin\/damage-control-hook/);
    assert.match(fs.readFileSync(path.join(ws, ".clinerules/hooks/PostToolUse"), "utf8"), /cli-state\/bin\/damage-control-hook/);
    assert.match(i.stdout, /PostToolUse: shows what the sandbox's kernel refused/);
    const u = spawnSync(process.execPath, [CLI, "uninstall", "cline", "--cwd", ws], { encoding: "utf8", env: e });
    assert.equal(u.status, 0, u.stderr);
    assert.equal(fs.existsSync(path.join(ws, ".clinerules/hooks/PreToolUse")), false);
    assert.equal(fs.existsSync(path.join(ws, ".clinerules/hooks/PostToolUse")), false);
    fs.writeFileSync(path.join(ws, ".clinerules/hooks/PreToolUse"), "#!/bin/sh\n");
    const refused = spawnSync(process.execPath, [CLI, "install", "cline", "--cwd", ws], { encoding: "utf8", env: e });
    assert.equal(refused.status, 3);
    assert.match(refused.stderr, /not Damage Control's/);
  });
});
