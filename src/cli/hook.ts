// damage-control hook <agent>: the command hook for agents (and Claude Code builds) that take
// no HTTP hook, or ignore onFailure. Sends the hook input to the endpoint guarding its cwd; when
// that cannot answer (down, slow, broken, wrong token) it decides locally from the same rules
// file with the same bounded decider. Fail-closed either way: an error here prints a deny and
// exits 2, which the agent honours as a block.
import { AGENTS, isAgentId, type AgentId } from "../engine/agents";
import { blockReason } from "../engine/reason";
import { TOOL_RESULT } from "../engine/events";
import { nobodyAsker } from "../core/asker";
import { findEndpoint, postHook } from "../core/endpoint-client";
import { LocalGuards } from "../core/local-guard";
import { args, CliError, EXIT, readStdin } from "./io";
import { copilotCaller } from "../engine/agents/copilot";

export const HOOK_HELP = `Usage: damage-control hook <agent> [--timeout SECONDS] [--local]

hook copilot: the command hook of VS Code's agent and of Copilot CLI (the caller is told apart by
its input). --local: decide from the rules here without asking the endpoint.

A command hook: reads the agent's hook input on stdin and prints the answer JSON. Agents:
claude, pi, vscode, copilot-cli, codex, gemini, qwen, opencode, cline.
Asks the endpoint that guards the input's cwd ($DAMAGE_CONTROL_URL / $DAMAGE_CONTROL_TOKEN
when set, else the endpoint registry); if it cannot be reached, decides locally with the same
rules, refusing what would need a human. Exit codes: 0 answered (the JSON says allow or
deny), 2 refused because of an error (Claude Code blocks on exit 2).`;

const UNREACHABLE = nobodyAsker("the Damage Control endpoint could not be reached, so nobody could confirm it");

/** `hook copilot`: the hook file VS Code's agent and Copilot CLI share; the caller is told by its input. */
const DISPATCHED = "copilot";

/** No byte from the endpoint for this long: it is stuck (a pending ask sends keep-alive bytes). */
export const IDLE_MS = 4000;

export async function runHook(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, { timeout: { type: "string" }, local: { type: "boolean" } }, true);
  const named = positionals[0];
  if (!isAgentId(named) && named !== DISPATCHED) throw new CliError(`hook takes an agent: "damage-control hook claude" (one of ${[...Object.keys(AGENTS), DISPATCHED].join(", ")})`);
  let agent: AgentId = named === DISPATCHED ? "vscode" : (named as AgentId);
  const timeoutMs = Math.max(1, Number(values.timeout ?? "40")) * 1000;
  // VS Code's hooks fail OPEN on any exit but 0 and 2: from here on every failure is a refusal.
  try {
    let raw: string;
    try {
      raw = readStdin();
    } catch (e) {
      return refuse(agent, `malformed hook request: standard input could not be read (${(e as Error).message})`);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      return refuse(agent, raw.trim() === "" ? "malformed hook request: standard input is empty" : "malformed hook request: stdin is not valid JSON");
    }
    if (named === DISPATCHED) agent = copilotCaller(payload).id;
    const req = AGENTS[agent].read(payload);
    const cwd = req.cwd ?? process.cwd();

    // --local: decide here without asking any endpoint (the caller already tried, or wants none).
    const distrusted: string[] = [];
    const endpoint = values.local ? undefined : findEndpoint(cwd, distrusted);
    // Why the local decision, not the endpoint, answers (the agent's hook log shows stderr).
    for (const d of distrusted) process.stderr.write(`Damage Control: ${d}; deciding locally with the folder's rules\n`);
    if (endpoint) {
      // Idle limit, not a total one: a pending ask keeps the socket busy with keep-alive bytes.
      const answered = await postHook(endpoint, agent, raw, { timeoutMs: IDLE_MS, signal: AbortSignal.timeout(timeoutMs) });
      if (!(answered instanceof Error)) {
        process.stdout.write(JSON.stringify(answered) + "\n");
        return EXIT.ok;
      }
    }
    const local = new LocalGuards();
    try {
      const answer = await local.for(cwd).handle(agent, payload, { asker: UNREACHABLE });
      process.stdout.write(JSON.stringify(answer.body) + "\n");
      if (answer.stderr) process.stderr.write(answer.stderr + "\n");
      return answer.exitCode;
    } catch (e) {
      return refuse(agent, `Damage Control could not decide locally (${(e as Error).message})`, req.event);
    } finally {
      await local.close();
    }
  } catch (e) {
    return refuse(agent, `Damage Control could not decide (${(e as Error).message})`);
  }
}

/** A refusal in the agent's own shape, on stdout, and exit 2 (which blocks in every agent). */
function refuse(agent: AgentId, why: string, event = "PreToolUse"): number {
  const reason = blockReason(why);
  // A post-tool event: the call already ran, there is nothing to refuse (an exit 2 would only
  // put our failure in front of the model). No opinion, and the failure on stderr.
  if (event === TOOL_RESULT) {
    process.stdout.write("{}\n");
    process.stderr.write(reason + "\n");
    return 0;
  }
  const wire = AGENTS[agent];
  const req = { agent, event, malformed: why };
  process.stdout.write(JSON.stringify(wire.render(req, { kind: "deny", reason }).body) + "\n");
  process.stderr.write(reason + "\n");
  return 2;
}
