// One CommandAnalysis for an MCP call: its SQL statements and command lines as the executed
// commands the bash patterns judge (the same normalised statements as `psql -c`), the effects of
// its commands, and its paths as path effects. Spans point into `text`, one line per argument
// (`sql: DROP TABLE users;`), so Explain shows the argument that matched and nothing else —
// never a secret, which mcpArguments leaves out.
import { accessFromToolName } from "../toolcall";
import { resolvePath } from "../paths";
import { analyzeCommand } from "../shell/analyze";
import { identityCode } from "../shell/code";
import { sqlStatements } from "../shell/sql";
import type { CommandAnalysis } from "../shell/types";
import type { Access, DecideContext, Span } from "../types";
import type { McpArg } from "./arguments";

export interface McpAnalysis {
  /** The arguments that matter, one `key: value` line each: what the spans point into. */
  text: string;
  analysis: CommandAnalysis;
  /** The tool's name did not say what it does to its paths (judged as the strongest access). */
  unknownEffect: boolean;
}

export function analyzeMcpArguments(tool: string, args: readonly McpArg[], ctx: DecideContext): McpAnalysis {
  const analysis: CommandAnalysis = { commands: [], effects: [], remote: [], uncertain: [], parseErrors: [] };
  const named = accessFromToolName(tool);
  const access: Access = named ?? "write";
  // The same text as argumentsText(args), built piece by piece to know where each argument stands.
  let text = "";
  for (const arg of args) {
    if (text) text += "\n";
    text += `${arg.name}: `;
    const at = text.length;
    text += arg.text;
    if (arg.kind === "sql") {
      for (const st of sqlStatements(identityCode(arg.text, at)).statements) {
        analysis.commands.push(st.variants.length ? { text: st.text, variants: st.variants, span: st.span } : { text: st.text, span: st.span });
      }
    } else if (arg.kind === "command") {
      merge(analysis, analyzeCommand(arg.text, { cwd: ctx.cwd, home: ctx.home }), at);
    } else {
      const abs = resolvePath(arg.text, ctx);
      if (abs !== undefined) analysis.effects.push({ path: abs, access, recursive: false, span: { start: at, end: at + arg.text.length }, via: tool });
    }
  }
  return { text, analysis, unknownEffect: named === undefined };
}

/** Appends one command's analysis, every span moved to where that command stands in the text. */
function merge(into: CommandAnalysis, from: CommandAnalysis, offset: number): void {
  const target = into as unknown as Record<string, unknown[]>;
  for (const [key, list] of Object.entries(from as unknown as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    const shifted = list.map((item) => {
      const span = (item as { span?: Span }).span;
      return span ? { ...(item as object), span: { start: span.start + offset, end: span.end + offset } } : item;
    });
    (target[key] ??= []).push(...shifted);
  }
}
