// Asking the endpoint from inside pi. node:http, not fetch: pi installs a proxy-aware global
// fetch dispatcher, which would send a loopback call through HTTP_PROXY (measured).
import * as http from "node:http";
import { lookupEndpoint } from "../hookserver/registry";
import { readToken } from "../hookserver/token";

export interface EndpointAnswer {
  block: boolean;
  reason?: string;
}

/** Where the endpoint guarding `cwd` is: the registry first, then the terminal's environment. */
export function findEndpoint(cwd: string): { url: string; token: string } | undefined {
  const reg = lookupEndpoint(cwd);
  const url = reg?.url ?? process.env.DAMAGE_CONTROL_URL;
  const token = process.env.DAMAGE_CONTROL_TOKEN || readToken();
  return url && token ? { url, token } : undefined;
}

/** The endpoint's answer, or an Error saying why there is none (then the caller decides locally). */
export function askEndpoint(
  endpoint: { url: string; token: string },
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<EndpointAnswer | Error> {
  const data = JSON.stringify(body);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL("/pi/tool-call", endpoint.url);
    } catch {
      return resolve(new Error(`bad endpoint URL ${endpoint.url}`));
    }
    const req = http.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.token}`, "content-length": Buffer.byteLength(data) },
      timeout: timeoutMs,
      ...(signal && { signal }),
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (e) => resolve(e));
      res.on("end", () => {
        if (res.statusCode !== 200) return resolve(new Error(`endpoint answered HTTP ${res.statusCode}`));
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (typeof parsed?.block !== "boolean") return resolve(new Error("endpoint answer has no block field"));
          resolve({ block: parsed.block, ...(typeof parsed.reason === "string" && { reason: parsed.reason }) });
        } catch {
          resolve(new Error("endpoint answer is not JSON"));
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`endpoint did not answer within ${timeoutMs} ms`)));
    req.on("error", (e) => resolve(e));
    req.end(data);
  });
}
