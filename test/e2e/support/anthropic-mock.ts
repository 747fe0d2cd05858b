// A scripted stand-in for the Anthropic Messages API, for driving the real Claude Code CLI.
// Stateless scripting (see /work/shared/notes/claude-code-headless-testing.md §3): the turn is
// the number of assistant messages already in the request, so a retried request replays the same
// step. After the script, one final text turn echoes the tool results, so a run always ends.
import type * as http from "node:http";
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from "./loopback-server";

export type AnthropicBlock =
  | { type: "text"; text: string }
  /** `id` defaults to `toolu_dc_<turn>_<index>`, stable across retries. */
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

/** One assistant message. Several tool_use blocks in one step are parallel tool calls. */
export type AnthropicStep = AnthropicBlock[];

export interface ToolResult {
  toolUseId: string;
  /** The text the model was shown (string content, or text parts joined with "\n"). */
  text: string;
  isError: boolean;
}

export interface AnthropicMockOptions {
  steps: AnthropicStep[];
  /** Text of the closing turn; default `DONE` plus the tool results as JSON. */
  finalText?: (results: ToolResult[]) => string;
  /** Append every request as a JSON line here (debugging aid). */
  logFile?: string;
}

export interface AnthropicMock extends LoopbackServer {
  /** Requests of the agent's main loop (those offering tools), in order. */
  mainRequests(): RecordedRequest[];
  /** Every tool_result the model received, in order, read from the latest main-loop request. */
  toolResults(): ToolResult[];
}

export const text = (t: string): AnthropicBlock => ({ type: "text", text: t });
export const toolUse = (name: string, input: Record<string, unknown>, id?: string): AnthropicBlock => ({ type: "tool_use", name, input, ...(id ? { id } : {}) });
/** Claude Code's Bash tool input: `command` plus the `description` the model always sends. */
export const bash = (command: string, description = "Run a command"): AnthropicBlock => toolUse("Bash", { command, description });

/** All tool_result blocks in a request body's messages, in order. */
export function toolResultsOf(body: any): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of body?.messages ?? []) {
    if (m?.role !== "user" || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b?.type !== "tool_result") continue;
      const t = typeof b.content === "string" ? b.content : Array.isArray(b.content) ? b.content.filter((p: any) => p?.type === "text").map((p: any) => p.text).join("\n") : "";
      out.push({ toolUseId: b.tool_use_id, text: t, isError: b.is_error === true });
    }
  }
  return out;
}

const isMainLoop = (body: any): boolean => Array.isArray(body?.tools) && body.tools.length > 0;

/** 2.1.332 also puts role:"system" entries inside messages, so count assistant entries only. */
const turnOf = (body: any): number => (body?.messages ?? []).filter((m: any) => m?.role === "assistant").length;

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamMessage(res: http.ServerResponse, model: string, turn: number, blocks: AnthropicStep): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const hasTool = blocks.some((b) => b.type === "tool_use");
  sse(res, "message_start", {
    type: "message_start",
    message: { id: `msg_dc_${turn}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  sse(res, "ping", { type: "ping" });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } });
    } else {
      const id = b.id ?? `toolu_dc_${turn}_${index}`;
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id, name: b.name, input: {} } });
      // Split the input JSON in two deltas, as the real API streams it in fragments.
      const json = JSON.stringify(b.input);
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } });
      }
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: hasTool ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

/** Non-streaming reply; Claude Code never asked for one here, but it costs nothing. */
function jsonMessage(res: http.ServerResponse, model: string, turn: number, blocks: AnthropicStep): void {
  const content = blocks.map((b, i) => (b.type === "text" ? b : { type: "tool_use", id: b.id ?? `toolu_dc_${turn}_${i}`, name: b.name, input: b.input }));
  const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  sendJson(res, 200, { id: `msg_dc_${turn}`, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } });
}

export async function startAnthropicMock(opts: AnthropicMockOptions): Promise<AnthropicMock> {
  const finalText = opts.finalText ?? ((r: ToolResult[]) => `DONE ${JSON.stringify(r)}`);
  const server = await startLoopbackServer((req, res) => {
    const pathname = req.path.split("?")[0];
    if (req.method === "POST" && pathname === "/v1/messages") {
      const body = req.body ?? {};
      const model = typeof body.model === "string" ? body.model : "claude-mock";
      const turn = turnOf(body);
      let blocks: AnthropicStep;
      if (!isMainLoop(body)) blocks = [text("OK")]; // side calls (titles, summaries): short text
      else if (turn < opts.steps.length) blocks = opts.steps[turn]!;
      else blocks = [text(finalText(toolResultsOf(body)))];
      if (body.stream) streamMessage(res, model, turn, blocks);
      else jsonMessage(res, model, turn, blocks);
      return;
    }
    if (req.method === "POST" && pathname === "/v1/messages/count_tokens") return sendJson(res, 200, { input_tokens: 10 });
    if (req.method === "GET" && pathname === "/v1/models") return sendJson(res, 200, { data: [], has_more: false });
    sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `mock: no route ${req.method} ${req.path}` } });
  }, opts.logFile);
  const mainRequests = () => server.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v1/messages") && !r.path.startsWith("/v1/messages/") && isMainLoop(r.body));
  return {
    ...server,
    mainRequests,
    toolResults: () => {
      const main = mainRequests();
      return main.length ? toolResultsOf(main[main.length - 1]!.body) : [];
    },
  };
}
