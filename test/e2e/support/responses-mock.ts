// A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, SSE), for driving the
// real Codex CLI (wire_api = "responses"). Turn = number of function_call_output items in the
// request's input; each scripted turn returns one shell tool call; after the script, a final
// message echoes the tool outputs the model received, so a test can read what Codex told it.
import type * as http from "node:http";
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from "./loopback-server";

export interface ResponsesStep {
  /** The function tool Codex offers for shell commands ("shell" / "exec_command" / …): picked from the request when undefined. */
  tool?: string;
  /** Arguments object; `{command}` for the shell tool (the mock adapts it to the offered tool's schema). */
  command: string;
}

export interface ResponsesMock extends LoopbackServer {
  baseUrl: string;
  mainRequests(): RecordedRequest[];
  /** The text of every function_call_output in the latest request. */
  toolOutputs(): string[];
  /** The tools the agent offered in its first request (names). */
  offeredTools(): string[];
}

const outputsOf = (body: any): string[] =>
  (Array.isArray(body?.input) ? body.input : [])
    .filter((i: any) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output")
    .map((i: any) => (typeof i.output === "string" ? i.output : JSON.stringify(i.output)));

const toolName = (t: any): string => t?.name ?? t?.function?.name ?? "";

/** The shell tool Codex offered, and arguments in its schema. */
function shellCall(body: any, command: string): { name: string; args: string } {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  const names = tools.map(toolName);
  for (const name of ["shell_command", "exec_command", "shell", "local_shell"]) {
    if (!names.includes(name)) continue;
    const tool = tools[names.indexOf(name)];
    const props = tool?.parameters?.properties ?? {};
    if (name === "exec_command") return { name, args: JSON.stringify({ cmd: command }) };
    if (props.command?.type === "array") return { name, args: JSON.stringify({ command: ["bash", "-lc", command] }) };
    return { name, args: JSON.stringify({ command }) };
  }
  throw new Error(`mock: no shell tool offered (tools: ${names.join(", ")})`);
}

function stream(res: http.ServerResponse, items: any[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const id = `resp_dc_${Date.now()}`;
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: "mock", status: "in_progress", output: [] };
  ev("response.created", { response: base });
  items.forEach((item, output_index) => {
    ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress" } });
    ev("response.output_item.done", { output_index, item: { ...item, status: "completed" } });
  });
  ev("response.completed", { response: { ...base, status: "completed", output: items, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } });
  res.end();
}

export async function startResponsesMock(opts: { steps: ResponsesStep[] }): Promise<ResponsesMock> {
  const server = await startLoopbackServer((req, res) => {
    const pathname = req.path.split("?")[0];
    if (req.method === "POST" && pathname === "/v1/responses") {
      const body = req.body ?? {};
      const turn = outputsOf(body).length;
      const step = opts.steps[turn];
      if (step) {
        const call = shellCall(body, step.command);
        return stream(res, [{ type: "function_call", id: `fc_dc_${turn}`, call_id: `call_dc_${turn}`, name: step.tool ?? call.name, arguments: call.args }]);
      }
      const text = `DONE ${JSON.stringify(outputsOf(body))}`;
      return stream(res, [{ type: "message", id: `msg_dc_${turn}`, role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }]);
    }
    if (req.method === "GET" && pathname === "/v1/models") return sendJson(res, 200, { object: "list", data: [{ id: "mock", object: "model" }] });
    sendJson(res, 404, { error: { message: `mock: no route ${req.method} ${req.path}` } });
  });
  const mainRequests = () => server.requests.filter((r) => r.method === "POST" && r.path.split("?")[0] === "/v1/responses");
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    mainRequests,
    toolOutputs: () => {
      const m = mainRequests();
      return m.length ? outputsOf(m[m.length - 1]!.body) : [];
    },
    offeredTools: () => {
      const m = mainRequests();
      return m.length ? (m[0]!.body?.tools ?? []).map(toolName) : [];
    },
  };
}
