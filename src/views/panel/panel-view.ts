// The side panel (a webview view, after microsoft/vscode-extension-samples webview-view-sample):
// rule counts and health, the feed of refusals and asks (with Open rule / Explain / Allow in this
// folder / Copy), pictures from the ledger, a structured rules editor with the same diagnostics
// as the YAML editor, and "try a command". CSP with a nonce, local resources only, theme colours
// via CSS variables; the script is dist/webview.js (src/webview/), the messages are ./messages.ts.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { mcpName, toolLabel } from "../../engine/mcp/name";
import { mcpCallFromTarget } from "../../engine/mcp/target";
import { describeRule } from "../../engine/reason";
import type { RuleKind, RuleSet, Verdict } from "../../engine/types";
import { ruleCounts } from "../../core/counts";
import type { DecisionRecord } from "../../core/guard";
import type { LedgerEntry } from "../../core/ledger";
import type { RulesStore } from "../../core/rules-store";
import { listUserExceptions, userRulesFile } from "../../core/layer-files";
import { projectHooksDisabledMessage, readManaged } from "../../install/managed";
import type { GuardHost } from "../guard-host";
import { GUARD_VSCODE_AGENT_COMMAND, onVsCodeAgentChanged } from "../guard-vscode-agent";
import { AgentHealthMonitor } from "./agent-health-monitor";
import { logError } from "../log";
import { folderExceptionWriter } from "./exceptions";
import { hitsOf, isRefusal, statsOf, toFeed } from "./feed";
import { confirmAndRestore, undoLastRestore } from "../restore";
import { SnapshotStore } from "../../core/snapshots/store";
import { canUndoRestore } from "../../core/snapshots/undo-restore";
import { isFromPanel, type ExplainStep, type FeedEntry, type FromPanel, type PanelDiagnostic, type RuleEdit, type RuleList, type ToPanel } from "./messages";
import { LostMatchTracker } from "./lost-matches";
import { decideForPanel } from "./panel-decide";
import { applyEdit, checkDraft } from "./rules-draft";

export const PANEL_VIEW_ID = "damageControl.panel";
const FEED_SIZE = 200;
/** Ledger entries behind the pictures and hit counts. */
const STATS_SIZE = 5000;
/** Feed entries whose matched part is looked up (through the bounded decider) when they arrive. */
const MATCH_LOOKUPS = 30;

const LIST_OF_KIND: Record<RuleKind, RuleList> = {
  bashPattern: "bashToolPatterns",
  toolName: "toolNamePatterns",
  zeroAccess: "zeroAccessPaths",
  readOnly: "readOnlyPaths",
  noDelete: "noDeletePaths",
};

/** One folder's draft in the structured editor: the YAML text itself (see rules-draft.ts). */
interface Draft {
  folder: string;
  file: string;
  /** The file as loaded (and its stamp): Save is refused when the file on disk is no longer this. */
  loaded: string;
  version: string;
  exists: boolean;
  text: string;
  /** The file changed on disk while the draft had edits: Save is refused until Revert. */
  stale: boolean;
}

function versionOf(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return "missing";
  }
}

export class PanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly feed: FeedEntry[] = [];
  /** Every decision seen (ledger tail, then live), for the pictures and the hit counts. */
  private history: Pick<LedgerEntry, "time" | "agent" | "rule" | "decision" | "tool" | "target">[] = [];
  /** Rules changed into ones that no longer match what they matched (the health line). */
  private readonly lost = new LostMatchTracker();
  private restored = false;
  /** Test a Command's verdict (decided by the command, through the bounded decider), for the panel. */
  private pendingTry: { command: string; verdict: Verdict } | undefined;
  /** The webview's script said "ready" (messages posted before are lost). */
  private ready = false;
  private refusals = 0;
  private readonly drafts = new Map<string, Draft>();
  private current: string | undefined;
  /** The newest edit number the webview sent: drafts sent unasked (the file changed on disk) carry
   *  it, so the webview does not take them for answers to older edits. */
  private lastSeq = 0;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The agents' health lines, checked off the hot path while the panel is visible. */
  private readonly agents: AgentHealthMonitor;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: GuardHost,
  ) {
    host.on("state", () => {
      this.restore();
      this.postState();
    });
    this.agents = new AgentHealthMonitor(
      () => this.host.folders()[0],
      () => this.postState(),
      (folder) => this.host.guard?.rulesStates().find((s) => s.folder === folder)?.rules,
    );
    // VS Code's agent status follows the hook file, chat.useHooks / the hooks policy, and trust.
    this.subscriptions.push(
      this.agents,
      onVsCodeAgentChanged(() => this.agents.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("chat")) this.agents.refresh();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.agents.refresh()),
    );
    host.on("rules", (s: { folder: string }) => {
      this.postState();
      this.followDisk(s.folder);
    });
    host.on("decision", (d: DecisionRecord) => {
      this.history.push(d);
      if (this.history.length > STATS_SIZE) this.history.splice(0, this.history.length - STATS_SIZE);
      this.postStats();
      // An allowed call is news only when it destroyed something: its snapshot (or why none) is shown.
      if (d.decision === "allow" && !d.snapshot) return;
      if (isRefusal(d)) this.refusals++;
      const entry = this.withRuleLine(toFeed(d));
      this.feed.unshift(entry);
      this.feed.length = Math.min(this.feed.length, FEED_SIZE);
      this.post({ type: "decision", entry });
      void this.lookUpMatch(entry);
      this.postState();
    });
  }

  /** After a window reload the feed and the pictures come back from the audit ledgers. */
  private restore(): void {
    const guard = this.host.guard;
    if (!guard || this.restored) return;
    this.restored = true;
    const all: LedgerEntry[] = [];
    for (const f of guard.folders) all.push(...guard.ledgerFor(f).tail(STATS_SIZE));
    all.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
    this.history = all.slice(-STATS_SIZE);
    const refusalsAndAsks = all.filter((e) => e.decision !== "allow" || e.snapshot).reverse().slice(0, FEED_SIZE);
    this.feed.push(...refusalsAndAsks.map((e) => this.withRuleLine(toFeed(e))));
    // A snapshot restored before the reload (here or with the CLI) still shows Restored, with Undo restore.
    const store = new SnapshotStore();
    for (const e of this.feed) if (e.snapshot?.id && canUndoRestore(store, e.snapshot.id)) e.snapshot = { ...e.snapshot, restored: true };
    for (const e of this.feed.slice(0, MATCH_LOOKUPS)) void this.lookUpMatch(e);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = { enableScripts: true, localResourceRoots: [media, dist] };
    this.ready = false;
    view.webview.html = this.html(view.webview, media, dist);
    view.webview.onDidReceiveMessage((m: unknown) => {
      if (isFromPanel(m)) this.onMessage(m).catch((e) => logError("panel message failed", e));
    });
    this.agents.setVisible(view.visible);
    view.onDidChangeVisibility(() => this.agents.setVisible(view.visible));
    view.onDidDispose(() => {
      this.view = undefined;
      this.agents.setVisible(false);
    });
  }

  reveal(): void {
    this.view?.show?.(true);
  }

  /** *Test a Command* from the palette: decided in the panel's Try a command, where the verdict,
   *  the rule's reason and the matched part are shown (not in a toast). Kept until the panel's
   *  script is ready when the panel was not open yet. */
  showTry(command: string, verdict: Verdict): void {
    this.pendingTry = { command, verdict };
    if (this.view?.visible && this.ready) this.flushTry();
  }

  private flushTry(): void {
    const t = this.pendingTry;
    this.pendingTry = undefined;
    if (t) this.postTry(t.verdict, t.command);
  }

  private post(m: ToPanel): void {
    void this.view?.webview.postMessage(m);
  }

  postState(): void {
    const guard = this.host.guard;
    const folders = (guard?.rulesStates() ?? []).map((s) => ({
      folder: s.folder,
      file: s.file,
      source: s.source,
      broken: s.broken,
      counts: ruleCounts(s.rules),
      lost: this.lost.update(
        s.folder,
        s.rules.bashToolPatterns.map((r) => ({ pattern: r.pattern, line: r.range?.start.line })),
        (rule) => [...new Set(this.history.filter((e) => e.rule === rule && e.tool.toLowerCase() === "bash" && !e.target.startsWith("[")).map((e) => e.target))].slice(-3),
        s.broken,
      ),
      diagnostics: s.diagnostics.map((d, i): PanelDiagnostic => ({
        line: d.range.start.line,
        character: d.range.start.character,
        endLine: d.range.end.line,
        endCharacter: d.range.end.character,
        severity: d.severity,
        message: d.message,
        code: d.code,
        index: i,
      })),
    }));
    const managed = readManaged();
    const managedWarning = managed.projectHooksDisabled ? projectHooksDisabledMessage(managed) : null;
    this.post({
      type: "state",
      folders,
      endpoint: this.host.endpoint?.url ?? null,
      down: this.host.endpoint ? null : (this.host.down ?? vscode.l10n.t("starting")),
      refusals: this.refusals,
      managedWarning,
      exceptions: this.exceptionCount(),
      exceptionsAvailable: folderExceptionWriter(guard) !== undefined,
      ...(this.agents.current && { agents: this.agents.current }),
    });
  }

  /** The user's exceptions that apply to the open folders: the file `damage-control exceptions
   *  list` reads (the guard writes "Allow in this folder" there). */
  private exceptionCount(): { count: number; file: string } {
    const folders = this.host.folders();
    try {
      return { count: listUserExceptions().filter((e) => !e.folder || folders.includes(e.folder)).length, file: userRulesFile() };
    } catch {
      return { count: 0, file: userRulesFile() };
    }
  }

  private postStats(): void {
    // The pictures count every decision; the feed lists the allowed ones only when they kept a
    // snapshot: the feed says how many it leaves out, so the two agree.
    const quiet = this.history.filter((e) => e.decision === "allow" && !("snapshot" in e && e.snapshot)).length;
    this.post({ type: "stats", stats: statsOf(this.history), hits: hitsOf(this.history), quiet });
  }

  private async onMessage(m: FromPanel): Promise<void> {
    switch (m.type) {
      case "ready": {
        this.agents.refresh();
        this.restore();
        this.postState();
        this.post({ type: "feed", entries: this.feed });
        this.postStats();
        const first = this.host.guard?.folders[0];
        if (first) this.sendDraft(first, 0, { structural: true });
        this.ready = true;
        this.flushTry();
        return;
      }
      case "loadRules":
        return this.sendDraft(m.folder, 0, { structural: true });
      case "edit":
        return this.edit(m.folder, m.seq, m.edit);
      case "save":
        return this.save(m.folder);
      case "openRules":
        return this.openRules(m.folder, m.line);
      case "try":
        return this.tryCall(m.tool, m.value, m.folder);
      case "explain":
        return this.explain(m.id);
      case "allowInFolder":
        return this.allowInFolder(m.id);
      case "guardVsCodeAgent":
        await vscode.commands.executeCommand(GUARD_VSCODE_AGENT_COMMAND);
        this.agents.refresh();
        return;
      case "restore": {
        const e = this.feed.find((x) => x.id === m.id);
        const id = e?.snapshot?.id;
        const done = id ? await confirmAndRestore(id) : undefined;
        if (!done || !e) return;
        // The entry changes (Restore → Restored) and a toast says what was put back.
        if (done.ok && e.snapshot) e.snapshot = { ...e.snapshot, restored: true };
        this.answer(e, done.ok, done.text);
        return;
      }
      case "undoRestore": {
        const e = this.feed.find((x) => x.id === m.id);
        if (!e?.snapshot?.id) return;
        const done = undoLastRestore(e.snapshot.id);
        // Undone (or nothing left to undo): the entry offers Restore again; a file changed since
        // the restore stops it, and the entry stays Restored with the message saying which.
        if (done.ok || done.nothingToUndo) e.snapshot = { ...e.snapshot, restored: false };
        this.answer(e, done.ok, done.text);
        return;
      }
      case "copy":
        await vscode.env.clipboard.writeText(m.text);
        this.post({ type: "note", ok: true, text: vscode.l10n.t("Copied.") });
        return;
    }
  }

  private storeFor(folder: string): RulesStore | undefined {
    const guard = this.host.guard;
    return guard?.folders.includes(folder) ? guard.storeFor(folder) : guard?.storeFor(undefined);
  }

  // ---- the structured editor ------------------------------------------------------------

  private load(store: RulesStore): Draft {
    let text = "";
    let exists = false;
    const version = versionOf(store.file);
    try {
      text = fs.readFileSync(store.file, "utf8");
      exists = true;
    } catch {
      /* no file yet: the embedded defaults are in force; the panel starts an empty file */
    }
    const d: Draft = { folder: store.folder, file: store.file, loaded: text, version, exists, text, stale: false };
    this.drafts.set(store.folder, d);
    return d;
  }

  private draftFor(folder: string): Draft | undefined {
    const store = this.storeFor(folder);
    if (!store) return undefined;
    return this.drafts.get(store.folder) ?? this.load(store);
  }

  private sendDraft(folder: string, seq: number, o: { structural: boolean; changedOnDisk?: boolean }): void {
    const d = this.draftFor(folder);
    if (!d) return;
    this.lastSeq = Math.max(this.lastSeq, seq);
    seq = this.lastSeq;
    this.current = d.folder;
    const checked = checkDraft(d.text, vscode.l10n.t);
    this.post({
      type: "draft",
      folder: d.folder,
      file: d.file,
      exists: d.exists,
      seq,
      rows: checked.rows,
      diagnostics: checked.diagnostics,
      dirty: d.text !== d.loaded,
      structural: o.structural,
      ...(checked.readOnly && { readOnly: checked.readOnly }),
      ...(o.changedOnDisk && { changedOnDisk: true }),
    });
  }

  /** The file changed on disk: a clean draft follows it; a draft with edits keeps them, and its
   *  Save is refused (it would overwrite the newer file) until Revert. */
  private followDisk(folder: string): void {
    const d = this.drafts.get(folder);
    if (!d) return;
    if (versionOf(d.file) === d.version) return;
    if (d.text === d.loaded) {
      this.drafts.delete(folder);
      if (this.current === folder || this.current === undefined) this.sendDraft(folder, 0, { structural: true, changedOnDisk: true });
      return;
    }
    d.stale = true;
    this.post({ type: "saved", ok: false, message: vscode.l10n.t("The rules file changed on disk. Saving here would overwrite that change: Revert to load it, or Open in Editor.") });
  }

  private edit(folder: string, seq: number, edit: RuleEdit): void {
    const d = this.draftFor(folder);
    if (!d) return;
    if (edit.op === "revert") {
      this.drafts.delete(d.folder);
      this.sendDraft(d.folder, seq, { structural: true });
      this.post({ type: "saved", ok: true, message: vscode.l10n.t("Reverted to the file on disk.") });
      return;
    }
    const r = applyEdit(d.text, edit, edit.op === "fix" ? checkDraft(d.text).engine : [], vscode.l10n.t);
    if (!r.ok) {
      this.post({ type: "saved", ok: false, message: r.message });
      this.sendDraft(d.folder, seq, { structural: true });
      return;
    }
    d.text = r.text;
    this.sendDraft(d.folder, seq, { structural: r.structural });
  }

  private save(folder: string): void {
    const d = this.draftFor(folder);
    if (!d) return this.post({ type: "saved", ok: false, message: vscode.l10n.t("No folder is guarded.") });
    const checked = checkDraft(d.text, vscode.l10n.t);
    if (checked.diagnostics.hasErrors) {
      return this.post({ type: "saved", ok: false, message: vscode.l10n.t("Not saved: fix the errors marked on the rows first.") });
    }
    // Never overwrite a newer file: the file on disk must still be the one the draft started from.
    if (d.stale || versionOf(d.file) !== d.version) {
      d.stale = true;
      return this.post({ type: "saved", ok: false, message: vscode.l10n.t("Not saved: the rules file changed on disk since the panel loaded it. Revert to load it, or Open in Editor.") });
    }
    try {
      fs.mkdirSync(path.dirname(d.file), { recursive: true });
      fs.writeFileSync(d.file, d.text);
    } catch (e) {
      logError(`could not save ${d.file}`, e);
      return this.post({ type: "saved", ok: false, message: vscode.l10n.t("Could not save: {0}", (e as Error).message) });
    }
    d.loaded = d.text;
    d.version = versionOf(d.file);
    d.exists = true;
    this.storeFor(d.folder)?.current();
    this.post({ type: "saved", ok: true, message: vscode.l10n.t("Saved {0}.", d.file) });
    this.sendDraft(d.folder, 0, { structural: false });
    this.postState();
  }

  private async openRules(folder: string, line: number | undefined): Promise<void> {
    const store = this.storeFor(folder);
    if (line === undefined || !store || !fs.existsSync(store.file)) {
      await vscode.commands.executeCommand("damageControl.openRules", store?.folder ?? folder);
      return;
    }
    const at = new vscode.Position(line, 0);
    await vscode.window.showTextDocument(vscode.Uri.file(store.file), { selection: new vscode.Range(at, at), preview: false });
  }

  // ---- try a command, the feed's actions ------------------------------------------------

  private async tryCall(tool: string, value: string, folder: string): Promise<void> {
    const guard = this.host.guard;
    const store = this.storeFor(folder);
    if (!guard || !store) return;
    const input = tool === "bash" ? { command: value } : { path: value };
    this.postTry(await decideForPanel(guard, store, { tool, input }), value);
  }

  private postTry(v: Verdict, value: string): void {
    this.post({
      type: "tryResult",
      action: v.action,
      rule: v.rule ? describeRule(v.rule) : null,
      ruleRef: v.rule ? { list: LIST_OF_KIND[v.rule.kind], value: v.rule.text } : null,
      reason: v.reason,
      ...(v.rule?.reason && { ruleReason: v.rule.reason }),
      match: v.match ?? null,
      input: value,
    });
  }

  /** The rule's line in its file now (the rule text is what the ledger keeps), and its own reason
   *  as the headline of a bash pattern's refusal. */
  private withRuleLine(e: FeedEntry): FeedEntry {
    if (!e.rule) return e;
    const store = this.storeFor(e.folder);
    const found = store ? findRule(store.current().rules, e.rule) : undefined;
    if (!found) return e;
    return { ...e, ...(found.line !== undefined && { ruleLine: found.line }), ...(found.reason && { headline: found.reason }) };
  }

  private callOf(e: FeedEntry) {
    // An MCP call's target is its arguments that matter (src/engine/mcp/target.ts).
    if (mcpName(e.tool)) return mcpCallFromTarget(e.tool, e.target);
    return { tool: e.tool, input: e.tool.toLowerCase() === "bash" ? { command: e.target } : { file_path: e.target } };
  }

  /** The matched part of a feed entry, decided again through the bounded decider. */
  private async lookUpMatch(e: FeedEntry): Promise<void> {
    const guard = this.host.guard;
    const store = this.storeFor(e.folder);
    if (!guard || !store || !e.rule || e.target.startsWith("[")) return;
    const v = await decideForPanel(guard, store, this.callOf(e));
    if (!v.match || v.rule?.text !== e.rule) return;
    e.match = { start: v.match.start, end: v.match.end };
    this.post({ type: "feedUpdate", entry: e });
  }

  private async explain(id: string): Promise<void> {
    const e = this.feed.find((x) => x.id === id);
    const guard = this.host.guard;
    const store = e && this.storeFor(e.folder);
    if (!e || !guard || !store) return;
    const t = vscode.l10n.t;
    const steps: ExplainStep[] = [
      { label: t("Call"), text: `${e.agentLabel} · ${toolLabel(e.tool)} · ${e.target}` },
      { label: t("Folder"), text: e.folder },
    ];
    if (e.target.startsWith("[")) {
      steps.push({ label: t("Note"), text: t("The ledger keeps only a redacted target for this call, so it cannot be decided again.") });
    } else {
      const v = await decideForPanel(guard, store, this.callOf(e));
      if (v.match) steps.push({ label: t("Part that matched"), text: v.match.text });
      if (v.rule) {
        steps.push({ label: t("Rule"), text: describeRule(v.rule) });
      } else if (e.rule) {
        steps.push({ label: t("Rule"), text: t("{0} (no longer decides this call under the current rules)", e.rule) });
      }
      // Until the layered rules land every rule is the workspace's (or the embedded defaults).
      steps.push({ label: t("Layer"), text: store.current().source === "default" ? t("embedded defaults") : t("workspace") });
      steps.push({ label: t("Now"), text: v.action === "allow" ? t("allowed under the current rules") : v.action === "block" ? t("refused under the current rules") : t("asked under the current rules") });
    }
    steps.push({ label: t("Then"), text: e.headline ? `${e.outcome}: ${e.headline}` : e.outcome });
    this.post({ type: "explained", id, steps });
  }

  private async allowInFolder(id: string): Promise<void> {
    const e = this.feed.find((x) => x.id === id);
    const writer = folderExceptionWriter(this.host.guard);
    if (!e || !writer) {
      this.post({ type: "note", ok: false, text: vscode.l10n.t("Damage Control is not guarding this folder right now, so there is nowhere to write the exception.") });
      return;
    }
    try {
      const at = await writer({ folder: e.folder, agent: e.agent, tool: e.tool, target: e.target, ...(e.rule && { rule: e.rule }) });
      e.allowedHere = true;
      this.answer(e, true, vscode.l10n.t("Allowed in this folder: {0} now runs here. Exception {1} in {2}; `damage-control exceptions list` shows it, `damage-control exceptions revoke {1}` takes it back.", e.target, at.id ?? "", at.file));
      this.postState();
    } catch (err) {
      logError("could not write the exception", err);
      this.answer(e, false, vscode.l10n.t("Could not write the exception: {0}", (err as Error).message));
    }
  }

  /** An action on a feed entry answers twice: on the entry itself and as a toast. */
  private answer(e: FeedEntry, ok: boolean, text: string): void {
    e.note = { ok, text };
    this.post({ type: "feedUpdate", entry: e });
    void (ok ? vscode.window.showInformationMessage(text) : vscode.window.showWarningMessage(text));
  }

  private html(webview: vscode.Webview, media: vscode.Uri, dist: vscode.Uri): string {
    const nonce = randomBytes(16).toString("base64");
    const src = (base: vscode.Uri, file: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, file)).toString();
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join("; ");
    // The body is built by dist/webview.js; only the skeleton is here.
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${src(dist, "codicons/codicon.css")}" rel="stylesheet">
<link href="${src(media, "panel.css")}" rel="stylesheet">
<title>Damage Control</title>
</head>
<body data-l10n="${escapeAttr(JSON.stringify(vscode.l10n.bundle ?? {}))}">
<main id="app"></main>
<script nonce="${nonce}" src="${src(dist, "webview.js")}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.view = undefined;
  }
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The rule written as `text` in the rules in force: its 0-based line and (bash patterns) reason. */
function findRule(rules: RuleSet, text: string): { line?: number; reason?: string } | undefined {
  const p = rules.bashToolPatterns.find((r) => r.pattern === text);
  if (p) return { line: p.range?.start.line, reason: p.reason };
  const n = (rules.toolNamePatterns ?? []).find((r) => r.tool === text);
  if (n) return { line: n.range?.start.line, reason: n.reason };
  const f = [...rules.zeroAccessPaths, ...rules.readOnlyPaths, ...rules.noDeletePaths].find((r) => r.path === text && !r.implicit);
  return f ? { line: f.range?.start.line } : undefined;
}
