// A node:http server on 127.0.0.1, port 0, that records every request before a handler answers
// it. Shared by the mock model servers (and usable for a test's own hook endpoint) so each of
// them only has to say what to answer.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path with query, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: any;
  raw: string;
  at: number;
  /** performance.now() at arrival: sub-millisecond intervals between requests (the bench). */
  atHr: number;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Start the server. With `logFile`, each recorded request is also appended as one JSON line. */
export async function startLoopbackServer(handler: Handler, logFile?: string): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const rec: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, raw, at: Date.now(), atHr: performance.now() };
      requests.push(rec);
      if (logFile) fs.appendFileSync(logFile, JSON.stringify(rec) + "\n");
      Promise.resolve(handler(rec, res)).catch((e: unknown) => {
        // A handler bug must show up as a failing run, not as a hung one.
        if (!res.headersSent) sendJson(res, 500, { error: { type: "mock_error", message: String(e) } });
        else res.end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Agents keep connections alive; without this, close() waits for their idle timeout.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released), for fail-closed checks. */
export async function unusedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
