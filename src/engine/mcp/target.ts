// An MCP call for people and the audit trail: its target is the arguments that run or touch
// something (`sql: DROP TABLE users;`), never data nor a secret; and a call rebuilt from that
// target, so the panel's Explain decides it again (the ledger keeps the target, not the input).
import { argumentsText, isArgumentKey, mcpArguments } from "./arguments";
import { mcpName } from "./name";

/** The target of an MCP call ("" when none of its arguments runs or touches anything). */
export function mcpTarget(tool: string, input: unknown): string {
  const m = mcpName(tool);
  return m ? argumentsText(mcpArguments(m.tool, input)) : "";
}

/** The call a target stands for: one {name: value} per argument (a value may span lines). */
export function mcpCallFromTarget(tool: string, target: string): { tool: string; input: Record<string, string>[] } {
  const input: Record<string, string>[] = [];
  for (const line of target.split("\n")) {
    const m = /^([^:\s]+): (.*)$/s.exec(line);
    if (m && isArgumentKey(m[1])) input.push({ [m[1]]: m[2] });
    else if (input.length > 0) {
      const last = input[input.length - 1];
      const key = Object.keys(last)[0];
      last[key] += "\n" + line;
    }
  }
  return { tool, input };
}
