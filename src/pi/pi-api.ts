// The part of pi's extension API this extension uses, written out structurally so that no pi
// package is imported, not even for types: the same bundle loads in pi 0.73 (@mariozechner) and
// 1.6 (@earendil-works). Mirrors @earendil-works/pi-coding-agent 1.6.0's .d.ts.

export interface ToolCallEvent {
  type: "tool_call";
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
  parentToolCallId?: string;
}

export interface ToolCallEventResult {
  block?: boolean;
  reason?: string;
}

/** pi 1.6.0's tool_result event (the parts read here): the input as the call ran, what it gave the model. */
export interface ToolResultEvent {
  type: "tool_result";
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
  content: ({ type: "text"; text: string } | { type: string })[];
  isError: boolean;
}

export interface PiUI {
  confirm(title: string, message: string, opts?: { timeout?: number; signal?: AbortSignal }): Promise<boolean>;
  notify(message: string, level?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
}

export interface PiContext {
  cwd: string;
  hasUI: boolean;
  mode?: string;
  signal?: AbortSignal;
  ui: PiUI;
  sessionManager?: { getSessionId?(): string | undefined };
}

export interface PiExtensionAPI {
  on(event: "tool_call", handler: (event: ToolCallEvent, ctx: PiContext) => Promise<ToolCallEventResult | undefined> | ToolCallEventResult | undefined): void;
  on(event: "tool_result", handler: (event: ToolResultEvent, ctx: PiContext) => Promise<undefined> | undefined): void;
  on(event: "session_start", handler: (event: { reason?: string }, ctx: PiContext) => void | Promise<void>): void;
  registerCommand(name: string, spec: { description: string; handler: (args: string, ctx: PiContext) => void | Promise<void> }): void;
}
