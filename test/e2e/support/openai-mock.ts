// A scripted stand-in for an OpenAI-compatible chat completions API, for driving the real pi
// agent (provider api "openai-completions", see /work/shared/notes/pi-agent.md §7). Same scheme
// as the Anthropic mock: turn = number of assistant messages in the request; after the script,
// a final text turn echoes the tool results.
import type * as http from "node:http";
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from "./loopback-server";

export type OpenAIBlock =
  | { type: "text"; text: string }
  /** `id` defaults to `call_dc_<turn>_<index>`, stable across retries. */
  | { type: "tool_call"; name: string; arguments: Record<string, unknown>; id?: string };

/** One assistant message. Several tool calls in one step are parallel tool calls. */
export type OpenAIStep = OpenAIBlock[];

export interface ChatToolResult {
  toolCallId: string;
  /** The text the model was shown (string content, or text parts joined with "\n"). */
  text: string;
}

export interface OpenAIMockOptions {
  steps: OpenAIStep[];
  /** Text of the closing turn; default `DONE` plus the tool results as JSON. */
  finalText?: (results: ChatToolResult[]) => string;
  logFile?: string;
}

export interface OpenAIMock extends LoopbackServer {
  /** `http://127.0.0.1:<port>/v1`, the provider baseUrl pi needs. */
  baseUrl: string;
  /** Chat completion requests that offered tools (the agent loop), in order. */
  mainRequests(): RecordedRequest[];
  /** Every role:"tool" message the model received, in order, from the latest main-loop request. */
  toolResults(): ChatToolResult[];
}

export const chatText = (t: string): OpenAIBlock => ({ type: "text", text: t });
export const toolCall = (name: string, args: Record<string, unknown>, id?: string): OpenAIBlock => ({ type: "tool_call", name, arguments: args, ...(id ? { id } : {}) });
/** pi's built-in bash tool (lowercase name, input `{command}`). */
export const piBash = (command: string): OpenAIBlock => toolCall("bash", { command });

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.filter((p: any) => p?.type === "text").map((p: any) => p.text).join("\n");
  return "";
}

export function chatToolResultsOf(body: any): ChatToolResult[] {
  return (body?.messages ?? []).filter((m: any) => m?.role === "tool").map((m: any) => ({ toolCallId: m.tool_call_id, text: contentText(m.content) }));
}

const isMainLoop = (body: any): boolean => Array.isArray(body?.tools) && body.tools.length > 0;
const turnOf = (body: any): number => (body?.messages ?? []).filter((m: any) => m?.role === "assistant").length;

function streamCompletion(res: http.ServerResponse, model: string, turn: number, blocks: OpenAIStep, includeUsage: boolean): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const id = `chatcmpl-dc-${turn}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finish: string | null) =>
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  chunk({ role: "assistant", content: "" }, null);
  const texts = blocks.filter((b) => b.type === "text");
  for (const b of texts) chunk({ content: b.text }, null);
  const calls = blocks.filter((b): b is Extract<OpenAIBlock, { type: "tool_call" }> => b.type === "tool_call");
  calls.forEach((c, index) => {
    const callId = c.id ?? `call_dc_${turn}_${index}`;
    chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name: c.name, arguments: "" } }] }, null);
    // Arguments in two fragments, as real servers stream them.
    const json = JSON.stringify(c.arguments);
    const cut = Math.floor(json.length / 2);
    for (const part of [json.slice(0, cut), json.slice(cut)]) chunk({ tool_calls: [{ index, function: { arguments: part } }] }, null);
  });
  chunk({}, calls.length ? "tool_calls" : "stop");
  if (includeUsage) {
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
  }
  res.write("data: [DONE]\n\n");
  res.end();
}

function jsonCompletion(res: http.ServerResponse, model: string, turn: number, blocks: OpenAIStep): void {
  const calls = blocks.flatMap((b, i) => (b.type === "tool_call" ? [{ id: b.id ?? `call_dc_${turn}_${i}`, type: "function", function: { name: b.name, arguments: JSON.stringify(b.arguments) } }] : []));
  const content = blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("") || null;
  sendJson(res, 200, {
    id: `chatcmpl-dc-${turn}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

export async function startOpenAIMock(opts: OpenAIMockOptions): Promise<OpenAIMock> {
  const finalText = opts.finalText ?? ((r: ChatToolResult[]) => `DONE ${JSON.stringify(r)}`);
  const server = await startLoopbackServer((req, res) => {
    const pathname = req.path.split("?")[0];
    if (req.method === "POST" && pathname === "/v1/chat/completions") {
      const body = req.body ?? {};
      const model = typeof body.model === "string" ? body.model : "mock-model";
      const turn = turnOf(body);
      let blocks: OpenAIStep;
      if (!isMainLoop(body)) blocks = [chatText("OK")];
      else if (turn < opts.steps.length) blocks = opts.steps[turn]!;
      else blocks = [chatText(finalText(chatToolResultsOf(body)))];
      if (body.stream) streamCompletion(res, model, turn, blocks, body.stream_options?.include_usage === true);
      else jsonCompletion(res, model, turn, blocks);
      return;
    }
    if (req.method === "GET" && pathname === "/v1/models") return sendJson(res, 200, { object: "list", data: [{ id: "mock-model", object: "model", owned_by: "mock" }] });
    sendJson(res, 404, { error: { type: "not_found", message: `mock: no route ${req.method} ${req.path}` } });
  }, opts.logFile);
  const mainRequests = () => server.requests.filter((r) => r.method === "POST" && r.path.split("?")[0] === "/v1/chat/completions" && isMainLoop(r.body));
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    mainRequests,
    toolResults: () => {
      const main = mainRequests();
      return main.length ? chatToolResultsOf(main[main.length - 1]!.body) : [];
    },
  };
}
