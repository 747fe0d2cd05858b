// damage-control hook codex | gemini | copilot-cli | copilot: the command hooks of Codex CLI,
// Gemini CLI and Copilot CLI (issue 18). Reads the agent's stdin, asks the endpoint guarding its
// cwd (POST /hook/<agent>), decides locally with the same rules when that fails, and prints the
// answer in the shape the agent honours — exit 0 with a deny JSON for every failure of ours,
// since exit 1, garbage or a timeout lets these agents RUN the call (more-agents.md).
//   `hook copilot` serves both entries `install copilot` writes into .github/hooks: the Copilot
//   CLI lower-case preToolUse stdin ({toolName, toolArgs}) and the VS Code-format Claude-shaped
//   stdin (hook_event_name) — each answered in its own shape (h3's launcher replaces this later).
import { isCopilotCliPayload } from "../engine/agents/copilot-cli";
import { blockReason } from "../engine/reason";
import { renderClaudeAnswer } from "../engine/render";
import { agentRefusal, handleAgentHook, isMoreAgent, wireOf, type MoreAgentId } from "../hookserver/agent-hook";
import type { Asker } from "../hookserver/asker";
import { endpointDecider } from "../hookserver/decider";
import { Guard } from "../hookserver/guard";
import { findRulesFile, folderOfRulesFile } from "../hookserver/rules-store";
import { forward as forwardText } from "./hook";

export const AGENT_HOOKS = ["codex", "gemini", "copilot-cli", "copilot"] as const;

const localAsker: Asker = {
  async ask() {
    return { approved: false, why: "the Damage Control endpoint could not be reached, so nobody could confirm it" };
  },
};

type Printed = { body: unknown; exitCode: number };

/** Runs one hook call; prints exactly one answer; resolves to the exit code. Never rejects. */
export async function runAgentHook(agentArg: string, timeoutMs: number): Promise<number> {
  let done = false;
  const print = (a: Printed): number => {
    if (done) return 0;
    done = true;
    process.stdout.write(JSON.stringify(a.body) + "\n");
    return a.exitCode;
  };
  // The agent's own hook timeout RUNS the call: answer a refusal before it, whatever is stuck.
  const fallbackAgent: MoreAgentId = agentArg === "copilot" ? "copilot-cli" : isMoreAgent(agentArg) ? agentArg : "codex";
  const watchdog = setTimeout(() => {
    process.exitCode = print(agentRefusal(fallbackAgent, `Damage Control did not decide within ${Math.round(timeoutMs / 1000)} s`));
    process.exit();
  }, timeoutMs + 3000);
  watchdog.unref();
  try {
    return print(await answer(agentArg, timeoutMs));
  } catch (e) {
    return print(agentRefusal(fallbackAgent, `Damage Control failed (${(e as Error).message})`));
  } finally {
    clearTimeout(watchdog);
  }
}

async function answer(agentArg: string, timeoutMs: number): Promise<Printed> {
  let raw: string;
  try {
    raw = await readAll(process.stdin);
  } catch (e) {
    return agentRefusal(agentArg === "copilot" ? "copilot-cli" : (agentArg as MoreAgentId), `cannot read the hook input (${(e as Error).message})`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    payload = undefined;
  }
  // Copilot: the lower-case entry's stdin, or the VS Code-format (Claude-shaped) entry's.
  if (agentArg === "copilot" && payload !== undefined && !isCopilotCliPayload(payload)) return claudeShaped(raw, payload, timeoutMs);
  const agent: MoreAgentId = agentArg === "copilot" ? "copilot-cli" : (agentArg as MoreAgentId);
  if (payload === undefined) return agentRefusal(agent, "malformed hook request: stdin is not valid JSON");
  const req = wireOf(agent).read(payload);
  const cwd = req.cwd && req.cwd.startsWith("/") ? req.cwd : process.cwd();
  const forwarded = await forward(`/hook/${agent}`, raw, cwd, timeoutMs);
  if (forwarded !== undefined) return { body: forwarded, exitCode: 0 };
  return withLocalGuard(cwd, async (guard) => handleAgentHook(guard, agent, payload));
}

/** The VS Code-format entry Copilot CLI (and VS Code's agent) runs: Claude-shaped in and out. */
async function claudeShaped(raw: string, payload: unknown, timeoutMs: number): Promise<Printed> {
  const p = (typeof payload === "object" && payload !== null ? payload : {}) as Record<string, unknown>;
  const event = typeof p.hook_event_name === "string" ? p.hook_event_name : "PreToolUse";
  const cwd = typeof p.cwd === "string" && p.cwd.startsWith("/") ? p.cwd : process.cwd();
  const forwarded = await forward("/claude/hook", raw, cwd, timeoutMs);
  if (forwarded !== undefined) return { body: forwarded, exitCode: 0 };
  try {
    return await withLocalGuard(cwd, async (guard) => ({ body: await guard.claudeHook(payload, "vscode"), exitCode: 0 }));
  } catch (e) {
    return { body: renderClaudeAnswer(event, { kind: "deny", reason: blockReason(`Damage Control could not decide locally (${(e as Error).message})`) }), exitCode: 0 };
  }
}

/** A local decision: the folder whose rules file covers cwd, else cwd itself. */
async function withLocalGuard<T>(cwd: string, f: (guard: Guard) => Promise<T>): Promise<T> {
  const rulesFile = findRulesFile(cwd);
  const folder = rulesFile ? folderOfRulesFile(rulesFile) : cwd;
  const guard = new Guard({ folders: [folder], asker: localAsker, decider: endpointDecider() });
  try {
    const out = await f(guard);
    await guard.drain();
    return out;
  } finally {
    guard.close();
  }
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

/** The endpoint's answer (a JSON object), or undefined when it could not give one. */
async function forward(route: string, body: string, cwd: string, timeoutMs: number): Promise<Record<string, unknown> | undefined> {
  const text = await forwardText(body, cwd, timeoutMs, route);
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}
