// The endpoint called the way an agent's hooks call it: one request at a time, each server in
// turn, PERIOD_MS between two requests to the same server (Claude Code's calls come every few tens
// of milliseconds), each request a call of its own (its own command and tool-call id). A request
// then meets an endpoint left idle, its code and data out of the CPU's caches: the cost the HTTP
// hook's time inside Claude Code follows, without the agent's own noise.
import * as http from "node:http";

export interface PacedTarget {
  label: string;
  url: string;
  /** Bearer token ("" for the bare server, which takes any request). */
  token: string;
  /** The cwd the payloads carry. */
  workspace: string;
}

/** Between two requests to the same server. */
export const PERIOD_MS = 45;
/** The first requests of each server are left out: its JIT and the client's are still warming. */
export const WARM_UP = 30;

/** Round trips in µs per target label, `requests` each after the warm-up, the order rotating each turn. */
export async function pacedRoundTrips(targets: PacedTarget[], requests: number): Promise<Record<string, number[]>> {
  const agent = new http.Agent({ keepAlive: true });
  const times: Record<string, number[]> = {};
  const gap = Math.round(PERIOD_MS / targets.length);
  try {
    for (let i = 0; i < requests + WARM_UP; i++) {
      for (const t of [...targets.slice(i % targets.length), ...targets.slice(0, i % targets.length)]) {
        const body = JSON.stringify({ session_id: "paced", transcript_path: "/tmp/paced.jsonl", cwd: t.workspace, permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `echo step-${i} > /dev/null`, description: "a step" }, tool_use_id: `toolu_paced_${i}` });
        const us = await roundTrip(agent, t, body);
        if (i >= WARM_UP) (times[t.label] ??= []).push(us);
        await new Promise((r) => setTimeout(r, gap));
      }
    }
  } finally {
    agent.destroy();
  }
  return times;
}

/** One round trip in µs: request sent → answer read, over a kept-alive connection. */
function roundTrip(agent: http.Agent, t: PacedTarget, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(`${t.url}/hook/claude`, { method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${t.token}`, "content-length": Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${t.label} answered HTTP ${res.statusCode}`));
      res.resume();
      res.on("end", () => resolve(Number(process.hrtime.bigint() - started) / 1e3));
    });
    req.on("error", reject);
    req.end(body);
  });
}
