// MCP tools with no effect on files, shells or remote data: a browser driven for the user, a
// documentation lookup, a fetch, thinking, a memory of the conversation, a comment. They get no
// opinion even where damageControl.unknownTools is "ask" (what they carry is data, never run).
import { toolWords } from "./name";

/** A word of the tool's name that says it is one of those (`browser_navigate`, `get-library-docs`). */
const NO_EFFECT_WORDS = new Set(["browser", "sequentialthinking", "thinking", "think", "docs", "documentation", "library", "fetch", "memory", "entities", "observations", "relations", "comment", "comments", "screenshot", "snapshot", "navigate", "resolve", "puppeteer", "playwright"]);

export function noEffectMcpTool(tool: string): boolean {
  return toolWords(tool).some((w) => NO_EFFECT_WORDS.has(w));
}
