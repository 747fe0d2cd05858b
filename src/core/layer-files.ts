// Where the rule layers live and how they are read (I/O around the pure merge in
// engine/rules/layers.ts). Fixed locations:
//   managed   /etc/damage-control/rules.yaml          ($DAMAGE_CONTROL_MANAGED_RULES overrides, for tests)
//   user      $XDG_CONFIG_HOME/damage-control/rules.yaml, else ~/.config/damage-control/rules.yaml
//             ($DAMAGE_CONTROL_USER_RULES overrides, for tests)
//   workspace the folder's rules file (.pi/damage-control-rules.yaml or damageControl.rulesFile)
//   default   the embedded defaults (the floor)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isMap, isSeq, parseDocument, YAMLSeq } from "yaml";
import { defaultRules } from "../engine/rules/defaults";
import { additionsOnly, exactCommandPattern, looseningItems, looseningOf, loosens, mergeLayers, type Layer, type Loosening } from "../engine/rules/layers";
import { emptyRuleSet, parseRules } from "../engine/rules/parse";
import type { Diagnostic, LayerName, PathRule, RuleSet } from "../engine/types";
import { LEDGER_FILE, userStateDir, writeFileAtomic } from "./state-dir";

/** audit.jsonl as a glob (one class) so that it is only ever matched by that very name. */
const LEDGER_GLOB = `${LEDGER_FILE.slice(0, -1)}[${LEDGER_FILE.slice(-1)}]`;

type Env = NodeJS.ProcessEnv;

export function managedRulesFile(env: Env = process.env): string {
  return env.DAMAGE_CONTROL_MANAGED_RULES || "/etc/damage-control/rules.yaml";
}

export function userConfigDir(env: Env = process.env): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config"), "damage-control");
}

export function userRulesFile(env: Env = process.env): string {
  return env.DAMAGE_CONTROL_USER_RULES || path.join(userConfigDir(env), "rules.yaml");
}

export interface LayerInfo {
  name: LayerName;
  file?: string;
  present: boolean;
  /** Diagnostics of the file (errors drop only the broken entries; such a file never loosens). */
  diagnostics: Diagnostic[];
  /** Its disable:/allow: take effect. */
  trusted: boolean;
  /** Number of rules it adds (bash patterns + path entries). */
  count: number;
}

export interface ReadLayer {
  info: LayerInfo;
  rules: RuleSet;
  text?: string;
}

/** Reads a managed or user layer. A missing file is an empty layer; a file with errors keeps its good entries but may not loosen. */
export function readLayerFile(name: "managed" | "user", file: string): ReadLayer {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const diagnostics: Diagnostic[] = code === "ENOENT" ? [] : [{ severity: "error", code: "yaml-syntax", message: `Cannot read ${file}: ${code ?? (e as Error).message}`, range: ZERO }];
    return { info: { name, file, present: false, diagnostics, trusted: false, count: 0 }, rules: emptyRuleSet() };
  }
  const parsed = parseRules(text);
  return { info: { name, file, present: true, diagnostics: parsed.diagnostics, trusted: parsed.ok, count: countOf(parsed.rules) }, rules: parsed.rules, text };
}

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function countOf(r: RuleSet): number {
  return r.bashToolPatterns.length + r.zeroAccessPaths.length + r.readOnlyPaths.length + r.noDeletePaths.length;
}

/** How much a workspace file that loosens is trusted. */
export type WorkspaceTrust =
  /** Approved content only (VS Code, in a trusted workspace): the callback says whether it is. */
  | { kind: "approved"; isApproved: (file: string, text: string, items: string[]) => boolean }
  /** `--trust-workspace-rules`. */
  | { kind: "always" }
  /** Additions only (untrusted workspace; serve/check/hooks by default). */
  | { kind: "never" };

export interface LayeredResult {
  rules: RuleSet;
  layers: LayerInfo[];
  /** The workspace file loosens and that is not (yet) in force: what it would drop. */
  pending?: { file: string; text: string; items: string[]; loosening: Loosening };
}

/**
 * All four layers merged. `workspace` is the workspace file's parsed rules and text (undefined when
 * there is none).
 */
export function loadLayered(o: { workspace?: { file: string; rules: RuleSet; text: string }; trust: WorkspaceTrust; env?: Env }): LayeredResult {
  const env = o.env ?? process.env;
  const managed = readLayerFile("managed", managedRulesFile(env));
  const user = readLayerFile("user", userRulesFile(env));
  const floor: Layer = { name: "default", rules: defaultRules(), trusted: true };
  const layers: Layer[] = [
    { name: "managed", rules: managed.rules, trusted: managed.info.trusted, file: managed.info.file },
    { name: "user", rules: user.rules, trusted: user.info.trusted, file: user.info.file },
  ];
  const infos: LayerInfo[] = [managed.info, user.info];
  let pending: LayeredResult["pending"];
  if (o.workspace) {
    const ws = o.workspace;
    const items = looseningItems(ws.rules);
    let trusted = true;
    if (loosens(ws.rules)) {
      trusted = o.trust.kind === "always" || (o.trust.kind === "approved" && o.trust.isApproved(ws.file, ws.text, items));
      if (!trusted) pending = { file: ws.file, text: ws.text, items, loosening: looseningOf(ws.rules, [defaultRules()]) };
    }
    layers.push({ name: "workspace", rules: trusted ? ws.rules : additionsOnly(ws.rules), trusted, file: ws.file });
    infos.push({ name: "workspace", file: ws.file, present: true, diagnostics: [], trusted, count: countOf(ws.rules) });
  }
  layers.push(floor);
  infos.push({ name: "default", present: true, diagnostics: [], trusted: true, count: countOf(floor.rules) });
  return { rules: mergeLayers(layers), layers: infos, ...(pending && { pending }) };
}

/**
 * The guard's own files and state, zero-access for agents whatever the rules say: the user and
 * managed rules files, the state folder (token, registry, approvals), the agents' hook settings,
 * the folder's audit ledger.
 */
export function guardOwnPaths(folder: string, env: Env = process.env): PathRule[] {
  const home = env.HOME || os.homedir();
  // What can change what guards a folder: read-only for agents (reading a hook file or a rules
  // file is harmless, and a zero-access file inside the project would refuse every recursive
  // search of it).
  const readOnly = [
    userRulesFile(env),
    managedRulesFile(env),
    path.join(home, ".claude", "settings.json"),
    path.join(home, ".codex") + "/",
    path.join(home, ".gemini", "settings.json"),
    path.join(home, ".copilot", "hooks") + "/",
    path.join(folder, ".github", "hooks") + "/",
  ];
  // The product's state (token, endpoint registry, approvals, the launcher): zero-access. So is
  // the folder's audit ledger (and its rotated files): the user's record of what the agents ran,
  // read in the panel or with the CLI, never by the agent (issue 35).
  // Written as name globs: a path below the folder would refuse every recursive search of the
  // project (which reads the ledger's redacted lines at worst), and a plain name without a
  // leading dot would be matched by every `*` of a Glob tool's pattern (`src/**/*.ts`).
  const zeroAccess = [userStateDir(env) + "/", LEDGER_GLOB, `${LEDGER_FILE}.[0-9]*`];
  return [
    ...zeroAccess.map((p) => ({ kind: "zeroAccess" as const, path: p, implicit: true, layer: "default" as const })),
    ...readOnly.map((p) => ({ kind: "readOnly" as const, path: p, implicit: true, layer: "default" as const })),
  ];
}

export function withGuardOwnPaths(rules: RuleSet, folder: string, env: Env = process.env): RuleSet {
  const own = guardOwnPaths(folder, env);
  return {
    ...rules,
    zeroAccessPaths: [...rules.zeroAccessPaths, ...own.filter((r) => r.kind === "zeroAccess")],
    readOnlyPaths: [...rules.readOnlyPaths, ...own.filter((r) => r.kind === "readOnly")],
  };
}

// ── The user layer's exceptions: written by "Always allow in this folder", listed and revoked by the CLI ──

export interface UserException {
  /** Stable id: x- + position-independent hash of the entry. */
  id: string;
  command?: string;
  path?: string;
  /** A tool-name glob (`allow: {tool: "mcp__devdb__*"}`). */
  tool?: string;
  reason: string;
  folder?: string;
}

function exceptionId(e: { command?: string; path?: string; tool?: string; folder?: string }): string {
  let h = 0;
  for (const c of `${e.command ?? ""}\0${e.path ?? ""}\0${e.folder ?? ""}${e.tool !== undefined ? `\0tool:${e.tool}` : ""}`) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return "x-" + h.toString(16).padStart(8, "0");
}

export function listUserExceptions(env: Env = process.env): UserException[] {
  const read = readLayerFile("user", userRulesFile(env));
  return (read.rules.allow ?? []).map((e) => {
    const base = e.kind === "command" ? { command: e.pattern } : e.kind === "tool" ? { tool: e.tool } : { path: e.path };
    return { ...base, reason: e.reason, ...(e.folder && { folder: e.folder }), id: exceptionId({ ...base, folder: e.folder }) };
  });
}

/**
 * Adds the narrowest exception for one command in one folder to the user's rules file, in place
 * (comments and order kept). Returns its id. No duplicate is written.
 */
export function addUserCommandException(command: string, folder: string, reason: string, env: Env = process.env): string {
  const file = userRulesFile(env);
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    /* a new file */
  }
  const entry = { command: exactCommandPattern(command), reason, folder };
  const id = exceptionId(entry);
  if (listUserExceptions(env).some((e) => e.id === id)) return id;
  const doc = parseDocument(text || "# Damage Control: your own rules (the user layer). See docs/layers.md.\n");
  if (doc.errors.length > 0) throw new Error(`${file} has YAML errors; fix it before adding an exception`);
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as never;
  let allow = doc.get("allow", true);
  if (!isSeq(allow)) {
    allow = new YAMLSeq();
    doc.set("allow", allow);
  }
  (allow as YAMLSeq).add(doc.createNode(entry));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, doc.toString(), 0o644);
  return id;
}

/** Removes a user exception by id; true when there was one. */
export function revokeUserException(id: string, env: Env = process.env): boolean {
  const file = userRulesFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return false;
  }
  const doc = parseDocument(text);
  const allow = doc.get("allow", true);
  if (!isSeq(allow)) return false;
  const index = allow.items.findIndex((item) => {
    const js = (item as { toJSON?: () => unknown }).toJSON?.() as { command?: string; path?: string; folder?: string } | undefined;
    return js !== undefined && exceptionId(js) === id;
  });
  if (index < 0) return false;
  allow.items.splice(index, 1);
  writeFileAtomic(file, doc.toString(), 0o644);
  return true;
}
