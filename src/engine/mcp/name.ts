// An MCP call is recognised by its name alone. Measured spellings (docs/remote-effects.md, "MCP tools"):
//   Claude Code, Codex CLI, pi's MCP adapter: `mcp__<server>__<tool>`
//   Gemini CLI: `mcp_<server>_<tool>` (its own parser takes the server up to the first `_`)
// The server split is for people (the feed shows "server · tool"); the judgement reads the tool part.
import { braceExpand } from "minimatch";

export interface McpName {
  server: string;
  tool: string;
}

/** The server and tool of an MCP tool name; undefined for any other tool. */
export function mcpName(name: string): McpName | undefined {
  if (!name.startsWith("mcp_")) return undefined;
  if (name.startsWith("mcp__")) {
    const rest = name.slice(5);
    const cut = rest.indexOf("__");
    if (cut > 0 && cut + 2 < rest.length) return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
    return undefined;
  }
  const m = /^mcp_([^_]+)_(.+)$/.exec(name);
  return m ? { server: m[1], tool: m[2] } : undefined;
}

/** "postgres · execute_sql" for an MCP tool; the name as it is for any other. */
export function toolLabel(name: string): string {
  const m = mcpName(name);
  return m ? `${m.server} · ${m.tool}` : name;
}

/** The tool's name as words: camelCase split, dashes as underscores, lower case (`deleteMany` → `delete_many`). */
export function snakeName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/-/g, "_").toLowerCase();
}

/** The words of an MCP tool part (`kubectl_delete` → [kubectl, delete]). */
export function toolWords(tool: string): string[] {
  return snakeName(tool).split(/[^a-z0-9]+/).filter(Boolean);
}

/** A compiled tool-name glob: a RegExp, so rule sets stay structured-cloneable (the decider worker). */
export type ToolGlob = RegExp;

/**
 * A tool-name glob compiled once, case-insensitive: braces expanded (`{a,b}`), `*` any run of
 * characters, `?` one, `[…]` a class. Undefined when it cannot be a tool name's glob.
 */
export function compileToolGlob(glob: string): ToolGlob | undefined {
  if (glob === "" || /[\s/]/.test(glob)) return undefined;
  const alternatives = braceExpand(glob).map((alt) => {
    let re = "";
    for (let i = 0; i < alt.length; i++) {
      const c = alt[i];
      if (c === "*") re += ".*";
      else if (c === "?") re += ".";
      else if (c === "[") {
        const end = alt.indexOf("]", i + 2);
        if (end < 0) return undefined;
        re += "[" + alt.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      } else if (c === "\\" && i + 1 < alt.length) re += alt[++i].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
    return re;
  });
  if (alternatives.some((a) => a === undefined)) return undefined;
  try {
    return new RegExp(`^(?:${alternatives.join("|")})$`, "i");
  } catch {
    return undefined;
  }
}

/** Does the glob match the tool's name as the agent spelled it, or its snake_case form? */
export function toolGlobMatches(matcher: ToolGlob, name: string): boolean {
  if (matcher.test(name)) return true;
  const snake = snakeName(name);
  return snake !== name && matcher.test(snake);
}
