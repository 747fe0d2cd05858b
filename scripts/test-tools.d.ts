// Types for scripts/test-tools.js, so the strict TypeScript e2e support code can import it.
export type ToolId = "claude-2.1.332" | "claude-2.1.197" | "node22" | "pi-1.6.0" | "pi-0.73.1" | AgentToolId | "cc-safety-net-2.4.5";
/** Codex CLI, Gemini CLI, Copilot CLI (issue 18). */
export type AgentToolId = "codex-0.171.0" | "gemini-0.61.0" | "copilot-1.0.102" | "qwen-0.24.4" | "opencode-1.18.33" | "cline-3.0.65";
export type ClaudeVersion = "2.1.332" | "2.1.197";
export type PiVersion = "1.6.0" | "0.73.1";

export interface ToolSpec {
  pkg: string;
  version: string;
  kind: "claude" | "node" | "pi" | "agent" | "hook-cli";
  /** agent only: the package.json bin entry. */
  bin?: string;
  /** pi only: which Node runs it. */
  node?: "node22" | "default";
}

export const TOOLS: Record<ToolId, ToolSpec>;
export const NODE22_VERSION: string;
export const NODE22_MIN: [number, number, number];
/** ${DC_TOOLS_DIR:-~/.cache/damage-control/tools} */
export function toolsDir(): string;
export function toolDir(id: ToolId): string;
export function modulesDir(id: ToolId): string;
/** Absolute path of the native claude binary of a pinned build. */
export function claudeBin(version: ClaudeVersion): string;
export function node22Bin(): string;
export function piCliJs(version: PiVersion): string;
/** [node binary, pi cli.js] */
export function piCommand(version: PiVersion): [string, string];
/** The entry script of an agent/pi tool, from its package.json bin. */
export function binJs(id: ToolId): string;
/** [node binary, entry script] of an agent CLI. */
export function agentCommand(id: AgentToolId): string[];
/** A peer guard's hook CLI script (kind "hook-cli"), run with the current Node. */
export function hookCliJs(id: "cc-safety-net-2.4.5"): string;
export function markerFile(id: ToolId): string;
