// damage-control hook claude: the command hook for Claude Code builds that ignore onFailure.
// Forwards the hook input to the endpoint; when the endpoint cannot be reached (down, slow,
// broken, wrong token) it decides locally from the same rules file. Fail-closed either way:
// an error here prints a deny and exits 2, which blocks a PreToolUse call.
import * as http from "node:http";
import { renderClaudeAnswer } from "../engine/render";
import { blockReason } from "../engine/reason";
import { endpointDecider } from "../hookserver/decider";
import { Guard } from "../hookserver/guard";
import { findRulesFile, folderOfRulesFile } from "../hookserver/rules-store";
import { lookupEndpoint } from "../hookserver/registry";
import { readToken } from "../hookserver/token";
import type { Asker } from "../hookserver/asker";
import { args, CliError, EXIT, readStdin } from "./io";
import { AGENT_HOOKS, runAgentHook } from "./hook-agent";

export const HOOK_HELP = `Usage: damage-control hook claude [--timeout SECONDS] [--local]
       damage-control hook copilot [--timeout SECONDS] [--local]

hook copilot: the command hook of VS Code's agent and of Copilot CLI (the caller is told apart by
its input). Answers in VS Code's shape; every failure is exit 2 + a deny, never exit 1.
--local: do not ask the endpoint, decide from the rules here (the fast path already tried it).

A Claude Code command hook: reads the hook input on stdin and prints the answer JSON.
Asks the endpoint that guards the input's cwd ($DAMAGE_CONTROL_URL / $DAMAGE_CONTROL_TOKEN
when set, else the endpoint registry); if it cannot be reached, decides locally with the same
rules, refusing what would need a human. Exit codes: 0 answered (the JSON says allow or
deny), 2 refused because of an error (Claude Code blocks on exit 2).`;

const localAsker: Asker = {
  async ask() {
    return { approved: false, why: "the Damage Control endpoint could not be reached, so nobody could confirm it" };
  },
};

export async function runHook(argv: string[]): Promise<number> {
  const { values, positionals } = args(argv, { timeout: { type: "string" }, local: { type: "boolean" } }, true);
  const timeoutMs = Math.max(1, Number(values.timeout ?? "40")) * 1000;
  // VS Code's agent / Copilot CLI (src/cli/hook-agent.ts): never exit 1, never a hang.
  if ((AGENT_HOOKS as readonly string[]).includes(positionals[0])) return runAgentHook(positionals[0], { local: values.local === true, timeoutMs });
  if (positionals[0] !== "claude") throw new CliError('hook takes an agent: "damage-control hook claude" or "damage-control hook copilot"');
  const raw = readStdin();
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(raw);
  } catch {
    return refuse("PreToolUse", "malformed hook request: stdin is not valid JSON");
  }
  const event = typeof payload?.hook_event_name === "string" ? payload.hook_event_name : "PreToolUse";
  const cwd = typeof payload?.cwd === "string" ? payload.cwd : process.cwd();

  const forwarded = values.local ? undefined : await forward(raw, cwd, timeoutMs);
  if (forwarded !== undefined) {
    process.stdout.write(forwarded + "\n");
    return EXIT.ok;
  }
  // Local decision: the folder whose rules file covers cwd, else cwd itself.
  try {
    const rulesFile = findRulesFile(cwd);
    const folder = rulesFile ? folderOfRulesFile(rulesFile) : cwd;
    const guard = new Guard({ folders: [folder], asker: localAsker, decider: endpointDecider() });
    const body = await guard.claudeHook(payload);
    guard.close();
    process.stdout.write(JSON.stringify(body) + "\n");
    return EXIT.ok;
  } catch (e) {
    return refuse(event, `Damage Control could not decide locally (${(e as Error).message})`);
  }
}

function refuse(event: string, why: string): number {
  const reason = blockReason(why);
  process.stdout.write(JSON.stringify(renderClaudeAnswer(event, { kind: "deny", reason })) + "\n");
  process.stderr.write(reason + "\n");
  return 2;
}

/** The endpoint's answer body, or undefined when it could not give a valid one. */
async function forward(body: string, cwd: string, timeoutMs: number): Promise<string | undefined> {
  const reg = lookupEndpoint(cwd);
  const base = reg?.url ?? process.env.DAMAGE_CONTROL_URL;
  const token = process.env.DAMAGE_CONTROL_TOKEN || readToken();
  if (!base || !token) return undefined;
  let url: URL;
  try {
    url = new URL("/claude/hook", base);
  } catch {
    return undefined;
  }
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "content-length": Buffer.byteLength(body) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 200) return resolve(undefined);
          try {
            const parsed = JSON.parse(text || "{}");
            resolve(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? JSON.stringify(parsed) : undefined);
          } catch {
            resolve(undefined);
          }
        });
        res.on("error", () => resolve(undefined));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve(undefined));
    req.end(body);
  });
}
