// A command hook must tell "the endpoint is thinking" (an ask is pending: up to the ask timeout)
// from "the endpoint hangs" (it must give up within seconds and decide locally). So an answer that
// is not ready within PATIENCE_MS is sent as a 200 whose body starts with keep-alive whitespace,
// a few bytes every TICK_MS, then the JSON (whitespace before JSON is still the same JSON). A client
// that sees no byte for a few seconds (curl --speed-time, Node's socket timeout) knows the endpoint
// is stuck. Answers that are ready in time go out as one ordinary response.
import type * as http from "node:http";

export const PATIENCE_MS = 1000;
export const TICK_MS = 500;

export async function answerPatiently(res: http.ServerResponse, answer: Promise<unknown>, reply: (status: number, body: unknown) => void): Promise<void> {
  let streaming = false;
  let ticker: NodeJS.Timeout | undefined;
  const start = setTimeout(() => {
    if (res.headersSent || res.writableEnded) return;
    streaming = true;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
    res.write(" ");
    ticker = setInterval(() => res.write("    "), TICK_MS);
  }, PATIENCE_MS);
  const stop = () => {
    clearTimeout(start);
    if (ticker) clearInterval(ticker);
  };
  res.once("close", stop);
  let body: unknown;
  try {
    body = await answer;
  } finally {
    stop();
  }
  if (!streaming) return reply(200, body);
  res.end(JSON.stringify(body));
}
