// The one client of the endpoint: every command hook (`damage-control hook <agent>`) and the pi
// extension send the agent's payload to `POST /hook/<agent>` of the endpoint guarding the cwd.
// node:http, not fetch: pi installs a proxy-aware global fetch dispatcher, which would send a
// loopback call through HTTP_PROXY (measured). Any failure is an Error: the caller then decides
// locally with the same rules, never lets the call through.
import * as http from "node:http";
import type { AgentId } from "../engine/agents/types";
import { distrustOf } from "./endpoint-trust";
import { lookupEndpoint, type Distrusted } from "./registry";
import { readToken } from "./token";

export interface EndpointRef {
  url: string;
  token: string;
}

/**
 * Where the endpoint guarding `cwd` is: the registry first, then the terminal's environment, each
 * only when its process passes the same checks (endpoint-trust.ts). `distrusted` collects why an
 * endpoint was passed over: the caller then decides locally and says so.
 */
export function findEndpoint(cwd: string, distrusted: string[] = []): EndpointRef | undefined {
  const skipped: Distrusted[] = [];
  const reg = lookupEndpoint(cwd, undefined, { skipped });
  for (const s of skipped) distrusted.push(`the endpoint at ${s.reg.url} (pid ${s.reg.pid}) is not trusted: ${s.reason}`);
  let url = reg?.url;
  const fromEnv = process.env.DAMAGE_CONTROL_URL;
  if (!url && fromEnv) {
    const why = distrustOf({ url: fromEnv });
    if (why) distrusted.push(`the endpoint at ${fromEnv} ($DAMAGE_CONTROL_URL) is not trusted: ${why}`);
    else url = fromEnv;
  }
  const token = process.env.DAMAGE_CONTROL_TOKEN || readToken();
  return url && token ? { url, token } : undefined;
}

/** The endpoint's answer body (a JSON object), or an Error saying why there is none. */
export function postHook(
  endpoint: EndpointRef,
  agent: AgentId,
  payload: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<Record<string, unknown> | Error> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(`/hook/${agent}`, endpoint.url);
    } catch {
      return resolve(new Error(`bad endpoint URL ${endpoint.url}`));
    }
    const req = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.token}`, "content-length": Buffer.byteLength(payload) },
      timeout: opts.timeoutMs,
      ...(opts.signal && { signal: opts.signal }),
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (e) => resolve(e));
      res.on("end", () => {
        if (res.statusCode !== 200) return resolve(new Error(`endpoint answered HTTP ${res.statusCode}`));
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
          resolve(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : new Error("endpoint answer is not a JSON object"));
        } catch {
          resolve(new Error("endpoint answer is not JSON"));
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`endpoint did not answer within ${opts.timeoutMs} ms`)));
    req.on("error", (e) => resolve(e));
    req.end(payload);
  });
}
