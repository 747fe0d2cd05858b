// The guard's own settings are read-only for agents: a write to a VS Code settings file
// (.vscode/settings.json, *.code-workspace, the user's settings.json) that adds, changes or removes
// a damageControl.* key or a key that switches agent hooks off is refused; other edits pass.
// Pure: the caller injects `readText` (the file as it is on disk now).
import { posix } from "node:path";
import { blockReason } from "../reason";
import type { DecideContext, RuleRef, Verdict } from "../types";

/** Keys that change what guards a folder (besides every damageControl.* key). */
export const HOOK_SWITCH_KEYS = ["chat.useHooks", "chat.hookFilesLocations", "chat.useClaudeHooks"] as const;

export function isProtectedSettingKey(key: string): boolean {
  return key === "damageControl" || key.startsWith("damageControl.") || (HOOK_SWITCH_KEYS as readonly string[]).includes(key);
}

/** User-scope settings.json of VS Code and its forks, relative to home. */
const USER_SETTINGS = [
  ".config/Code/User/settings.json",
  ".config/Code - Insiders/User/settings.json",
  ".config/VSCodium/User/settings.json",
  ".config/Cursor/User/settings.json",
  ".local/share/code-server/User/settings.json",
  ".vscode-server/data/Machine/settings.json",
  ".vscode-server/data/User/settings.json",
  "Library/Application Support/Code/User/settings.json",
  "Library/Application Support/Code - Insiders/User/settings.json",
];

/** Is `abs` a file whose settings can switch the guard (workspace or user scope)? */
export function isGuardSettingsFile(abs: string, home: string): boolean {
  if (abs.endsWith(".code-workspace")) return true;
  if (!abs.endsWith("settings.json") && !abs.endsWith("/")) return false;
  if (posix.basename(abs) === "settings.json" && posix.basename(posix.dirname(abs)) === ".vscode") return true;
  return userSettingsOf(home).has(abs);
}

/** The user settings files below one home (checked on every write: joined once per home). */
const userSettings = new Map<string, ReadonlySet<string>>();
function userSettingsOf(home: string): ReadonlySet<string> {
  let set = userSettings.get(home);
  if (!set) {
    if (userSettings.size >= 16) userSettings.clear();
    userSettings.set(home, (set = new Set(USER_SETTINGS.map((rel) => posix.join(home, rel)))));
  }
  return set;
}

/** JSON with comments and trailing commas (VS Code's settings format) → value; undefined when unreadable. */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  // Trailing commas before } or ] (outside strings: strings were copied verbatim above, and a
  // comma followed only by blanks and a closing bracket cannot occur inside valid JSON strings' ends).
  const cleaned = out.replace(/,(\s*[}\]])/g, "$1");
  if (cleaned.trim() === "") return {};
  try {
    return JSON.parse(cleaned) as unknown;
  } catch {
    return undefined;
  }
}

/** The protected keys of a settings object (top level, `settings` of a .code-workspace, `[lang]` blocks) → their JSON. */
export function protectedView(value: unknown, workspaceFile: boolean): Map<string, string> {
  const out = new Map<string, string>();
  const obj = value as Record<string, unknown>;
  const scan = (o: unknown, prefix: string) => {
    if (typeof o !== "object" || o === null || Array.isArray(o)) return;
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
      if (/^\[.*\]$/.test(k)) scan(v, `${prefix}${k}/`);
      else if (isProtectedSettingKey(k)) out.set(prefix + k, JSON.stringify(v));
    }
  };
  scan(workspaceFile && typeof obj === "object" && obj !== null ? obj.settings : obj, "");
  return out;
}

/** The keys that differ (added, changed or removed) between two settings texts; undefined when either is unreadable. */
export function changedProtectedKeys(before: string, after: string, workspaceFile: boolean): string[] | undefined {
  const b = parseJsonc(before);
  const a = parseJsonc(after);
  if (b === undefined || a === undefined) return undefined;
  const vb = protectedView(b, workspaceFile);
  const va = protectedView(a, workspaceFile);
  const keys = new Set([...vb.keys(), ...va.keys()]);
  return [...keys].filter((k) => vb.get(k) !== va.get(k)).sort();
}

/** The file's content after a Write/Edit/MultiEdit call, from its input and the content on disk. */
export function contentAfter(tool: string, input: Record<string, unknown>, before: string): string | undefined {
  const name = tool.toLowerCase();
  if (name === "write") return typeof input.content === "string" ? input.content : undefined;
  const edits: { old: unknown; new: unknown; all: unknown }[] = [];
  if (name === "edit") {
    if (Array.isArray(input.edits)) for (const e of input.edits as Record<string, unknown>[]) edits.push({ old: e?.oldText ?? e?.old_string, new: e?.newText ?? e?.new_string, all: e?.replace_all });
    else edits.push({ old: input.old_string ?? input.oldText, new: input.new_string ?? input.newText, all: input.replace_all });
  } else if (name === "multiedit" && Array.isArray(input.edits)) {
    for (const e of input.edits as Record<string, unknown>[]) edits.push({ old: e?.old_string, new: e?.new_string, all: e?.replace_all });
  } else return undefined;
  let text = before;
  for (const e of edits) {
    if (typeof e.old !== "string" || typeof e.new !== "string") return undefined;
    if (e.old === "") {
      if (text !== "") return undefined;
      text = e.new;
      continue;
    }
    if (!text.includes(e.old)) return undefined;
    text = e.all === true ? text.split(e.old).join(e.new) : text.replace(e.old, () => e.new as string);
  }
  return text;
}

export type SettingsContext = DecideContext;

const RULE: RuleRef = { kind: "readOnly", text: "damageControl.* and chat hook settings", layer: "default" };

/**
 * A file tool's write to a guard settings file: refused when it changes a protected key (or when
 * what it changes cannot be told), else no opinion (undefined).
 */
export function settingsWriteVerdict(abs: string, tool: string, input: unknown, ctx: SettingsContext): Verdict | undefined {
  if (!isGuardSettingsFile(abs, ctx.home)) return undefined;
  const workspaceFile = abs.endsWith(".code-workspace");
  const record = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const before = ctx.readText ? ctx.readText(abs) ?? "" : undefined;
  const after = before === undefined ? undefined : contentAfter(tool, record, before);
  const changed = before === undefined || after === undefined ? undefined : changedProtectedKeys(before, after, workspaceFile);
  if (changed && changed.length === 0) return undefined;
  const what = changed
    ? `${abs}: the agent may not change the guard's own settings (${changed.join(", ")})`
    : `${abs}: what this write changes in the guard's own settings cannot be told, so it is refused`;
  return { action: "block", reason: blockReason(what, RULE), rule: RULE };
}

/** A shell command writing or deleting a guard settings file: the guard cannot see what it changes. */
export function settingsShellVerdict(abs: string, access: string, ctx: DecideContext): Verdict | undefined {
  if ((access !== "write" && access !== "delete") || !isGuardSettingsFile(abs, ctx.home)) return undefined;
  return { action: "block", reason: blockReason(`${abs} holds the guard's own settings; edit it with the editor's file tools (or by hand) so the guard can see what changes`, RULE), rule: RULE };
}

/**
 * VS Code's agent running a VS Code command (`run_vscode_command {commandId}`): a damageControl.*
 * command, or an extension uninstall/disable aimed at this extension, would switch the guard off.
 */
export function vscodeCommandVerdict(tool: string, input: unknown): Verdict | undefined {
  if (!/^(run_vscode_command|runvscodecommand|vscode_command)$/i.test(tool)) return undefined;
  const r = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const id = typeof r.commandId === "string" ? r.commandId : typeof r.command === "string" ? r.command : "";
  const args = JSON.stringify(r.args ?? r.arguments ?? "");
  const own = /^damageControl\./.test(id);
  const offExtension = /(uninstall|disable)Extension|extensions\.action\.(uninstall|disable)/i.test(id) && /damage-control/i.test(args + id);
  if (!own && !offExtension) return undefined;
  const ref: RuleRef = { kind: "bashPattern", text: "damageControl.* commands", layer: "default" };
  return { action: "block", reason: blockReason(`the agent may not run ${id}: the guard's own commands are for the user`, ref), rule: ref };
}
