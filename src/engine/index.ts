// The engine's public surface. Pure TypeScript: no `vscode`, no I/O.
export * from "./types";
export { decide, decideCommand } from "./decide";
export { normalizeToolCall, type ToolCall, type NormalizedCall } from "./toolcall";
export { parseRules, emptyRuleSet, type ParsedRules } from "./rules/parse";
export { defaultRules, DEFAULT_RULES_TEXT } from "./rules/defaults";
