// The side panel (a webview view, after microsoft/vscode-extension-samples webview-view-sample):
// rule counts and health, the live feed of refusals and asks, a rules editor with the same
// diagnostics as the editor, and "try a command". CSP with a nonce, local resources only,
// theme colours via CSS variables, typed messages.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { parseRules } from "../../engine/rules/parse";
import { describeRule } from "../../engine/reason";
import type { Diagnostic } from "../../engine/types";
import { ruleCounts } from "../../core/counts";
import type { DecisionRecord } from "../../core/guard";
import type { LedgerEntry } from "../../core/ledger";
import { projectHooksDisabledMessage, readManaged } from "../../install/managed";
import type { GuardHost } from "../guard-host";
import { isFromPanel, type FeedEntry, type FromPanel, type PanelDiagnostic, type ToPanel } from "./messages";

export const PANEL_VIEW_ID = "damageControl.panel";
const FEED_SIZE = 200;

export class PanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly feed: FeedEntry[] = [];
  private refusals = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: GuardHost,
  ) {
    host.on("state", () => {
      this.restoreFeed();
      this.postState();
    });
    host.on("rules", (s: { folder: string }) => {
      this.postState();
      // Fix: the panel's rules editor kept the text it loaded first, so after an edit elsewhere
      // (the editor, git, an agent) its Save wrote that old text over the newer file. Send the
      // file again whenever it changes; panel.js keeps the user's unsaved edits if there are any.
      this.sendRules(s.folder, true);
    });
    host.on("decision", (d: DecisionRecord) => {
      if (d.decision === "allow") return;
      if (d.decision === "block" || d.decision === "denied-by-user") this.refusals++;
      const entry = toFeed(d);
      this.feed.unshift(entry);
      this.feed.length = Math.min(this.feed.length, FEED_SIZE);
      this.post({ type: "decision", entry });
      this.postState();
    });
  }

  /** After a reload the feed comes back from the audit ledger. */
  private restoreFeed(): void {
    const guard = this.host.guard;
    if (!guard || this.feed.length > 0) return;
    const entries: LedgerEntry[] = [];
    for (const f of guard.folders) entries.push(...guard.ledgerFor(f).tail(FEED_SIZE).filter((e) => e.decision !== "allow"));
    entries.sort((a, b) => (a.time < b.time ? 1 : -1));
    this.feed.push(...entries.slice(0, FEED_SIZE).map(toFeed));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    const codicons = vscode.Uri.joinPath(this.extensionUri, "dist", "codicons");
    view.webview.options = { enableScripts: true, localResourceRoots: [media, codicons] };
    view.webview.html = this.html(view.webview, media, codicons);
    view.webview.onDidReceiveMessage((m: unknown) => {
      if (isFromPanel(m)) void this.onMessage(m);
    });
    view.onDidDispose(() => (this.view = undefined));
  }

  reveal(): void {
    this.view?.show?.(true);
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
      diagnostics: s.diagnostics.map(toPanelDiagnostic),
    }));
    const managed = readManaged();
    const managedWarning = managed.projectHooksDisabled ? projectHooksDisabledMessage(managed) : null;
    this.post({ type: "state", folders, endpoint: this.host.endpoint?.url ?? null, down: this.host.endpoint ? null : (this.host.down ?? "starting"), refusals: this.refusals, managedWarning });
  }

  private async onMessage(m: FromPanel): Promise<void> {
    switch (m.type) {
      case "ready":
        this.restoreFeed();
        this.postState();
        this.post({ type: "feed", entries: this.feed });
        if (this.host.guard) this.sendRules(this.host.guard.folders[0]);
        return;
      case "loadRules":
        return this.sendRules(m.folder);
      case "lint":
        this.post({ type: "lintResult", diagnostics: parseRules(m.text).diagnostics.map(toPanelDiagnostic) });
        return;
      case "save":
        return this.save(m.folder, m.text);
      case "openRules":
        await vscode.commands.executeCommand("damageControl.openRules", m.folder);
        return;
      case "try":
        return this.tryCall(m.tool, m.value, m.folder);
    }
  }

  private storeFor(folder: string) {
    const guard = this.host.guard;
    return guard?.folders.includes(folder) ? guard.storeFor(folder) : guard?.storeFor(undefined);
  }

  private sendRules(folder: string, changedOnDisk = false): void {
    const store = this.storeFor(folder);
    if (!store) return;
    let text = "";
    let exists = false;
    try {
      text = fs.readFileSync(store.file, "utf8");
      exists = true;
    } catch {
      /* no file yet: the defaults are in force */
    }
    this.post({ type: "rulesText", folder: store.folder, file: store.file, text, exists, ...(changedOnDisk && { changedOnDisk }) });
  }

  private save(folder: string, text: string): void {
    const store = this.storeFor(folder);
    if (!store) return this.post({ type: "saved", ok: false, message: "No folder is guarded." });
    const parsed = parseRules(text);
    try {
      fs.mkdirSync(path.dirname(store.file), { recursive: true });
      fs.writeFileSync(store.file, text);
    } catch (e) {
      return this.post({ type: "saved", ok: false, message: `Could not save: ${(e as Error).message}` });
    }
    store.current();
    this.post({
      type: "saved",
      ok: parsed.ok,
      message: parsed.ok ? `Saved ${store.file}.` : `Saved, but the file has errors: the last good rules stay in force until they are fixed.`,
    });
    this.postState();
  }

  private async tryCall(tool: string, value: string, folder: string): Promise<void> {
    const guard = this.host.guard;
    const store = this.storeFor(folder);
    if (!guard || !store) return;
    const input = tool === "bash" ? { command: value } : { path: value };
    // Through the guard's bounded worker: a slow rule is cut off there, never freezes the window.
    const v = await guard.tryCall({ tool, input }, store.folder);
    this.post({ type: "tryResult", action: v.action, rule: v.rule ? describeRule(v.rule) : null, reason: v.reason, match: v.match ?? null, input: value });
  }

  private html(webview: vscode.Webview, media: vscode.Uri, codicons: vscode.Uri): string {
    const nonce = randomBytes(16).toString("base64");
    const src = (base: vscode.Uri, file: string) => webview.asWebviewUri(vscode.Uri.joinPath(base, file)).toString();
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join("; ");
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${src(codicons, "codicon.css")}" rel="stylesheet">
<link href="${src(media, "panel.css")}" rel="stylesheet">
<title>Damage Control</title>
</head>
<body>
<section id="health" aria-labelledby="h-health">
  <h2 id="h-health"><span class="codicon codicon-shield"></span> Rules</h2>
  <div id="status" role="status"></div>
  <table id="counts" aria-label="Rule counts by kind"><tbody></tbody></table>
</section>
<section aria-labelledby="h-try">
  <h2 id="h-try"><span class="codicon codicon-beaker"></span> Try a command</h2>
  <form id="try-form">
    <label for="try-tool">Tool</label>
    <select id="try-tool">
      <option value="bash">bash (command)</option>
      <option value="read">read (path)</option>
      <option value="write">write (path)</option>
      <option value="ls">ls (path)</option>
    </select>
    <label for="try-input">Command or path</label>
    <input id="try-input" type="text" spellcheck="false" placeholder="rm -rf build">
    <button id="try-run" type="submit">Decide</button>
  </form>
  <div id="try-result" aria-live="polite"></div>
</section>
<section aria-labelledby="h-feed">
  <h2 id="h-feed"><span class="codicon codicon-history"></span> Refusals and asks</h2>
  <ol id="feed" aria-live="polite"></ol>
  <p id="feed-empty" class="muted">No refusals yet.</p>
</section>
<section aria-labelledby="h-editor">
  <h2 id="h-editor"><span class="codicon codicon-edit"></span> Rules file</h2>
  <div id="editor-file" class="muted"></div>
  <textarea id="editor" spellcheck="false" aria-label="Rules file text" rows="16"></textarea>
  <ul id="editor-diagnostics" aria-label="Problems in the rules file"></ul>
  <div class="buttons">
    <button id="save">Save</button>
    <button id="open" class="secondary">Open in editor</button>
  </div>
  <div id="save-result" role="status"></div>
</section>
<script nonce="${nonce}" src="${src(media, "panel.js")}"></script>
</body>
</html>`;
  }

  dispose(): void {
    this.view = undefined;
  }
}

function toPanelDiagnostic(d: Diagnostic): PanelDiagnostic {
  return { line: d.range.start.line, character: d.range.start.character, endLine: d.range.end.line, endCharacter: d.range.end.character, severity: d.severity, message: d.message };
}

function toFeed(d: LedgerEntry | DecisionRecord): FeedEntry {
  return { time: d.time, agent: d.agent, tool: d.tool, target: d.target, ...(d.rule && { rule: d.rule }), outcome: d.decision, ...(d.reason && { reason: d.reason }) };
}
