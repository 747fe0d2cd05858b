// decide(call, rules, ctx) → allow | block | ask, with the rule and a reason written for the model.
// Every matching rule is collected and the strongest verdict wins (block > ask > allow), so an
// earlier ask rule can never hide a later block rule or a protected path.
import { inTrustStore } from "./trust-stores";
import { compilePathEntry, globBase, globMayMatchName, globMayReachFolder, patternMayMatchEntry, pathContainsMatch, pathMatches, resolvePath, samePathSpellings, type PathMatcher } from "./paths";
import { listedNamesMeetSecret, reachesByKind, regenerableName } from "./kinds";
import { locksRegenerated } from "./lock-tools";
import { askReason, blockReason } from "./reason";
import { analyzePowerShell } from "./powershell/analyze";
import { setWindowsShellAnalysis } from "./shell/programs/windows-shells";

// `pwsh -c …` and `cmd /c …` from a Bash tool are read by the PowerShell analysis (issue 36).
setWindowsShellAnalysis(analyzePowerShell);
import { settingsShellVerdict, settingsWriteVerdict, vscodeCommandVerdict } from "./rules/guard-settings";
import { commandException, exceptionText, pathException, toolException } from "./rules/layers";
import { analyzeMcpArguments } from "./mcp/analysis";
import { mcpArguments } from "./mcp/arguments";
import { noEffectMcpTool } from "./mcp/no-effect";
import { destroyScope, type DestroyScope } from "./mcp/scope";
import { toolNameVerdict } from "./mcp/tool-rules";
import { pathCandidates } from "./rules/path-index";
import { matchingCommandPatterns } from "./rules/prefilter";
import { analyzeCommand } from "./shell/analyze";
import { handledProgram } from "./shell/dispatch";
import { variantsOfCommand } from "./shell/normalize";
import { normalizeToolCall, type FileOp, type NormalizedCall, type ToolCall } from "./toolcall";
import type { CommandAnalysis, ExecutedCommand, Narrow, PathEffect } from "./shell/types";
import { effectMatcher } from "./rules/parse-effect";
import { sandboxEscapeVerdict } from "./sandbox/escape";
import type { Access, Agent, BashPatternRule, DecideContext, Exception, LayerName, PathRule, RuleRef, RuleSet, Span, Verdict } from "./types";

export type { ToolCall } from "./toolcall";

const RANK = { allow: 0, ask: 1, block: 2 } as const;
const GLOB_CHARS = /[*?[\]{}]/;

export const ALLOW: Verdict = Object.freeze({ action: "allow", reason: "" }) as Verdict;

/** What deciding computed on the way (the call's normal form, the shell analysis), for the caller's next step. */
export interface Seen {
  norm?: NormalizedCall;
  analysis?: CommandAnalysis;
}

export function decide(call: ToolCall, rules: RuleSet, ctx: DecideContext, agent: Agent = "cli", seen?: Seen): Verdict {
  const norm = normalizeToolCall(call, agent);
  if (seen) seen.norm = norm;
  const v = decideByKind(norm, call, rules, ctx, seen);
  // toolNamePatterns hold for any tool by its name (the MCP case judged them with its arguments).
  if (norm.kind === "mcp" || !rules.toolNamePatterns?.length) return v;
  const named = toolNameVerdict(rules, norm.tool, () => destroyScope(norm.tool, call.input, mcpArguments(norm.tool, call.input)), ctx).verdict;
  return named && RANK[named.action] > RANK[v.action] ? named : v;
}

function decideByKind(norm: NormalizedCall, call: ToolCall, rules: RuleSet, ctx: DecideContext, seen: Seen | undefined): Verdict {
  switch (norm.kind) {
    case "mcp":
      return decideMcp(norm, rules, ctx, seen);
    case "other":
      // No command, path or file URL to judge. The per-agent no-effect tools get no opinion;
      // any other tool follows ctx.unknownTools (default: no opinion, as issue 14 §3 asks).
      // Layers hook: VS Code's agent may not run the guard's own commands.
      if (!norm.noEffect) {
        const own = vscodeCommandVerdict(norm.tool, call.input);
        if (own) return own;
      }
      return norm.noEffect ? ALLOW : nothingToJudge(norm.tool, ctx);
    case "powershell":
      // Cmdlets, aliases, nested code and native programs, read as PowerShell reads them.
      return decideAnalysis(norm.command, see(seen, analyzePowerShell(norm.command, { cwd: ctx.cwd, home: ctx.home })), rules, ctx);
    case "invalid":
      return { action: "block", reason: blockReason(`malformed ${norm.tool || "tool"} call: ${norm.problem}`) };
    case "files": {
      const judge = new Judge(rules, ctx);
      for (const op of norm.ops) judge.fileOp(op);
      // Layers hook: the guard's own settings files (damageControl.* keys) are read-only for agents.
      for (const op of norm.ops) {
        const abs = op.access === "write" ? resolvePath(op.path, ctx) : undefined;
        const own = abs === undefined ? undefined : settingsWriteVerdict(abs, norm.tool, call.input, ctx);
        if (own) judge.offer(own);
      }
      const v = judge.verdict();
      // An unknown tool whose name does not say what it does was judged as the strongest access:
      // a refusal that only a modification would earn is put to the user instead.
      if (v.action === "block" && norm.ops.some((o) => o.unknownEffect) && v.rule?.kind !== "zeroAccess") {
        return { ...v, action: "ask", reason: askReason(`${norm.tool} touches ${norm.ops[0].path}, and what it does to it is unknown (${v.rule ? v.rule.kind : "protected"} path)`, v.rule) };
      }
      return v;
    }
    case "bash":
      // Asking to leave the sandbox is refused before anything else is judged.
      return sandboxEscapeVerdict(call.input) ?? decideAnalysis(norm.command, see(seen, analyzeCommand(norm.command, { cwd: ctx.cwd, home: ctx.home })), rules, ctx);
  }
}

function see(seen: Seen | undefined, analysis: CommandAnalysis): CommandAnalysis {
  if (seen) seen.analysis = analysis;
  return analysis;
}

/**
 * A test or throwaway database (issue 36, family 4: everyday): the command names one —
 * `plume_test`, `test_db`, `app_e2e`, `:memory:`, a file below /tmp — or runs under a test
 * environment (`RAILS_ENV=test`, `MIX_ENV=test`, a framework's `--env=testing`, Django's test settings).
 */
export function throwawayDatabase(written: string, text: string): boolean {
  const t = `${written} ${text}`;
  return (
    /\b[A-Za-z0-9]+[_-](test|tests|e2e|scratch|tmp|throwaway)\b(?![.-]\w)|\b(test|e2e|scratch|tmp|throwaway)[_-][A-Za-z0-9_]+|:memory:|(^|[\s'"=])\/tmp\/\S+\.(db|sqlite|sqlite3|duckdb)\b|\b(RAILS_ENV|MIX_ENV|NODE_ENV|APP_ENV|RACK_ENV|FLASK_ENV|ASPNETCORE_ENVIRONMENT)=['"]?(test|testing)\b|(^|\s)--env[= ]['"]?(test|testing)\b|\bDJANGO_SETTINGS_MODULE=['"]?[\w.]*\.(test|tests|testing)\b|(^|\s)--settings[= ]['"]?[\w.]*\.(test|tests|testing)\b/.test(t)
  );
}

/** The original text of the widest command around `span` (the client around its SQL, with its environment). */
function commandAround(command: string, analysis: CommandAnalysis, span: Span): string {
  let start = span.start;
  let end = span.end;
  let around = false;
  for (const c of analysis.commands) {
    if (c.span.start <= span.start && c.span.end >= span.end && (c.span.start < span.start || c.span.end > span.end)) {
      start = Math.min(start, c.span.start);
      end = Math.max(end, c.span.end);
      around = true;
    }
  }
  // A statement of a here-document stands outside its client's words: the whole line then.
  return around ? command.slice(start, end) : command;
}

/** The "other" answer: a tool with nothing to judge gets ctx.unknownTools (default: no opinion). */
function nothingToJudge(tool: string, ctx: DecideContext): Verdict {
  if ((ctx.unknownTools ?? "no-opinion") === "no-opinion") return ALLOW;
  return { action: "ask", reason: askReason(`${tool || "this tool"} is a tool Damage Control has no vocabulary for, and its input names no command, path or file URL to judge`) };
}

/**
 * An MCP call (src/engine/mcp/): its SQL, commands and paths as one analysis judged by every rule,
 * and its name by the toolNamePatterns, narrowed by what its arguments reach. A tool exception
 * (`allow: {tool}`) lifts the patterns and tool-name rules, never a path rule.
 */
function decideMcp(norm: Extract<NormalizedCall, { kind: "mcp" }>, rules: RuleSet, ctx: DecideContext, seen?: Seen): Verdict {
  const args = mcpArguments(norm.mcp.tool, norm.input, norm.mcp.server);
  let scope: DestroyScope | undefined;
  const named = toolNameVerdict(rules, norm.tool, () => (scope ??= destroyScope(norm.mcp.tool, norm.input, args)), ctx);
  let v: Verdict = ALLOW;
  if (args.length > 0) {
    const { text, analysis, unknownEffect } = analyzeMcpArguments(norm.mcp.tool, args, ctx);
    v = decideAnalysis(text, see(seen, analysis), rules, ctx, (layer) => toolException(rules, layer, norm.tool, ctx));
    // A tool whose name does not say what it does to a path was judged as writing it: a refusal
    // only a modification would earn is put to the user instead (as for unknown file tools).
    if (v.action === "block" && unknownEffect && (v.rule?.kind === "readOnly" || v.rule?.kind === "noDelete")) {
      v = { ...v, action: "ask", reason: askReason(`${norm.tool} touches ${v.match?.text ?? "a protected path"}, and what it does to it is unknown (${v.rule.kind} path)`, v.rule) };
    }
  } else if (!named.verdict && !named.lifted) return noEffectMcpTool(norm.mcp.tool) ? ALLOW : nothingToJudge(norm.tool, ctx);
  if (named.verdict && RANK[named.verdict.action] > RANK[v.action]) return named.verdict;
  if (v.action === "allow" && !v.exception && named.lifted) return { ...ALLOW, exception: { text: exceptionText(named.lifted), reason: named.lifted.reason, ...(named.lifted.layer && { layer: named.lifted.layer }) } };
  return v;
}

/** The bash part of decide, also used by "try a command" in the panel. */
export function decideCommand(command: string, rules: RuleSet, ctx: DecideContext): Verdict {
  return decideAnalysis(command, analyzeCommand(command, { cwd: ctx.cwd, home: ctx.home }), rules, ctx);
}

/** Judges what a shell analysis (bash or PowerShell) found in `command` against the rules. */
export function decideAnalysis(command: string, analysis: CommandAnalysis, rules: RuleSet, ctx: DecideContext, lift?: (ruleLayer: LayerName | undefined) => Exception | undefined): Verdict {
  const judge = new Judge(rules, ctx, command);
  // First, so that of two refusals as strong, the effect's (more specific) reason is the one kept.
  judgeRemote(judge, command, analysis, rules, ctx);
  // Nothing can lift a refusal of a pattern rule (no command exception, no tool exception): a
  // block rule that applies settles a command's verdict, and the rules after it need not be found.
  const unliftable = lift === undefined && !(rules.allow ?? []).some((e) => e.kind === "command");
  for (const executed of analysis.commands) {
    // A block already held (an earlier command, a remote effect): no pattern rule can change it.
    if (unliftable && !judge.wouldTake("block")) break;
    let program: string | undefined; // the program word, read only for a rule anchored to one
    let understood: boolean | undefined;
    let texts: string[] | undefined;
    // A pattern written for one program (`\brm\s+…`) is judged on that program's commands:
    // inside another program the engine understands (`git rm -r --cached`), the words are that
    // program's arguments. Equivalent invocations are emitted as the program they amount to.
    const otherProgram = (rule: BashPatternRule) => {
      const anchor = patternProgram(rule);
      return anchor !== undefined && anchor !== (program ??= executed.text.slice(0, executed.text.indexOf(" ") >>> 0)) && (understood ??= handledProgram(program));
    };
    // Once the verdict is a block, no rule can change it; a block rule of this command that is
    // not skipped below makes it one (the loop offers it or already holds a block).
    const settles = unliftable ? (rule: BashPatternRule) => !rule.ask && rule.unless === undefined && !otherProgram(rule) : undefined;
    // The rules whose regex matches the text or a variant, in file order; the prefilter skips the
    // regexes whose required literal the texts lack (src/engine/rules/prefilter.ts).
    for (const rule of matchingCommandPatterns(rules, executed, settles)) {
      if (otherProgram(rule)) continue;
      // Only a verdict stronger than the one held can change the answer: skip the rest early.
      if (!judge.wouldTake(rule.ask ? "ask" : "block")) continue;
      if (rule.unless === "regenerable" && judge.regenerableOnly(analysis.effects, executed.span)) continue;
      if (rule.unless === "throwaway" && throwawayDatabase(commandAround(command, analysis, executed.span), executed.text)) continue;
      if (rule.unless === "confined" && judge.confined(executed, analysis)) continue;
      // Layers hook: an exception of the rule's layer or a stronger one lifts this refusal.
      if (judge.lifted(commandException(rules, rule, () => (texts ??= [executed.text, ...(variantsOfCommand(executed) ?? [])]), ctx) ?? lift?.(rule.layer))) continue;
      const ref: RuleRef = { kind: "bashPattern", text: rule.pattern, reason: rule.reason, line: lineOf(rule), ...(rule.id !== undefined && { id: rule.id }), ...(rule.layer && { layer: rule.layer }) };
      const span = matchOf(command, executed.span);
      // Decoded, aliased or equivalent commands are named, so the reason says what would run.
      const what = sameWords(span.text, executed.text) ? rule.reason : `${rule.reason}: it runs \`${executed.text}\``;
      if (rule.ask) judge.offer({ action: "ask", reason: askReason(what, ref), rule: ref, match: span });
      else judge.offer({ action: "block", reason: blockReason(what, ref), rule: ref, match: span });
    }
  }
  if (analysis.effects.some((e) => e.access === "delete")) judge.regenerated = locksRegenerated(analysis.commands.map((c) => c.text));
  for (const effect of analysis.effects) {
    const own = settingsShellVerdict(effect.path, effect.access, ctx);
    if (own) judge.offer({ ...own, match: matchOf(command, effect.span) });
    judge.path(effect.path, effect.access, effect.recursive, effect.span, effect.via, effect.only && { only: effect.only, reformat: effect.reformat });
  }
  for (const u of analysis.uncertain) {
    judge.offer({ action: "ask", reason: askReason(u.why), match: matchOf(command, u.span) });
  }
  if (analysis.parseErrors.length > 0) {
    const e = analysis.parseErrors[0];
    const what = `the command could not be parsed (${e.message}), so what it would run is unknown`;
    const match = matchOf(command, e.span);
    if (ctx.onParseError === "block") judge.offer({ action: "block", reason: blockReason(what), match });
    else judge.offer({ action: "ask", reason: askReason(what), match });
  }
  return judge.verdict();
}

/**
 * Remote effects (src/engine/remote/) against the effect rules (`effect: destroy backups`): the
 * rules for an effect and target are found once per rule set (a Map), so no regex runs per rule.
 * An `allow:` command exception lifts an effect rule by the text of the command at the effect.
 */
function judgeRemote(judge: Judge, command: string, analysis: CommandAnalysis, rules: RuleSet, ctx: DecideContext): void {
  if (analysis.remote.length === 0) return;
  for (const e of analysis.remote) {
    let texts: string[] | undefined;
    // A test or throwaway database emptied (issue 36: everyday).
    if (e.target === "data-service" && throwawayDatabase(commandAround(command, analysis, e.span), "")) continue;
    for (const rule of effectRulesFor(rules, e.effect, e.target)) {
      if (!judge.wouldTake(rule.ask ? "ask" : "block")) continue;
      const textsAt = () => (texts ??= analysis.commands.filter((c) => c.span.start <= e.span.start && c.span.end >= e.span.end).flatMap((c) => [c.text, ...(variantsOfCommand(c) ?? [])]));
      if (judge.lifted(commandException(rules, rule, textsAt, ctx))) continue;
      const ref: RuleRef = { kind: "bashPattern", text: rule.pattern, effect: true, reason: rule.reason, line: lineOf(rule), ...(rule.id !== undefined && { id: rule.id }), ...(rule.layer && { layer: rule.layer }) };
      const what = `${e.via}${e.resource ? ` (${e.resource})` : ""}: ${rule.reason}`;
      const match = matchOf(command, e.span);
      judge.offer(rule.ask ? { action: "ask", reason: askReason(what, ref), rule: ref, match } : { action: "block", reason: blockReason(what, ref), rule: ref, match });
    }
  }
}

const effectRuleCache = new WeakMap<readonly BashPatternRule[], Map<string, BashPatternRule[]>>();

/** The effect rules for one effect and target, in file order. */
function effectRulesFor(rules: RuleSet, effect: string, target: string): BashPatternRule[] {
  const list = rules.bashToolPatterns;
  let byKey = effectRuleCache.get(list);
  if (!byKey) effectRuleCache.set(list, (byKey = new Map()));
  const key = `${effect} ${target}`;
  let found = byKey.get(key);
  if (!found) byKey.set(key, (found = list.filter((r) => r.effect !== undefined && effectMatcher(r.effect)(effect, target))));
  return found;
}



/** The part of the command a verdict points at. */
function matchOf(command: string, span: Span): Span & { text: string } {
  return { start: span.start, end: span.end, text: command.slice(span.start, span.end) };
}

/** Does the original text already show the command's words (so naming it adds nothing)? */
export function sameWords(original: string, normalized: string): boolean {
  // Word by word without splitting (this runs for every refusal): the words between single
  // spaces, the data placeholder `…` and empty words (always shown) skipped.
  for (let start = 0; start <= normalized.length; ) {
    let end = normalized.indexOf(" ", start);
    if (end < 0) end = normalized.length;
    if (end > start && !(end - start === 1 && normalized[start] === "…") && !original.includes(normalized.slice(start, end))) return false;
    start = end + 1;
  }
  return true;
}

/**
 * The program a pattern is written for: its leading literal word (`\brm\s+…` → rm,
 * `\bsudo\b` → sudo), when that word is a program the analysis knows. Cached per rule.
 */
const anchorCache = new WeakMap<object, string | null>();
export function patternProgram(rule: { pattern: string; regex: RegExp }): string | undefined {
  let a = anchorCache.get(rule);
  if (a === undefined) {
    // A leading lookbehind (`(?<!\bdocker\s)\brm…`) only narrows where the word may stand.
    const pattern = rule.pattern.replace(/^\(\?<!(?:[^()]|\([^()]*\))*\)/, "");
    const m = /^(?:\^|\\b|\(\?:\^\|\\s\)|\s)*([a-z][a-z0-9_-]*)(?=\\s|\\b| |\(|\[|$)/.exec(pattern);
    a = m && !rule.regex.flags.includes("i") && handledProgram(m[1]) ? m[1] : null;
    anchorCache.set(rule, a);
  }
  return a ?? undefined;
}

interface CompiledPaths {
  zeroAccess: [PathRule, PathMatcher][];
  readOnly: [PathRule, PathMatcher][];
  noDelete: [PathRule, PathMatcher][];
  except: { zeroAccess: PathMatcher[]; readOnly: PathMatcher[]; noDelete: PathMatcher[] };
  /** `sandbox.updatedByTools`: read-only files their tools regenerate (lock files). */
  updatedByTools: PathMatcher[];
}

/** Path entries depend on root and home; compile them once per rule set and context (a few contexts kept). */
const compiledCache = new WeakMap<RuleSet, Map<string, CompiledPaths>>();
export const COMPILED_CONTEXTS_KEPT = 64;

/**
 * The last answer of compiledPaths: a session decides call after call with the same rules, root
 * and home, and comparing those beats building and hashing the key string every call.
 */
let lastCompiled: { rules: RuleSet; root: string; home: string; compiled: CompiledPaths } | undefined;

function compiledPaths(rules: RuleSet, ctx: DecideContext): CompiledPaths {
  const root = ctx.root ?? ctx.cwd;
  const last = lastCompiled;
  if (last && last.rules === rules && last.root === root && last.home === ctx.home) return last.compiled;
  const compiled = compiledPathsFor(rules, root, ctx.home);
  lastCompiled = { rules, root, home: ctx.home, compiled };
  return compiled;
}

function compiledPathsFor(rules: RuleSet, root: string, home: string): CompiledPaths {
  const key = `${root}\0${home}`;
  let byCtx = compiledCache.get(rules);
  if (!byCtx) compiledCache.set(rules, (byCtx = new Map()));
  let compiled = byCtx.get(key);
  if (!compiled) {
    const pc = { cwd: root, home, root };
    const c = (list: PathRule[]) => list.map((r) => [r, compilePathEntry(r.path, pc)] as [PathRule, PathMatcher]);
    const e = (list: PathRule[] | undefined) => (list ?? []).map((r) => compilePathEntry(r.path, pc));
    const x = rules.exceptions;
    compiled = { zeroAccess: c(rules.zeroAccessPaths), readOnly: c(rules.readOnlyPaths), noDelete: c(rules.noDeletePaths), except: { zeroAccess: e(x?.zeroAccess), readOnly: e(x?.readOnly), noDelete: e(x?.noDelete) }, updatedByTools: (rules.sandbox?.updatedByTools ?? []).map((p) => compilePathEntry(p, pc)) };
    if (byCtx.size >= COMPILED_CONTEXTS_KEPT) byCtx.clear();
    byCtx.set(key, compiled);
  }
  return compiled;
}

/** How many contexts' compiled path entries are kept for one rule set now (tests and the bench check the bounds). */
export function compiledContextCount(rules: RuleSet): number {
  return compiledCache.get(rules)?.size ?? 0;
}

/** Collects candidate verdicts and keeps the strongest (the first one of that strength). */
class Judge {
  private best: Verdict = ALLOW;
  /** Lock files a command of this line writes again (lock-tools.ts). */
  regenerated: ReadonlySet<string> = new Set();
  private paths?: CompiledPaths;
  private exception?: Exception;

  constructor(
    private readonly rules: RuleSet,
    private readonly ctx: DecideContext,
    /** The command the spans of path effects point into (none for file tools). */
    private readonly command = "",
  ) {}

  offer(v: Verdict): void {
    if (RANK[v.action] > RANK[this.best.action]) this.best = v;
  }

  verdict(): Verdict {
    const e = this.exception;
    if (e && this.best.action === "allow") return { ...ALLOW, exception: { text: exceptionText(e), reason: e.reason, ...(e.layer && { layer: e.layer }) } };
    return this.best;
  }

  /** Notes an exception that lifted a refusal; true when there was one. */
  lifted(e: Exception | undefined): boolean {
    if (e) this.exception ??= e;
    return e !== undefined;
  }

  wouldTake(action: Verdict["action"]): boolean {
    return RANK[action] > RANK[this.best.action];
  }

  /**
   * Does the command at `span` delete only regenerable output? Every delete effect inside it must
   * be a regenerable name (or below one) inside the workspace, or a folder strictly below a temp
   * dir; none may be or contain a protected path. No delete effect at all: not regenerable.
   */
  regenerableOnly(effects: readonly Pick<PathEffect, "path" | "access" | "span" | "only" | "recursive">[], span: Span): boolean {
    const root = (this.ctx.root ?? this.ctx.cwd).replace(/\/+$/, "");
    const temps = ["/tmp", "/var/tmp", ...(this.ctx.tmpdir ? [this.ctx.tmpdir.replace(/\/+$/, "")] : [])];
    // The command's own deletes: inside its span, or around it (xargs and find hand their items to
    // the command they run, at their own span).
    const mine = effects.filter((e) => e.access === "delete" && e.span.start < span.end && span.start < e.span.end);
    if (mine.length === 0) return false;
    // Named files, no recursion (`rm -f a.log b.tmp`, issue 36): a snapshot is kept before a
    // delete, so it is recoverable; protected files are refused by the path lists all the same.
    if (mine.every((e) => !e.recursive && !e.only && !/\/[*?]*$/.test(e.path))) return true;
    this.paths ??= compiledPaths(this.rules, this.ctx);
    const all = [...this.paths.zeroAccess, ...this.paths.readOnly, ...this.paths.noDelete];
    return mine.every((e) => {
      // A delete of the files of regenerable kinds only, at or below a folder of the workspace
      // (`find . -name '*.pyc' -delete`): regenerable unless such a name can be a protected one.
      if (e.only) {
        return (e.path === root || e.path.startsWith(root + "/")) && e.only.every(regenerableName) && !all.some(([, m]) => reachesByKind(m, e.path, e.only!, false));
      }
      const last = e.path.slice(e.path.lastIndexOf("/") + 1);
      const inRoot = e.path.startsWith(root + "/");
      // Scratch below the temp dir, unless it is the workspace's own content (a workspace that
      // itself lives in /tmp is judged as a workspace: only its regenerable output passes).
      const inTemp = !inRoot && e.path !== root && !root.startsWith(e.path + "/") && temps.some((t) => e.path.startsWith(t + "/") && e.path.length > t.length + 1);
      // A glob is regenerable only as a whole name of a regenerable kind (`DIR/*.pyc`), or, in
      // the temp dir, as a family of names the agent made there (`/tmp/e2e-run-*`: a literal
      // start, wildcards in the last name only); `/tmp/*` is every user's scratch, not the agent's.
      const globDir = /[*?[\]{}]/.test(e.path.slice(0, -last.length));
      const ownScratch = inTemp && !globDir && /^[^*?[\]{}]+[*?[\]{}]/.test(last);
      if (/[*?[\]{}]/.test(e.path) && !ownScratch && !(regenerableName(last) && !globDir)) return false;
      const rel = inRoot ? e.path.slice(root.length + 1) : "";
      // git's lock files are transient state git recreates (a stale .git/index.lock).
      const gitLock = inRoot && /(^|\/)\.git\/([^/]+\/)*[^/]+\.lock$/.test(rel);
      if (!inTemp && !gitLock && !(inRoot && rel.split("/").some(regenerableName))) return false;
      if (gitLock) return true;
      return !all.some(([, m]) => pathContainsMatch(m, e.path));
    });
  }

  /**
   * Is a privileged command confined (ExecutedCommand.confined)? A listing of the system's state
   * is; an owner or mode change is when every file it names lies in the workspace (`sudo chown -R
   * dev:dev node_modules` after a container wrote it as root) and nothing in it is unknown.
   */
  confined(executed: ExecutedCommand, analysis: CommandAnalysis): boolean {
    if (executed.confined === "reads" || executed.confined === "names") return true;
    if (executed.confined !== "workspace") return false;
    const root = (this.ctx.root ?? this.ctx.cwd).replace(/\/+$/, "");
    const inside = (s: Span) => s.start >= executed.span.start && s.end <= executed.span.end;
    const mine = analysis.effects.filter((e) => inside(e.span));
    if (root === "" || analysis.uncertain.some((u) => inside(u.span)) || analysis.remote.some((e) => inside(e.span))) return false;
    return mine.length > 0 && mine.every((e) => e.path === root || e.path.startsWith(root + "/"));
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
      // The glob itself: a pattern that can match a zero-access name (`**/*.pem`, `.env*`) is an
      // access to those files (the last segment is compared with the protected names).
      if (/[*?[\]{}]/.test(pattern)) {
        const globbed = resolvePath(pattern, { ...this.ctx, cwd: base });
        if (globbed !== undefined) this.path(globbed, op.access, true, undefined, undefined);
      }
      const last = pattern.split("/").pop() ?? "";
      if (last && !/[*?[\]{}]/.test(last)) {
        const named = resolvePath(pattern, { ...this.ctx, cwd: base });
        if (named !== undefined) this.path(named, "read", false, undefined, undefined);
      }
    }
  }

  /** Checks one touched path against the three path lists; `at`: where the command touches it. */
  path(abs: string, access: Access, recursive: boolean, at: Span | undefined, via: string | undefined, narrow?: Narrow): void {
    if (this.best.action === "block") return;
    this.paths ??= compiledPaths(this.rules, this.ctx);
    const candidates = [abs];
    const real = this.ctx.realpath?.(abs);
    if (real !== undefined && real !== abs) candidates.push(real);
    for (const alt of samePathSpellings(abs, this.ctx.cwd)) if (!candidates.includes(alt)) candidates.push(alt);

    const root = this.ctx.root ?? this.ctx.cwd;
    // A glob that may expand to a protected name: anywhere for zero-access, in the project root
    // (where the protected files live) for the others.
    const globs = candidates.some((p) => GLOB_CHARS.test(p));
    const hit = (m: PathMatcher, anywhere = false) =>
      candidates.some((p) => (recursive ? pathContainsMatch(m, p) : pathMatches(m, p)) || (globs && (globMayMatchName(m, p, anywhere ? undefined : root) || globMayReachFolder(m, p, recursive))));
    // An effect on the files of some kinds only (a formatter's folder, find -name … -delete)
    // reaches the read-only and no-delete entries those names can be (kinds.ts). Zero-access
    // entries are judged by `hit`: a secret may have any name.
    const only = recursive ? narrow?.only : undefined;
    const reaches = (m: PathMatcher) => (only ? candidates.some((p) => reachesByKind(m, p, only, narrow?.reformat === true) || (globs && globMayMatchName(m, p, root))) : hit(m));
    // A formatter keeps a file's meaning: a protected file it reaches only because it is of the
    // formatter's kind, below the folder it was given, is put to the user.
    const onlyByKind = (m: PathMatcher) => narrow?.reformat === true && only !== undefined && !candidates.some((p) => pathMatches(m, p));
    const how = via ? ` (${via})` : "";
    const shown = abs;
    // A reason must be true: a folder reached only because it CONTAINS a protected path is not
    // itself protected; the reason then names what it contains.
    const within = (m: PathMatcher, rule: PathRule) =>
      candidates.some((p) => pathMatches(m, p)) || !recursive ? shown : `everything below ${shown} is reached, and it includes ${rule.path}, which`;
    // `!entry` exceptions of a list: the exact path, touched non-recursively, is not that list's.
    const excepted = (list: PathMatcher[]) => !recursive && list.length > 0 && candidates.every((p) => list.some((m) => pathMatches(m, p)));
    const ex = this.paths.except;
    const globbed = globs && GLOB_CHARS.test(abs.slice(abs.lastIndexOf("/") + 1));

    // pathCandidates: the entries that may hit, in list order (the first hit is the same as a full
    // scan's; src/engine/rules/path-index.ts). A globbed path may match any entry: all are tried.
    for (const [rule, m] of excepted(ex.zeroAccess) ? [] : globbed ? this.paths.zeroAccess : pathCandidates(this.paths.zeroAccess, candidates, recursive)) {
      // Zero-access protects content: a file's metadata (`ls -la .env`, `test -f`, `stat`) is not
      // its content. A folder entry's listing is (its names are its content).
      if (access === "list" && !recursive && m.shape !== "folder") continue;
      // A recursive listing (du, ls -R, tree, find without -exec/-delete) of a folder that merely
      // holds a zero-access entry below it walks past the entry: it sizes it, stats it or prints
      // its name, never its content (issue 36: `du -sh ~/.cache` is not a read of the token in
      // it). Listing the zero-access folder itself, or a glob that names it, stays refused.
      if (access === "list" && recursive && !globbed && !candidates.some((p) => pathMatches(m, p))) continue;
      // A walk listing only the names a filter lets through (`find / -name 'libssl.so*'`) lists
      // no file of this entry unless the filter can match a secret's own name (issue 36, item 11).
      // A walk started in the secret folder itself is a listing of it, as `ls` is.
      if (access === "list" && only !== undefined && !candidates.some((p) => pathMatches(m, p)) && !listedNamesMeetSecret(m, only)) continue;
      // A name-only entry (`*.pem`) guards a project's or a user's own keys, not the public CA
      // certificates every TLS client reads from the system's trust stores (trust-stores.ts).
      if ((access === "read" || access === "list") && m.shape === "name" && candidates.every(inTrustStore)) continue;
      if (hit(m, true) || (globbed && candidates.some((p) => patternMayMatchEntry(m, p)))) {
        const ref = refOf(rule);
        this.offer({ action: "block", reason: blockReason(`${within(m, rule)} is a zero-access path: no ${verb(access)} allowed${how}`, ref), rule: ref, ...(at && { match: matchOf(this.command, at) }) });
        return;
      }
    }
    if (access === "write" || access === "delete") {
      for (const [rule, m] of excepted(ex.readOnly) ? [] : only ? this.paths.readOnly : pathCandidates(this.paths.readOnly, candidates, recursive)) {
        // A lock file its package manager rewrites (`sandbox.updatedByTools`) is read-only to hand
        // edits; deleting that one named file and running its tool in the same call (`rm -f
        // package-lock.json && npm install`) loses nothing: the tool writes it again, and a
        // snapshot of it is kept first (lock-tools.ts).
        if (access === "delete" && !recursive && !globs && this.regenerated.has(abs.slice(abs.lastIndexOf("/") + 1)) && this.paths.updatedByTools.some((t) => candidates.some((p) => pathMatches(t, p)))) continue;
        if (reaches(m) && !this.lifted(candidates.map((p) => pathException(this.rules, rule, p, this.ctx)).find(Boolean))) {
          const ref = refOf(rule);
          if (onlyByKind(m)) {
            this.offer({ action: "ask", reason: askReason(`${via ?? "a formatter"} rewrites the files of its kinds below ${shown}, and the read-only ${rule.path} may hold some (their layout changes, their meaning is kept; name the folders or files to format to leave it out)`, ref), rule: ref, ...(at && { match: matchOf(this.command, at) }) });
            continue;
          }
          this.offer({ action: "block", reason: blockReason(`${within(m, rule)} is read-only: no ${verb(access)} allowed${how}`, ref), rule: ref, ...(at && { match: matchOf(this.command, at) }) });
          return;
        }
      }
    }
    if (access === "delete") {
      for (const [rule, m] of excepted(ex.noDelete) ? [] : only ? this.paths.noDelete : pathCandidates(this.paths.noDelete, candidates, recursive)) {
        if (reaches(m) && !this.lifted(candidates.map((p) => pathException(this.rules, rule, p, this.ctx)).find(Boolean))) {
          const ref = refOf(rule);
          this.offer({ action: "block", reason: blockReason(`${within(m, rule)} must not be deleted or moved${how}`, ref), rule: ref, ...(at && { match: matchOf(this.command, at) }) });
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
