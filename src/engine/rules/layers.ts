// Rules as layers, strongest first: managed → user → workspace → the embedded defaults (the floor).
// A weaker layer adds rules; it never removes or loosens what a stronger layer or the floor sets,
// unless the layer that may do so says so itself (`disable:` by id, `allow:` exceptions) and is
// trusted to (managed and user always; a workspace file only once the user approved its content).
// Pure: the callers read the files, the approvals and the environment.
import { remoteEffects } from "../remote/analyze";
import type { RemoteEffect } from "../shell/types";
import { effectMatcher } from "./parse-effect";
import { compilePathEntry, pathMatches, resolvePath } from "../paths";
import { toolGlobMatches } from "../mcp/name";
import { mergeSandbox, sandboxAdditions, sandboxLooseningItems } from "../sandbox/layers";
import type { BashPatternRule, DecideContext, Diagnostic, Exception, LayerName, PathRule, RuleRef, RuleSet, ToolNameRule } from "../types";

/** Strongest first. "policy" (`--rules FILE`) is alone and as strong as it gets. */
export const LAYER_ORDER: readonly LayerName[] = ["policy", "managed", "user", "workspace", "default"];

export function layerRank(layer: LayerName | undefined): number {
  return layer === undefined ? -1 : LAYER_ORDER.indexOf(layer);
}

export interface Layer {
  name: LayerName;
  rules: RuleSet;
  /** May this layer remove or loosen (its `disable:` and `allow:` take effect)? */
  trusted: boolean;
  /** The file it was read from, for display. */
  file?: string;
}

const PATH_LISTS = ["zeroAccessPaths", "readOnlyPaths", "noDeletePaths"] as const;

/** The texts `disable:` names a rule by: its id, and (paths) the entry as written. */
export function ruleNames(rule: BashPatternRule | PathRule | ToolNameRule): string[] {
  const names = rule.id ? [rule.id] : [];
  if (rule.kind !== "bashPattern" && rule.kind !== "toolName") names.push(rule.path);
  return names;
}

/**
 * Merges layers (strongest first) into the rule set in force. Each rule and exception carries its
 * layer. A layer's `disable:` removes rules of weaker layers only, and only when it is trusted.
 * Identical rules of a weaker layer are dropped (the stronger copy is the one reported).
 */
export function mergeLayers(layers: Layer[]): RuleSet {
  const ordered = [...layers].sort((a, b) => layerRank(a.name) - layerRank(b.name));
  const out: RuleSet = { bashToolPatterns: [], zeroAccessPaths: [], readOnlyPaths: [], noDeletePaths: [], allow: [] };
  /** Names disabled so far, by the rank of the layer that disabled them. */
  const disabledBy = new Map<string, number>();
  const seenPattern = new Set<string>();
  const seenPath = new Set<string>();
  const seenTool = new Set<string>();
  for (const layer of ordered) {
    const rank = layerRank(layer.name);
    const isDisabled = (r: BashPatternRule | PathRule | ToolNameRule) => ruleNames(r).some((name) => (disabledBy.get(name) ?? Infinity) < rank);
    for (const r of layer.rules.bashToolPatterns) {
      if (isDisabled(r)) continue;
      const key = `${r.ask ? "ask" : "block"}|${r.regex.flags}/${r.pattern}`;
      if (seenPattern.has(key)) continue;
      seenPattern.add(key);
      out.bashToolPatterns.push({ ...r, layer: layer.name });
    }
    // toolNamePatterns: the same layering as the bash patterns (src/engine/mcp/).
    for (const r of layer.rules.toolNamePatterns ?? []) {
      if (isDisabled(r)) continue;
      const key = `${r.ask ? "ask" : "block"}|${r.unless ?? ""}|${r.when ?? ""}|${r.tool}`;
      if (seenTool.has(key)) continue;
      seenTool.add(key);
      (out.toolNamePatterns ??= []).push({ ...r, layer: layer.name });
    }
    for (const list of PATH_LISTS) {
      for (const r of layer.rules[list]) {
        if (isDisabled(r)) continue;
        const key = `${list}|${r.path}`;
        if (seenPath.has(key)) continue;
        seenPath.add(key);
        out[list].push({ ...r, layer: layer.name });
      }
    }
    if (layer.trusted) {
      for (const name of layer.rules.disable ?? []) if (!disabledBy.has(name)) disabledBy.set(name, rank);
      for (const e of layer.rules.allow ?? []) out.allow!.push({ ...e, layer: layer.name });
    }
    // `!entry` carve-outs narrow a path list (the floor's `!~/.ssh/known_hosts`): the floor's hold,
    // any other layer's only when that layer may loosen, as with its exceptions.
    const carved = layer.rules.exceptions;
    if (carved && (layer.trusted || layer.name === "default")) {
      out.exceptions ??= { zeroAccess: [], readOnly: [], noDelete: [] };
      for (const kind of ["zeroAccess", "readOnly", "noDelete"] as const) for (const r of carved[kind]) out.exceptions[kind].push({ ...r, layer: layer.name });
    }
  }
  // sandbox: the strictest mode, the lists of the layers allowed to add them (../sandbox/layers.ts).
  const sandbox = mergeSandbox(ordered.filter((l) => l.rules.sandbox).map((l) => ({ section: l.rules.sandbox!, trusted: l.trusted || l.name === "default" })));
  if (sandbox) out.sandbox = sandbox;
  return out;
}

/** One layer alone (`--rules FILE`): the whole policy, its own exceptions, nothing disabled below it. */
export function policyOnly(rules: RuleSet): RuleSet {
  return mergeLayers([{ name: "policy", rules, trusted: true }]);
}

/** What a file removes or loosens of the layers below it: what a user is asked to approve. */
export interface Loosening {
  /** Rules of weaker layers that `disable:` would switch off (that exist). */
  drops: { name: string; kind: RuleRef["kind"]; text: string; reason?: string; layer?: LayerName }[];
  /** `disable:` entries that name nothing in the weaker layers. */
  unknown: string[];
  exceptions: Exception[];
}

export function looseningOf(file: RuleSet, weaker: RuleSet[]): Loosening {
  const drops: Loosening["drops"] = [];
  const unknown: string[] = [];
  for (const name of file.disable ?? []) {
    let found = false;
    for (const set of weaker) {
      for (const r of [...set.bashToolPatterns, ...(set.toolNamePatterns ?? []), ...set.zeroAccessPaths, ...set.readOnlyPaths, ...set.noDeletePaths]) {
        if (!ruleNames(r).includes(name)) continue;
        found = true;
        const text = r.kind === "bashPattern" ? r.pattern : r.kind === "toolName" ? r.tool : r.path;
        drops.push({ name, kind: r.kind, text, ...((r.kind === "bashPattern" || r.kind === "toolName") && { reason: r.reason }), ...(r.layer && { layer: r.layer }) });
      }
    }
    if (!found) unknown.push(name);
  }
  return { drops, unknown, exceptions: file.allow ?? [] };
}

/** Does the file remove or loosen anything (then, as a workspace file, it needs approval)? */
export function loosens(file: RuleSet): boolean {
  return (file.disable?.length ?? 0) > 0 || (file.allow?.length ?? 0) > 0 || sandboxLooseningItems(file.sandbox).length > 0;
}

/**
 * The loosening part of a file, canonical: an approval of one content covers a later content whose
 * loosening items are all among the approved ones (a change that only tightens needs no new approval).
 */
export function looseningItems(file: RuleSet): string[] {
  const items = (file.disable ?? []).map((d) => `disable:${d}`);
  for (const e of file.allow ?? []) items.push(`allow:${e.kind}:${exceptionText(e)}:${e.folder ?? ""}`);
  items.push(...sandboxLooseningItems(file.sandbox));
  return [...new Set(items)].sort();
}

export function coveredBy(items: string[], approved: string[]): boolean {
  const ok = new Set(approved);
  return items.every((i) => ok.has(i));
}

/** A file with its `disable:` and `allow:` taken out: what an unapproved workspace file still adds. */
export function additionsOnly(file: RuleSet): RuleSet {
  const { disable: _d, disableRanges: _r, allow: _a, sandbox, ...rest } = file;
  return sandbox ? { ...rest, sandbox: sandboxAdditions(sandbox) } : rest;
}

// ── Exceptions at decision time (called from decide.ts, the one place they are checked) ──

/** What an exception names, as written: its command regex, path or tool glob. */
export function exceptionText(e: Exception): string {
  return e.kind === "command" ? e.pattern : e.kind === "tool" ? e.tool : e.path;
}

/**
 * The tool exception (`allow: {tool: "mcp__devdb__*"}`) that lifts a refusal by a rule of layer
 * `ruleLayer` of this tool's call, if any: its tool-name rules and its SQL's and commands' patterns.
 * Never a path rule: the caller asks only for those it may lift (zero-access never is).
 */
export function toolException(rules: RuleSet, ruleLayer: LayerName | undefined, tool: string, ctx: DecideContext): Exception | undefined {
  for (const e of rules.allow ?? []) {
    if (e.kind !== "tool" || !strongEnough(e, ruleLayer) || !inFolder(e, ctx)) continue;
    if (toolGlobMatches(e.matcher, tool)) return e;
  }
  return undefined;
}

function inFolder(e: Exception, ctx: DecideContext): boolean {
  if (!e.folder) return true;
  const root = ctx.root ?? ctx.cwd;
  const f = e.folder.replace(/\/+$/, "");
  return root === f || root.startsWith(f + "/");
}

/** May an exception of layer `e` lift a refusal by a rule of layer `rule`? Never one of a stronger layer. */
function strongEnough(e: Exception, ruleLayer: LayerName | undefined): boolean {
  if (e.layer === undefined || ruleLayer === undefined) return true;
  return layerRank(e.layer) <= layerRank(ruleLayer);
}

/**
 * The command exception that lifts `rule`'s refusal of one executed command, if any. It must match
 * the whole command. `texts`: the command's text and variants, asked for only when an exception
 * applies (spelling the variants out costs more than most calls need).
 */
export function commandException(rules: RuleSet, rule: BashPatternRule, texts: () => readonly string[], ctx: DecideContext): Exception | undefined {
  for (const e of rules.allow ?? []) {
    if (e.kind !== "command" || !strongEnough(e, rule.layer) || !inFolder(e, ctx)) continue;
    const whole = wholeCommandRegex(e);
    // lastIndex from 0 on each test, as on the freshly compiled regex this was (a g or y flag keeps state).
    if (texts().some((t) => ((whole.lastIndex = 0), whole.test(t.trim())))) return e;
  }
  return undefined;
}

const wholeRegexes = new WeakMap<Exception, RegExp>();

/** `^(?:pattern)$` with the exception's flags, compiled once per exception (it was once per call). */
function wholeCommandRegex(e: Exception & { kind: "command" }): RegExp {
  let whole = wholeRegexes.get(e);
  if (!whole) wholeRegexes.set(e, (whole = new RegExp(`^(?:${e.pattern})$`, e.regex.flags)));
  return whole;
}

/** The path exception that lifts a read-only or no-delete refusal of `abs`, if any. Zero-access is never asked. */
export function pathException(rules: RuleSet, rule: PathRule, abs: string, ctx: DecideContext): Exception | undefined {
  if (rule.kind === "zeroAccess" || rule.implicit) return undefined;
  for (const e of rules.allow ?? []) {
    if (e.kind !== "path" || !strongEnough(e, rule.layer) || !inFolder(e, ctx)) continue;
    const root = ctx.root ?? ctx.cwd;
    const m = compilePathEntry(e.path, { cwd: root, home: ctx.home, root });
    if (pathMatches(m, abs)) return e;
  }
  return undefined;
}

// ── The narrowest exception for one call ("Always allow in this folder") ──

/** A regex that matches exactly this command and nothing else. */
export function exactCommandPattern(command: string): string {
  return command.trim().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

// ── Lint ──

/** The literal a regex source stands for, when it has no special characters (else undefined). */
function literalOf(source: string): string | undefined {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const n = source[++i];
      if (n === undefined || /[a-zA-Z0-9]/.test(n)) return undefined;
      out += n;
    } else if (".*+?^${}()|[]".includes(c)) return undefined;
    else out += c;
  }
  return out;
}

/**
 * Diagnostics for a file's exceptions against the rules in force: an exception that would open a
 * zero-access path is an error; one that matches nothing the rules refuse is a warning.
 */
export function lintExceptions(file: RuleSet, effective: RuleSet, ctx: { root: string; home: string }): Diagnostic[] {
  const out: Diagnostic[] = [];
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const pc = { cwd: ctx.root, home: ctx.home, root: ctx.root };
  for (const e of file.allow ?? []) {
    const range = e.range ?? zero;
    if (e.kind === "path") {
      const abs = resolvePath(e.path.replace(/\/$/, ""), pc);
      if (abs === undefined) continue;
      const self = compilePathEntry(e.path, pc);
      // An entry the exception's path falls under, or an entry inside the exception's folder.
      const hits = (list: PathRule[]) =>
        list.some((r) => {
          if (pathMatches(compilePathEntry(r.path, pc), abs)) return true;
          const inner = resolvePath(r.path.replace(/\/$/, ""), pc);
          return inner !== undefined && !/[*?[]/.test(r.path) && pathMatches(self, inner);
        });
      if (hits(effective.zeroAccessPaths)) {
        out.push({ severity: "error", code: "exception-zero-access", message: `This exception names a zero-access path ("${e.path}"); exceptions never open zero-access paths, so it does nothing.`, range });
      } else if (!hits(effective.readOnlyPaths) && !hits(effective.noDeletePaths)) {
        out.push({ severity: "warning", code: "exception-unused", message: `No read-only or no-delete rule covers "${e.path}": this exception lifts nothing.`, range });
      }
    } else if (e.kind === "tool") {
      // A tool glob lifts what that tool's calls are refused for: nothing to test without a call.
      continue;
    } else {
      const sample = literalOf(e.pattern);
      if (sample === undefined) continue;
      if (!effective.bashToolPatterns.some((r) => r.regex.test(sample)) && !effectRuleRefuses(effective, sample)) {
        out.push({ severity: "warning", code: "exception-unused", message: `No bash pattern refuses "${sample}": this exception lifts nothing.`, range });
      }
    }
  }
  return out;
}

/** Does an effect rule (`effect: destroy backups`) judge what `sample` does outside the working tree? */
function effectRuleRefuses(rules: RuleSet, sample: string): boolean {
  const effectRules = rules.bashToolPatterns.filter((r) => r.effect !== undefined);
  if (effectRules.length === 0) return false;
  // The sample is a literal in the normalized spelling (program, then its words, single-spaced):
  // the remote table reads it without the shell parser, which the extension host does not load.
  // (`understood`: true, so the unknown-CLI fallback does not guess about a program it names.)
  const [name, ...args] = sample.trim().split(/\s+/);
  const remote: RemoteEffect[] = [];
  if (name) remoteEffects({ name, args, span: { start: 0, end: sample.length } }, true, remote);
  return remote.some((e) => effectRules.some((r) => effectMatcher(r.effect!)(e.effect, e.target)));
}
