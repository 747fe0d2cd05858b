// damage-control hook copilot|vscode: the command hook of VS Code's agent (and Copilot CLI).
// The POSIX fast path (<state>/bin/damage-control-hook, see src/install/launcher.ts) forwards stdin
// to the endpoint without starting Node; this is what it falls back to, and what runs when the
// fast path cannot (no curl, no sh). VS Code's hooks fail OPEN on exit 1, on non-JSON output and
// on a timeout, so every way this can go wrong ends as a deny JSON on stdout and exit 2:
//   - the endpoint answers → its body (exit 0);
//   - it cannot (down, 401, 5xx, silent for IDLE_MS, not JSON) → decide locally from the same
//     rules, refusing what would need a human (nobody can be asked from here);
//   - anything else (bad stdin, a crash) → exit 2 + deny.
// --local skips the endpoint (the fast path already tried it).
import * as http from "node:http";
import { copilotCaller } from "../engine/agents/copilot";
import type { AgentWire } from "../engine/agents/types";
import { vscodeWire } from "../engine/agents/vscode";
import { blockReason } from "../engine/reason";
import type { Asker } from "../hookserver/asker";
import { inProcessDecider } from "../hookserver/decider";
import { Guard } from "../hookserver/guard";
import { lookupEndpoint } from "../hookserver/registry";
import { findRulesFile, folderOfRulesFile } from "../hookserver/rules-store";
import { readToken } from "../hookserver/token";
import { EXIT } from "./io";
import * as fs from "node:fs";

/** The agents `hook` serves here (claude has its own file). */
export const AGENT_HOOKS = ["copilot", "vscode", "copilot-cli"] as const;

/** No byte from the endpoint for this long: it is stuck (a pending ask sends keep-alive bytes). */
export const IDLE_MS = 4000;

const localAsker: Asker = {
  async ask() {
    return { approved: false, why: "the Damage Control endpoint could not be reached, so nobody could confirm it" };
  },
};

function wireFor(agent: string, payload: unknown): AgentWire {
  return agent === "copilot" || agent === "copilot-cli" ? copilotCaller(payload) : vscodeWire;
}

function write(body: unknown): void {
  fs.writeSync(1, JSON.stringify(body) + "\n");
}

/** Exit 2 and a deny JSON: both shapes VS Code (and Copilot CLI) honour as a refusal. */
function refuse(wire: AgentWire, why: string): number {
  const reason = blockReason(why);
  try {
    write(wire.render({ agent: wire.id, event: "PreToolUse" }, { kind: "deny", reason }).body);
  } catch {
    /* stdout gone: exit 2 still denies */
  }
  try {
    fs.writeSync(2, reason + "\n");
  } catch {
    /* nothing more to do */
  }
  return 2;
}

export async function runAgentHook(agent: string, opts: { local: boolean; timeoutMs: number }): Promise<number> {
  let wire: AgentWire = wireFor(agent, undefined);
  try {
    let raw: string;
    try {
      raw = fs.readFileSync(0, "utf8");
    } catch (e) {
      return refuse(wire, `malformed hook request: standard input could not be read (${(e as Error).message})`);
    }
    if (raw.trim() === "") return refuse(wire, "malformed hook request: standard input is empty");
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      return refuse(wire, "malformed hook request: stdin is not valid JSON");
    }
    wire = wireFor(agent, payload);
    const p = (typeof payload === "object" && payload !== null ? payload : {}) as Record<string, unknown>;
    const cwd = typeof p.cwd === "string" && p.cwd.startsWith("/") ? p.cwd : process.cwd();

    if (!opts.local) {
      const forwarded = await forward(raw, cwd, agent, opts.timeoutMs);
      if (forwarded !== undefined) {
        fs.writeSync(1, forwarded + "\n");
        return EXIT.ok;
      }
    }
    // Local decision: the folder whose rules file covers cwd, else cwd itself.
    const rulesFile = findRulesFile(cwd);
    const folder = rulesFile ? folderOfRulesFile(rulesFile) : cwd;
    const guard = new Guard({ folders: [folder], asker: localAsker, decider: inProcessDecider });
    try {
      const answer = await guard.agentHook(agent, payload);
      await guard.drain();
      write(answer.body);
      return answer.exitCode;
    } finally {
      guard.close();
    }
  } catch (e) {
    return refuse(wire, `Damage Control could not decide locally (${(e as Error).message})`);
  }
}

/** The endpoint's answer body (a JSON object), or undefined when it could not give one. */
function forward(body: string, cwd: string, agent: string, timeoutMs: number): Promise<string | undefined> {
  const reg = lookupEndpoint(cwd);
  const base = reg?.url ?? process.env.DAMAGE_CONTROL_URL;
  // The token file first: VS Code runs hooks with the extension host's environment, and an
  // agent started elsewhere has no DAMAGE_CONTROL_TOKEN at all.
  const token = readToken() || process.env.DAMAGE_CONTROL_TOKEN;
  if (!base || !token) return Promise.resolve(undefined);
  let url: URL;
  try {
    url = new URL(`/hook/${agent}`, base);
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(overall);
      resolve(v);
    };
    const overall = setTimeout(() => {
      req.destroy(new Error("timeout"));
      finish(undefined);
    }, timeoutMs);
    overall.unref();
    const req = http.request(
      url,
      // timeout = socket idle: a pending ask keeps the socket busy with keep-alive bytes.
      { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "content-length": Buffer.byteLength(body) }, timeout: IDLE_MS, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          if (res.statusCode !== 200) return finish(undefined);
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
            finish(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? JSON.stringify(parsed) : undefined);
          } catch {
            finish(undefined);
          }
        });
        res.on("error", () => finish(undefined));
        res.on("aborted", () => finish(undefined));
      },
    );
    req.on("timeout", () => {
      req.destroy(new Error("idle"));
      finish(undefined);
    });
    req.on("error", () => finish(undefined));
    req.end(body);
  });
}
