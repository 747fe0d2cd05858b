// A plain HTTP client for endpoint tests: exact control over method, headers and body.
import * as http from "node:http";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; token?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...(opts.headers ?? {}) };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers["content-type"] ??= "application/json";
    const req = http.request({ host: "127.0.0.1", port, method: opts.method ?? "POST", path: opts.path, headers, agent: false });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}
