// A scripted stand-in for the Gemini API (`models/*:generateContent` and
// `:streamGenerateContent?alt=sse`), for driving the real Gemini CLI (GOOGLE_GEMINI_BASE_URL).
// Turn = number of functionResponse parts in the request's contents; each scripted turn returns
// one functionCall; after the script, a final text echoes the tool responses the model received.
// Requests without tools (Gemini CLI's own helper calls: next-speaker check, …) get a short JSON text.
import type * as http from "node:http";
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from "./loopback-server";

export interface GeminiStep {
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiMock extends LoopbackServer {
  mainRequests(): RecordedRequest[];
  /** Each functionResponse.response of the latest main request, as JSON text. */
  toolResponses(): string[];
}

const responsesOf = (body: any): string[] =>
  (Array.isArray(body?.contents) ? body.contents : [])
    .flatMap((c: any) => (Array.isArray(c?.parts) ? c.parts : []))
    .filter((p: any) => p?.functionResponse)
    .map((p: any) => JSON.stringify(p.functionResponse.response ?? {}));

const hasTools = (body: any): boolean => Array.isArray(body?.tools) && body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0);

function reply(res: http.ServerResponse, stream: boolean, parts: unknown[]): void {
  const chunk = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: "mock" };
  if (!stream) return sendJson(res, 200, chunk);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

export async function startGeminiMock(opts: { steps: GeminiStep[] }): Promise<GeminiMock> {
  const server = await startLoopbackServer((req, res) => {
    const pathname = req.path.split("?")[0]!;
    const m = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(pathname);
    if (req.method === "POST" && m) {
      if (m[2] === "countTokens") return sendJson(res, 200, { totalTokens: 10 });
      const body = req.body ?? {};
      const stream = m[2] === "streamGenerateContent";
      if (!hasTools(body)) return reply(res, stream, [{ text: JSON.stringify({ reasoning: "mock", next_speaker: "user" }) }]);
      const turn = responsesOf(body).length;
      const step = opts.steps[turn];
      if (step) return reply(res, stream, [{ functionCall: { name: step.name, args: step.args } }]);
      return reply(res, stream, [{ text: `DONE ${JSON.stringify(responsesOf(body))}` }]);
    }
    sendJson(res, 404, { error: { code: 404, message: `mock: no route ${req.method} ${req.path}`, status: "NOT_FOUND" } });
  });
  const mainRequests = () => server.requests.filter((r) => r.method === "POST" && /:(stream)?[gG]enerateContent/.test(r.path) && hasTools(r.body));
  return {
    ...server,
    mainRequests,
    toolResponses: () => {
      const main = mainRequests();
      return main.length ? responsesOf(main[main.length - 1]!.body) : [];
    },
  };
}
