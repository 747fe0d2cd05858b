// A proxy that refuses everything and records what tried to use it. Point an agent's
// HTTP(S)_PROXY/ALL_PROXY at it (with NO_PROXY covering loopback, as isolatedEnv sets): any
// attempt to reach a non-loopback host lands here instead of on the network, and a test can
// assert the list stayed empty.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxyTrap {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `CONNECT host:443` or `GET http://host/path`, in arrival order. */
  attempts: string[];
  /** Env entries that route every proxy-aware client to the trap. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startProxyTrap(): Promise<ProxyTrap> {
  const attempts: string[] = [];
  const server = http.createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403).end("proxy trap: no network in e2e tests\n");
  });
  server.on("connect", (req: http.IncomingMessage, socket) => {
    attempts.push(`CONNECT ${req.url}`);
    // Clients reset the socket on the refusal; that must not crash the test process.
    socket.on("error", () => undefined);
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    attempts,
    env: { HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
