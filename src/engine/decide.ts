// decide(call, rules, ctx) → allow | block | ask, with the rule and a reason written for the model.
// Every matching rule is collected and the strongest verdict wins (block > ask > allow), so an
// earlier ask rule can never hide a later block rule or a protected path.
import { compilePathEntry, globBase, globMayMatchName, pathContainsMatch, pathMatches, resolvePath, type PathMatcher } from "./paths";
import { askReason, blockReason } from "./reason";
import { analyzePowerShell } from "./powershell/analyze";
import { pathCandidates } from "./rules/path-index";
import { matchingPatterns } from "./rules/prefilter";
import { analyzeCommand } from "./shell/analyze";
import type { CommandAnalysis } from "./shell/types";
import { settingsShellVerdict, settingsWriteVerdict, vscodeCommandVerdict } from "./rules/guard-settings";
import { commandException, pathException } from "./rules/layers";
import { normalizeToolCall, type FileOp, type ToolCall } from "./toolcall";
import type { Access, Agent, DecideContext, Exception, PathRule, RuleRef, RuleSet, Span, Verdict } from "./types";

export type { ToolCall } from "./toolcall";

const RANK = { allow: 0, ask: 1, block: 2 } as const;

export const ALLOW: Verdict = Object.freeze({ action: "allow", reason: "" }) as Verdict;

export function decide(call: ToolCall, rules: RuleSet, ctx: DecideContext, agent: Agent = "cli"): Verdict {
  const norm = normalizeToolCall(call, agent);
  switch (norm.kind) {
    case "other":
      // Layers hook: VS Code's agent may not run the guard's own commands.
      return vscodeCommandVerdict(norm.tool, call.input) ?? ALLOW;
    case "invalid":
      return { action: "block", reason: blockReason(`malformed ${norm.tool || "tool"} call: ${norm.problem}`) };
    case "files": {
      const judge = new Judge(rules, ctx);
      for (const op of norm.ops) judge.fileOp(op);
      // Layers hook: the guard's own settings files (damageControl.* keys) are read-only for agents.
      for (const op of norm.ops) {
        const abs = op.access === "write" ? resolvePath(op.path, ctx) : undefined;
        const v = abs === undefined ? undefined : settingsWriteVerdict(abs, norm.tool, call.input, ctx );
        if (v) judge.offer(v);
      }
      return judge.verdict();
    }
    case "bash":
      if (norm.shell === "powershell") return decideAnalysis(norm.command, analyzePowerShell(norm.command, { cwd: ctx.cwd, home: ctx.home }), rules, ctx);
      return decideCommand(norm.command, rules, ctx);
  }
}

/** The bash part of decide, also used by "try a command" in the panel. */
export function decideCommand(command: string, rules: RuleSet, ctx: DecideContext): Verdict {
  return decideAnalysis(command, analyzeCommand(command, { cwd: ctx.cwd, home: ctx.home }), rules, ctx);
}

/** Judges what a shell analysis (bash or PowerShell) found in `command` against the rules. */
export function decideAnalysis(command: string, analysis: CommandAnalysis, rules: RuleSet, ctx: DecideContext): Verdict {
  const judge = new Judge(rules, ctx);
  for (const executed of analysis.commands) {
    const texts = executed.variants ? [executed.text, ...executed.variants] : [executed.text];
    // Same rules, same order as testing each regex on each text; the prefilter skips the regexes
    // whose required literal the texts lack (src/engine/rules/prefilter.ts).
    for (const rule of matchingPatterns(rules, texts)) {
      // Layers hook: an exception of the rule's layer or a stronger one lifts this refusal.
      if (judge.lifted(commandException(rules, rule, texts, ctx))) continue;
      const ref: RuleRef = { kind: "bashPattern", text: rule.pattern, reason: rule.reason, line: lineOf(rule), ...(rule.id !== undefined && { id: rule.id }), ...(rule.layer && { layer: rule.layer }) };
      const span = { ...executed.span, text: command.slice(executed.span.start, executed.span.end) };
      if (rule.ask) judge.offer({ action: "ask", reason: askReason(rule.reason, ref), rule: ref, match: span });
      else judge.offer({ action: "block", reason: blockReason(rule.reason, ref), rule: ref, match: span });
    }
  }
  for (const effect of analysis.effects) {
    const own = settingsShellVerdict(effect.path, effect.access, ctx);
    if (own) judge.offer({ ...own, match: { ...effect.span, text: command.slice(effect.span.start, effect.span.end) } });
    judge.path(effect.path, effect.access, effect.recursive, { ...effect.span, text: command.slice(effect.span.start, effect.span.end) }, effect.via);
  }
  for (const u of analysis.uncertain) {
    judge.offer({ action: "ask", reason: askReason(u.why), match: { ...u.span, text: command.slice(u.span.start, u.span.end) } });
  }
  if (analysis.parseErrors.length > 0) {
    const e = analysis.parseErrors[0];
    const what = `the command could not be parsed (${e.message}), so what it would run is unknown`;
    const match = { ...e.span, text: command.slice(e.span.start, e.span.end) };
    if (ctx.onParseError === "block") judge.offer({ action: "block", reason: blockReason(what), match });
    else judge.offer({ action: "ask", reason: askReason(what), match });
  }
  return judge.verdict();
}

interface CompiledPaths {
  zeroAccess: [PathRule, PathMatcher][];
  readOnly: [PathRule, PathMatcher][];
  noDelete: [PathRule, PathMatcher][];
}

/** Path entries depend on root and home; compile them once per rule set and context. */
const compiledCache = new WeakMap<RuleSet, Map<string, CompiledPaths>>();

function compiledPaths(rules: RuleSet, ctx: DecideContext): CompiledPaths {
  const root = ctx.root ?? ctx.cwd;
  const key = `${root}\0${ctx.home}`;
  let byCtx = compiledCache.get(rules);
  if (!byCtx) compiledCache.set(rules, (byCtx = new Map()));
  let compiled = byCtx.get(key);
  if (!compiled) {
    const pc = { cwd: root, home: ctx.home, root };
    const c = (list: PathRule[]) => list.map((r) => [r, compilePathEntry(r.path, pc)] as [PathRule, PathMatcher]);
    compiled = { zeroAccess: c(rules.zeroAccessPaths), readOnly: c(rules.readOnlyPaths), noDelete: c(rules.noDeletePaths) };
    if (byCtx.size > 64) byCtx.clear();
    byCtx.set(key, compiled);
  }
  return compiled;
}

/** Collects candidate verdicts and keeps the strongest (the first one of that strength). */
class Judge {
  private best: Verdict = ALLOW;
  private paths?: CompiledPaths;
  private exception?: Exception;

  constructor(
    private readonly rules: RuleSet,
    private readonly ctx: DecideContext,
  ) {}

  offer(v: Verdict): void {
    if (RANK[v.action] > RANK[this.best.action]) this.best = v;
  }

  verdict(): Verdict {
    const e = this.exception;
    if (e && this.best.action === "allow") return { ...ALLOW, exception: { text: e.kind === "command" ? e.pattern : e.path, reason: e.reason, ...(e.layer && { layer: e.layer }) } };
    return this.best;
  }

  /** Notes an exception that lifted a refusal; true when there was one. */
  lifted(e: Exception | undefined): boolean {
    if (e) this.exception ??= e;
    return e !== undefined;
  }

  fileOp(op: FileOp): void {
    const base = resolvePath(op.path, this.ctx);
    if (base === undefined) return;
    this.path(base, op.access, op.recursive, undefined, undefined);
    if (op.pattern) {
      // A Glob/find pattern lists the folder it starts in; a literal last segment names a file.
      const pattern = op.pattern;
      const dir = resolvePath(globBase(pattern), { ...this.ctx, cwd: base });
      if (dir !== undefined && dir !== base) this.path(dir, op.access, op.recursive, undefined, undefined);
      const last = pattern.split("/").pop() ?? "";
      if (last && !/[*?[\]{}]/.test(last)) {
        const named = resolvePath(pattern, { ...this.ctx, cwd: base });
        if (named !== undefined) this.path(named, "read", false, undefined, undefined);
      }
    }
  }

  /** Checks one touched path against the three path lists. */
  path(abs: string, access: Access, recursive: boolean, match: (Span & { text: string }) | undefined, via: string | undefined): void {
    if (this.best.action === "block") return;
    this.paths ??= compiledPaths(this.rules, this.ctx);
    const candidates = [abs];
    const real = this.ctx.realpath?.(abs);
    if (real !== undefined && real !== abs) candidates.push(real);

    const root = this.ctx.root ?? this.ctx.cwd;
    // A glob that may expand to a protected name: anywhere for zero-access, in the project root
    // (where the protected files live) for the others.
    const hit = (m: PathMatcher, anywhere = false) =>
      candidates.some((p) => pathMatches(m, p) || (recursive && pathContainsMatch(m, p)) || globMayMatchName(m, p, anywhere ? undefined : root));
    const how = via ? ` (${via})` : "";
    // pathCandidates: the entries that may hit, in list order (the first hit is the same as a full
    // scan's; src/engine/rules/path-index.ts).
    const shown = abs;

    for (const [rule, m] of pathCandidates(this.paths.zeroAccess, candidates, recursive)) {
      if (hit(m, true)) {
        const ref = refOf(rule);
        this.offer({ action: "block", reason: blockReason(`${shown} is a zero-access path: no ${verb(access)} allowed${how}`, ref), rule: ref, ...(match && { match }) });
        return;
      }
    }
    if (access === "write" || access === "delete") {
      for (const [rule, m] of pathCandidates(this.paths.readOnly, candidates, recursive)) {
        if (hit(m) && !this.lifted(candidates.map((p) => pathException(this.rules, rule, p, this.ctx)).find(Boolean))) {
          const ref = refOf(rule);
          this.offer({ action: "block", reason: blockReason(`${shown} is read-only: no ${verb(access)} allowed${how}`, ref), rule: ref, ...(match && { match }) });
          return;
        }
      }
    }
    if (access === "delete") {
      for (const [rule, m] of pathCandidates(this.paths.noDelete, candidates, recursive)) {
        if (hit(m) && !this.lifted(candidates.map((p) => pathException(this.rules, rule, p, this.ctx)).find(Boolean))) {
          const ref = refOf(rule);
          this.offer({ action: "block", reason: blockReason(`${shown} must not be deleted or moved${how}`, ref), rule: ref, ...(match && { match }) });
          return;
        }
      }
    }
  }
}

function verb(access: Access): string {
  return { read: "reading", write: "writing", delete: "deleting or moving", list: "listing or searching" }[access];
}

function refOf(rule: PathRule): RuleRef {
  return { kind: rule.kind, text: rule.path, line: rule.range ? rule.range.start.line + 1 : undefined, ...(rule.id !== undefined && { id: rule.id }), ...(rule.layer && { layer: rule.layer }) };
}

function lineOf(rule: { range?: { start: { line: number } } }): number | undefined {
  return rule.range ? rule.range.start.line + 1 : undefined;
}
