// A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 for VS Code's own agent
// (a "customendpoint" model in User/chatLanguageModels.json, see
// ../shared/notes/vscode-agent-hooks.md §5). A prompt carries its command as DCRUN<<command>>:
// the first agent-loop request after that prompt gets one run_in_terminal tool call for it; the
// next one (which carries the tool's result as a role:"tool" message) gets plain text, and the
// result is recorded, so the test reads what the model was told.
import type * as http from "node:http";
import { startLoopbackServer, sendJson, type LoopbackServer } from "../../e2e/support/loopback-server";

export interface ToolOutcome {
  command: string;
  /** What VS Code told the model about the call (the role:"tool" message). */
  text: string;
}

export interface ChatModelMock extends LoopbackServer {
  /** The chatLanguageModels.json content that points VS Code at this server. */
  languageModels(): string;
  /** Outcomes seen so far, in order. */
  outcomes: ToolOutcome[];
  /** Agent-loop requests (they offer tools) seen for a command. */
  sawPrompt(command: string): boolean;
  /** Every tool name the agent offered the model, in any request (how it names MCP tools). */
  offeredTools: Set<string>;
}

/**
 * A prompt's DCMCP<<sql>> asks for one call of the offered tool whose name ends in `execute_sql`
 * (an MCP server's tool, under whatever name the agent gives it) with {sql}.
 */
const MCP_MARK = /DCMCP<<(.+?)>>/g;

const MARK = /DCRUN<<(.+?)>>/g;

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: any) => (typeof p?.text === "string" ? p.text : typeof p?.value === "string" ? p.value : "")).join("\n");
  return "";
}

function stream(res: http.ServerResponse, model: string, delta: Record<string, unknown>[], finish: string): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `chatcmpl-dc-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (d: unknown, f: string | null) => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta: d, finish_reason: f }] })}\n\n`);
  chunk({ role: "assistant", content: "" }, null);
  for (const d of delta) chunk(d, null);
  chunk({}, finish);
  res.write("data: [DONE]\n\n");
  res.end();
}

export async function startChatModelMock(): Promise<ChatModelMock> {
  const outcomes: ToolOutcome[] = [];
  const prompted = new Set<string>();
  const offeredTools = new Set<string>();
  let calls = 0;
  const server = await startLoopbackServer((req, res) => {
    if (req.method !== "POST" || !req.path.startsWith("/v1/chat/completions")) return sendJson(res, 404, { error: { message: "no route" } });
    const body = req.body ?? {};
    const model = typeof body.model === "string" ? body.model : "mock";
    const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
    const names: string[] = Array.isArray(body.tools) ? body.tools.map((t: any) => t?.function?.name).filter((n: unknown) => typeof n === "string") : [];
    for (const n of names) offeredTools.add(n);
    const offersTerminal = names.includes("run_in_terminal");
    let sql: string | undefined;
    // The latest user message with a marker, and what came after it.
    let at = -1;
    let command: string | undefined;
    messages.forEach((m, i) => {
      if (m?.role !== "user") return;
      const found = [...text(m.content).matchAll(MARK)];
      const mcp = [...text(m.content).matchAll(MCP_MARK)];
      if (found.length) {
        at = i;
        command = found[found.length - 1][1];
        sql = undefined;
      } else if (mcp.length) {
        at = i;
        sql = command = mcp[mcp.length - 1][1];
      }
    });
    const reply = (t: string) => {
      if (body.stream) return stream(res, model, [{ content: t }], "stop");
      sendJson(res, 200, { id: "chatcmpl-dc", object: "chat.completion", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message: { role: "assistant", content: t }, finish_reason: "stop" }] });
    };
    if ((!offersTerminal && (sql === undefined || names.length === 0)) || command === undefined) return reply("OK");
    prompted.add(command);
    const tool = messages.slice(at + 1).find((m) => m?.role === "tool");
    if (tool) {
      outcomes.push({ command, text: text(tool.content) });
      return reply(`Seen the result of ${command}.`);
    }
    const sqlTool = names.find((n) => n.endsWith("execute_sql"));
    if (sql !== undefined && !sqlTool) return reply("no execute_sql tool offered");
    const toolName = sql !== undefined ? sqlTool! : "run_in_terminal";
    const args = sql !== undefined ? JSON.stringify({ sql }) : JSON.stringify({ command, explanation: "Run the command the user asked for", goal: "Run it", mode: "sync", isBackground: false, timeout: 20000 });
    const id = `call_dc_${++calls}`;
    if (!body.stream) {
      return sendJson(res, 200, { id: "chatcmpl-dc", object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: toolName, arguments: args } }] }, finish_reason: "tool_calls" }] });
    }
    stream(res, model, [{ tool_calls: [{ index: 0, id, type: "function", function: { name: toolName, arguments: args } }] }], "tool_calls");
  });
  return {
    ...server,
    outcomes,
    offeredTools,
    sawPrompt: (c) => prompted.has(c),
    languageModels: () =>
      JSON.stringify([
        {
          name: "Mock",
          vendor: "customendpoint",
          apiKey: "x",
          apiType: "chat-completions",
          models: [{ id: "mock", name: "Mock Model", url: `${server.url}/v1/chat/completions`, toolCalling: true, vision: false, maxInputTokens: 128000, maxOutputTokens: 4096 }],
        },
      ]),
  };
}
