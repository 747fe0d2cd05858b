// damage-control check: one tool call (JSON on stdin) → its decision word, rule and reason.
import * as os from "node:os";
import * as path from "node:path";
import { describeRule } from "../engine/reason";
import { normalizeToolCall } from "../engine/toolcall";
import type { Verdict } from "../engine/types";
import { boundedDecider, undecidedVerdict } from "../core/decider";
import { args, CliError, parseJson, readStdin } from "./io";
import { loadCliRules, type LoadedRules } from "./rules-source";

export const CHECK_HELP = `Usage: damage-control check [--rules FILE] [--cwd DIR] [--home DIR] [--jsonl] [--trust-workspace-rules]

Reads one tool call as JSON on stdin, {"tool": "...", "input": {...}}, in Claude Code's
vocabulary (Bash, Read, Write, Edit, Glob, Grep, NotebookEdit) or pi's (bash, read, write,
edit, grep, find, ls). "cwd" and "home" keys in the JSON override the flags; a "cwd" is
the workspace too (its rules file and root), per line under --jsonl, and need not exist.
Prints the decision (allow, block or ask) as the first word, then the rule, the layer it
came from (managed, user, workspace, default; policy for --rules) and the reason.

  --rules FILE  this file is the whole policy: no default floor, no user or managed layer
                (default: the layers: /etc/damage-control/rules.yaml, the user's
                ~/.config/damage-control/rules.yaml, .pi/damage-control-rules.yaml in --cwd or
                above it, the embedded defaults)
  --trust-workspace-rules
                let the workspace file's disable: and allow: take effect (else it only adds)
  --cwd DIR     directory the call runs in (default: current directory)
  --home DIR    home directory for ~ (default: $HOME)
  --jsonl       read one call per line; write one JSON verdict per line

Exit codes: 0 decided, 2 bad input, 3 rules file unreadable or broken.`;

export async function runCheck(argv: string[]): Promise<number> {
  const { values } = args(argv, {
    rules: { type: "string" },
    cwd: { type: "string" },
    home: { type: "string" },
    jsonl: { type: "boolean" },
    "trust-workspace-rules": { type: "boolean" },
  });
  const cwd = path.resolve(values.cwd ?? process.cwd());
  const home = values.home ?? process.env.HOME ?? os.homedir();
  const trust = values["trust-workspace-rules"] === true;
  const noted = new Set<string>();
  // A call's "cwd" is its workspace too: the rules file found from there and the root its
  // relative entries (and the regenerable carve-outs) are anchored to. The folder need not exist.
  const byCwd = new Map<string, LoadedRules>();
  const rulesFor = (dir: string): LoadedRules => {
    let l = byCwd.get(dir);
    if (!l) {
      l = loadCliRules(values.rules, dir, trust);
      byCwd.set(dir, l);
      if (l.pending && !noted.has(l.pending.file)) {
        noted.add(l.pending.file);
        const d = l.pending.loosening;
        process.stderr.write(`note: ${l.pending.file} would disable ${d.drops.length} rule(s) and add ${d.exceptions.length} exception(s); not in force (approve it in VS Code, or pass --trust-workspace-rules)\n`);
      }
    }
    return l;
  };
  rulesFor(cwd);
  const input = readStdin();

  // The same time-bounded worker the endpoint uses: a pathological rule cannot hang the CLI either.
  const decider = boundedDecider();
  const judge = async (raw: unknown): Promise<Verdict> => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CliError('expected a JSON object {"tool": ..., "input": ...}');
    const call = raw as Record<string, unknown>;
    if (typeof call.tool !== "string") throw new CliError('the JSON needs a "tool" string');
    if (call.input === undefined) throw new CliError('the JSON needs an "input" object');
    const norm = normalizeToolCall({ tool: call.tool, input: call.input });
    if (norm.kind === "invalid") throw new CliError(`unknown tool shape: ${norm.problem}`);
    const c = typeof call.cwd === "string" ? path.resolve(cwd, call.cwd) : cwd;
    const h = typeof call.home === "string" ? call.home : home;
    const req = { agent: "cli" as const, event: "PreToolUse", call: { tool: call.tool, input: call.input }, cwd: c };
    const loaded = rulesFor(c);
    return decider
      .judge(req, loaded.rules, { folder: c, home: h, root: values.rules ? c : loaded.root }, "advisory")
      .then((j) => (j.kind === "verdict" ? j.verdict : { action: "allow" as const, reason: "" }), undecidedVerdict);
  };

  if (values.jsonl) {
    const out: string[] = [];
    const lines = input.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "") continue;
      try {
        const v = await judge(parseJson(line, `line ${i + 1}`));
        out.push(JSON.stringify({ action: v.action, rule: v.rule ?? null, layer: v.rule?.layer ?? v.exception?.layer ?? null, reason: v.reason, match: v.match ?? null, ...(v.exception && { exception: v.exception }) }));
      } catch (e) {
        if (!(e instanceof CliError)) throw e;
        out.push(JSON.stringify({ error: `line ${i + 1}: ${e.message}` }));
      }
    }
    decider.close();
    process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
    return 0;
  }

  const v = await judge(parseJson(input, "standard input")).finally(() => decider.close());
  const lines: string[] = [v.action];
  if (v.rule) lines.push(`rule: ${describeRule(v.rule)}`);
  if (v.rule?.layer) lines.push(`layer: ${v.rule.layer}`);
  if (v.exception) lines.push(`exception: /${v.exception.text}/ (${v.exception.layer ?? "?"} layer): ${v.exception.reason}`, ...(v.rule ? [] : [`layer: ${v.exception.layer ?? "?"}`]));
  if (v.reason) lines.push(`reason: ${v.reason}`);
  if (v.match) lines.push(`matched: ${v.match.text} [${v.match.start}, ${v.match.end})`);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}
