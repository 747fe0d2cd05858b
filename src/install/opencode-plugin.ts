// The OpenCode plugin `damage-control install opencode` writes: plain ESM JavaScript that OpenCode
// loads in-process (Bun). Its tool.execute.before runs the launcher (the Node hook: the endpoint when trusted, the
// Node local decision behind it) with the call on stdin, and throws, which refuses the call and
// shows the message to the model, on a deny and on EVERY failure: the launcher missing, a spawn
// error, a non-zero exit, an answer that is not JSON, or no answer within the limit (OpenCode sets
// no timeout of its own: a hook that hangs hangs the run, so the one await here is bounded).

export const OPENCODE_PLUGIN_MARK = "Damage Control plugin for OpenCode";

export function opencodePlugin(o: { launcher: string; limitSeconds: number }): string {
  return `// ${OPENCODE_PLUGIN_MARK} (written by \`damage-control install opencode\`; do not edit).
import { spawn } from "node:child_process";

const LAUNCHER = ${JSON.stringify(o.launcher)};
const LIMIT_MS = ${Math.round(o.limitSeconds * 1000)};
const blocked = (why) => (why.startsWith("Blocked by Damage Control") ? why : \`Blocked by Damage Control: \${why}. Do not work around this; report it to the user.\`);

/** The launcher's verdict on one call: undefined to go ahead, {run} to go ahead with that command instead (the guard's sandbox), else the refusal's text. */
function judge(payload) {
  return new Promise((resolve) => {
    let done = false;
    let timer;
    const finish = (v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    };
    let child;
    try {
      child = spawn("/bin/sh", [LAUNCHER, "opencode"], { cwd: payload.cwd, env: { ...process.env, PWD: payload.cwd }, stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      return finish(blocked(\`the guard could not start (\${e && e.message})\`));
    }
    timer = setTimeout(() => {
      try { child.kill("SIGKILL"); } catch {}
      finish(blocked("the guard did not answer in time"));
    }, LIMIT_MS);
    let out = "";
    let err = "";
    child.on("error", (e) => finish(blocked(\`the guard could not start (\${e && e.message})\`)));
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => {
      let body;
      try { body = JSON.parse(out.trim()); } catch { return finish(blocked(err.trim() || "the guard's answer was not JSON")); }
      if (typeof body !== "object" || body === null || Array.isArray(body)) return finish(blocked("the guard's answer was not a JSON object"));
      const reason = body.reason || body.permissionDecisionReason || err.trim();
      if (code !== 0 || body.decision === "deny" || body.permissionDecision === "deny") return finish(blocked(reason || \`the guard refused (exit \${code})\`));
      finish(typeof body.command === "string" ? { run: body.command } : undefined);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The command each rewritten call ran as (by call id), for its tool.execute.after; bounded. */
const ran = new Map();

export const DamageControl = async (ctx) => ({
  "tool.execute.before": async (input, output) => {
    const cwd = (ctx && ctx.directory) || process.cwd();
    const verdict = await judge({ hook_event_name: "PreToolUse", tool: input && input.tool, args: output && output.args, cwd, sessionID: input && input.sessionID, callID: input && input.callID });
    if (typeof verdict === "string") throw new Error(verdict);
    // The guard's sandbox: OpenCode runs the args as the plugin leaves them (and its transcript keeps them so).
    if (verdict && input && input.tool === "bash" && output && output.args) {
      output.args.command = verdict.run;
      ran.set(input.callID, verdict.run);
      if (ran.size > 256) ran.delete(ran.keys().next().value);
    }
  },
  // After a sandboxed bash call: the guard reads what the kernel refused, for the feed. It never
  // changes the result, and no failure of it reaches the agent.
  "tool.execute.after": async (input, output) => {
    try {
      const command = input && ran.get(input.callID);
      if (command === undefined) return;
      ran.delete(input.callID);
      if (!output || typeof output.output !== "string") return;
      const cwd = (ctx && ctx.directory) || process.cwd();
      await judge({ hook_event_name: "PostToolUse", tool: "bash", args: { command }, output: output.output, cwd, sessionID: input.sessionID, callID: input.callID });
    } catch {}
  },
});
`;
}
