// The endpoint: node:http on 127.0.0.1, HTTP only — every decision is the core guard's. Every
// request must carry the bearer token and a Host of 127.0.0.1/localhost with our port (DNS
// rebinding); no CORS headers are ever sent; bodies over 1 MiB are refused. What cannot be
// understood is refused, never allowed.
//
//   POST /hook/<agent>    the agent's payload → its answer body (agents: engine/agents/index.ts)
//   POST /claude/hook     alias of /hook/claude: Claude Code hook input (any event) → that event's JSON
//   POST /pi/tool-call    alias of /hook/pi: {toolName, input, cwd} → {block, reason}
//   GET  /health          version and rule counts, no secrets
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { isAgentId, type AgentId } from "../engine/agents";
import type { Asker } from "../core/asker";
import { VERSION } from "../core/build-info";
import { ruleCounts } from "../core/counts";
import type { Guard } from "../core/guard";
import { bearerMatches } from "../core/token";
import { answerPatiently } from "./keepalive";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface EndpointOptions {
  guard: Guard;
  token: string;
  /** Who answers the asks of calls that come in here (VS Code's modal); default: nobody can. */
  asker?: Asker;
  /** 0 = any free port. */
  port?: number;
  /** Observer of every answer sent (route, status, body, handling time): tests and debugging. */
  onAnswer?: (info: AnswerInfo) => void;
  /** How long a client may take to send its headers / whole request (slow loris). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface AnswerInfo {
  route: string;
  status: number;
  body: unknown;
  ms: number;
}

export interface Endpoint {
  readonly port: number;
  readonly url: string;
  readonly server: http.Server;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startEndpoint(options: EndpointOptions): Promise<Endpoint> {
  const { guard, token } = options;
  let port = 0;
  // Timeouts are checked every second (Node's default is every 30 s, too lax for slow clients).
  const server = http.createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const started = process.hrtime.bigint();
    const reply = (status: number, body: unknown) => {
      send(res, status, body);
      options.onAnswer?.({ route: (req.url ?? "/").split("?")[0], status, body, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    };
    handle(req, reply, res).catch((e) => reply(e instanceof HttpError ? e.status : 500, { error: e instanceof HttpError ? e.message : "internal error" }));
  });
  // Slow clients must not hold sockets forever (slow loris). Asks can take 30 s or more, but
  // these bound only how long the *request* may take to arrive.
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = options.requestTimeoutMs ?? 15_000;
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;

  async function handle(req: http.IncomingMessage, reply: (status: number, body: unknown) => void, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, port)) throw new HttpError(403, "forbidden host");
    if (!bearerMatches(req.headers.authorization, token)) {
      throw new HttpError(401, "missing or wrong bearer token (Authorization: Bearer $DAMAGE_CONTROL_TOKEN)");
    }
    const url = (req.url ?? "/").split("?")[0];
    if (url === "/health") {
      if (req.method !== "GET") throw new HttpError(405, "use GET");
      return reply(200, health(guard));
    }
    const agent = agentOfRoute(url);
    if (!agent) throw new HttpError(404, "no such route");
    if (req.method !== "POST") throw new HttpError(405, "use POST");
    const body = await readJson(req);
    const answer = guard.handle(agent, body, { asker: options.asker }).then((a) => a.body);
    // Command hooks (the launcher, hook <agent>) call /hook/<agent>: while an ask is
    // pending they get keep-alive whitespace, so they can tell a busy endpoint from a stuck one.
    if (url.startsWith("/hook/")) return answerPatiently(res, answer, reply);
    return reply(200, await answer);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: options.port ?? 0, exclusive: true }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const ALIASES: Record<string, AgentId> = { "/claude/hook": "claude", "/pi/tool-call": "pi" };

/** `/hook/<agent>` or one of the aliases kept for installed hooks → the agent, else undefined. */
function agentOfRoute(url: string): AgentId | undefined {
  if (ALIASES[url]) return ALIASES[url];
  const m = /^\/hook\/([a-z-]+)$/.exec(url);
  return m && isAgentId(m[1]) ? m[1] : undefined;
}

function health(guard: Guard) {
  return {
    ok: true,
    name: "damage-control",
    version: VERSION,
    folders: guard.rulesStates().map((s) => ({
      folder: s.folder,
      source: s.source,
      broken: s.broken,
      counts: ruleCounts(s.rules),
    })),
    decisions: guard.stats.decisions,
    refusals: guard.stats.refusals,
  };
}

/** Host must be our loopback address with our port: a web page cannot rebind DNS onto us. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const m = /^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/i.exec(host.trim());
  return !!m && Number(m[2]) === port;
}

/**
 * The body as JSON, at most MAX_BODY_BYTES. Read with 'data'/'end' listeners rather than an async
 * iterator: a hook's body is one chunk, and the iterator's promises were ~5 % of the main thread.
 */
function readJson(req: http.IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(new HttpError(413, `body over ${MAX_BODY_BYTES} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (e: Error) => {
      if (done) return;
      done = true;
      reject(e);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        return fail(new HttpError(413, `body over ${MAX_BODY_BYTES} bytes`));
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      const text = chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8");
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, "body is not valid JSON"));
      }
    });
    req.on("error", fail);
    // The client went away before the whole body came. Every request closes, so the error (and
    // its stack trace, ~7 % of the main thread under load) is only made when it is one.
    req.on("close", () => {
      if (!done) fail(new Error("the request was aborted"));
    });
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  // After an error the rest of the request may still be in flight: do not reuse the socket.
  if (status >= 400) res.shouldKeepAlive = false;
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(text);
}
