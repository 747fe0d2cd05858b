// The Damage Control pi extension (bundled to dist/pi-extension.js, installed globally).
// Each tool call goes to the endpoint guarding ctx.cwd; when that cannot answer, the same
// engine decides here from the same rules file. Any error blocks: failure never means permission.
//
// This file holds only the endpoint's client. The engine, the rules store and the decision worker
// are in pi-local-guard.js beside it, loaded on first need (no endpoint, the status line,
// /damage-control): pi loads every extension at start, and a session the endpoint guards should
// not pay for compiling and starting an engine it never uses.
import { createRequire } from "node:module";
import * as path from "node:path";
import { blockReason } from "../engine/reason";
import { nobodyAsker, type Asker } from "../core/asker";
import { findEndpoint, postHook } from "../core/endpoint-client";
import { PI_LOCAL_GUARD_BUNDLE } from "../core/build-info";
import type { PiLocalGuard } from "./local-guard";
import type { PiContext, PiExtensionAPI, ToolCallEvent, ToolCallEventResult, ToolResultEvent } from "./pi-api";

/** Longer than a human's 30 s ask in VS Code, so an answer is never cut off. */
const ENDPOINT_TIMEOUT_MS = Number(process.env.DAMAGE_CONTROL_PI_TIMEOUT_MS) || 45_000;
const ASK_TIMEOUT_MS = 30_000;
/** A tool result is only read and recorded: the agent never waits long for it. */
const RESULT_TIMEOUT_MS = 5_000;
const STATUS_KEY = "damage-control";

/** The local guard beside this file, loaded once. A missing or broken one is an error (so: a refusal). */
function loadLocalGuard(): PiLocalGuard {
  const file = path.join(__dirname, PI_LOCAL_GUARD_BUNDLE);
  try {
    // Node's own require, not the loader that loaded this file (pi's jiti): it is plain CommonJS.
    return (createRequire(__filename)(file) as typeof import("./local-guard")).piLocalGuard();
  } catch (e) {
    throw new Error(`its local guard ${file} could not be loaded (${(e as Error).message}); reinstall it with \`damage-control install pi\``);
  }
}

export default function damageControl(pi: PiExtensionAPI): void {
  let local: PiLocalGuard | undefined;
  const localGuard = () => (local ??= loadLocalGuard());
  const refusals: { time: string; tool: string; reason: string }[] = [];
  /** The calls put in the guard's sandbox (by call id): only their results are sent back (bounded). */
  const sandboxed = new Set<string>();

  function localAsker(ctx: PiContext, why: string): Asker {
    if (!ctx.hasUI) return nobodyAsker(`nobody could confirm it (${why}, and pi runs without a UI)`);
    return {
      async ask(req) {
        const ok = await ctx.ui.confirm("Damage Control", `${req.reason}\n\n${req.tool}: ${req.target}\n\nAllow?`, { timeout: ASK_TIMEOUT_MS, ...(ctx.signal && { signal: ctx.signal }) });
        return ok ? { approved: true, why: "" } : { approved: false, why: "the user did not allow it (or did not answer within 30 s)" };
      },
    };
  }

  function status(ctx: PiContext): void {
    if (!ctx.hasUI) return;
    const { counts } = localGuard().rules(ctx.cwd);
    ctx.ui.setStatus(STATUS_KEY, `🛡 ${counts.total} rules · ${refusals.length} refusals`);
  }

  async function judge(event: ToolCallEvent, ctx: PiContext): Promise<ToolCallEventResult | undefined> {
    const body = { toolName: event.toolName, input: event.input, cwd: ctx.cwd, sessionId: ctx.sessionManager?.getSessionId?.() };
    const endpoint = findEndpoint(ctx.cwd);
    let why = "no Damage Control endpoint guards this folder";
    if (endpoint) {
      const answer = await postHook(endpoint, "pi", JSON.stringify(body), { timeoutMs: ENDPOINT_TIMEOUT_MS, signal: ctx.signal });
      if (!(answer instanceof Error) && typeof answer.block !== "boolean") why = "the endpoint could not answer: its answer has no block field";
      else if (!(answer instanceof Error)) {
        if (answer.block) return { block: true, reason: typeof answer.reason === "string" ? answer.reason : blockReason("refused by the endpoint") };
        // Run it in the guard's sandbox: pi runs the input as the handler leaves it.
        if (typeof answer.command === "string" && event.toolName === "bash") {
          event.input.command = answer.command;
          sandboxed.add(event.toolCallId);
          if (sandboxed.size > 256) sandboxed.delete(sandboxed.values().next().value!);
        }
        return undefined;
      }
      else if (ctx.signal?.aborted) return { block: true, reason: blockReason("the tool call was aborted while Damage Control decided") };
      else why = `the endpoint could not answer: ${answer.message}`;
    }
    const answer = await localGuard().decide(ctx.cwd, body, localAsker(ctx, why));
    return answer.block ? { block: true, reason: answer.reason } : undefined;
  }

  pi.on("tool_call", async (event, ctx) => {
    let result: ToolCallEventResult | undefined;
    try {
      result = await judge(event, ctx);
    } catch (e) {
      result = { block: true, reason: blockReason(`Damage Control failed while deciding (${(e as Error)?.message ?? String(e)})`) };
    }
    if (result?.block) {
      refusals.push({ time: new Date().toISOString(), tool: event.toolName, reason: result.reason ?? "" });
      if (refusals.length > 100) refusals.shift();
    }
    try {
      status(ctx);
    } catch {
      /* the status line is cosmetic */
    }
    return result;
  });

  // After a bash call the endpoint put in its sandbox: it reads what the kernel refused (pi 1.6.0
  // gives the input as the call ran: our wrapper, which the endpoint checks is one of its own) and
  // records it for the feed. Nothing here changes the result, and no failure of it holds the agent.
  pi.on("tool_result", async (event: ToolResultEvent, ctx: PiContext) => {
    try {
      const command = event.input?.command;
      if (!sandboxed.delete(event.toolCallId) || event.toolName !== "bash" || typeof command !== "string") return undefined;
      const endpoint = findEndpoint(ctx.cwd);
      if (!endpoint) return undefined;
      const output = event.content.map((c) => ("text" in c && typeof c.text === "string" ? c.text : "")).join("\n");
      const body = { event: "tool_result", toolName: event.toolName, input: { command }, output, cwd: ctx.cwd, sessionId: ctx.sessionManager?.getSessionId?.() };
      await postHook(endpoint, "pi", JSON.stringify(body), { timeoutMs: RESULT_TIMEOUT_MS, ...(ctx.signal && { signal: ctx.signal }) });
    } catch {
      /* the feed's extra, never the agent's failure */
    }
    return undefined;
  });

  pi.on("session_start", (_event, ctx) => {
    try {
      status(ctx);
    } catch {
      /* cosmetic */
    }
  });

  pi.registerCommand("damage-control", {
    description: "Damage Control: the rules in force and the refusals of this session",
    handler: async (_args, ctx) => {
      const { state, counts: c } = localGuard().rules(ctx.cwd);
      const endpoint = findEndpoint(ctx.cwd);
      const lines = [
        `Damage Control — ${endpoint ? `endpoint ${endpoint.url}` : "no endpoint: deciding locally"}`,
        `rules: ${state.source === "default" ? "embedded defaults" : state.file}${state.broken ? " (BROKEN: last good rules in force)" : ""}`,
        `${c.bashPatterns} bash patterns (${c.ask} ask), ${c.zeroAccess} zero-access, ${c.readOnly} read-only, ${c.noDelete} no-delete`,
        `refusals this session: ${refusals.length}`,
        ...refusals.slice(-10).map((r) => `  ${r.time} ${r.tool}: ${r.reason}`),
      ];
      if (ctx.hasUI) ctx.ui.notify(lines.join("\n"), "info");
      else process.stdout.write(lines.join("\n") + "\n");
    },
  });
}
