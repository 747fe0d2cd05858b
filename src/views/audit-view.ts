// *Show Audit Log* opens the ledger readable: a formatted, read-only document (one decision per
// block, newest first: time, decision, agent, tool, the command or path, the rule and its reason,
// the snapshot), with the raw JSONL one click away (*Show Audit Log (Raw JSONL)*, also named in
// the document's first lines). Issue 38: it opened as one long line of JSONL.
import * as fs from "node:fs";
import * as vscode from "vscode";
import { agentLabel } from "../engine/agents";
import type { LedgerEntry } from "../core/ledger";
import type { GuardHost } from "./guard-host";

export const AUDIT_SCHEME = "damage-control-audit";
/** Entries shown in the formatted view (the raw file has them all). */
const SHOWN = 1000;

const DECISION: Record<LedgerEntry["decision"], string> = {
  allow: "allowed",
  block: "REFUSED",
  ask: "asked",
  "allowed-by-user": "allowed by you",
  "denied-by-user": "DENIED",
  unconfirmed: "REFUSED (nobody to ask)",
  "kernel-refused": "KERNEL REFUSED (in the sandbox)",
};

/** The formatted text of ledger entries (newest first). Pure. */
export function formatLedger(entries: readonly LedgerEntry[], folder: string, rawFile: string): string {
  const lines = [
    `Damage Control audit log of ${folder}: the last ${entries.length === 1 ? "decision" : `${entries.length} decisions`}, newest first.`,
    `Raw file (one JSON line per decision): ${rawFile}`,
    `Open it with the command "Damage Control: Show Audit Log (Raw JSONL)".`,
    "",
  ];
  for (const e of [...entries].reverse()) {
    const when = e.time.replace("T", " ").replace(/\.\d+Z$/, "Z");
    lines.push(`${when}  ${DECISION[e.decision] ?? e.decision}  ${agentLabel(e.agent)} · ${e.tool}`);
    lines.push(`    ${e.target}`);
    if (e.rule) lines.push(`    rule: ${e.rule}${e.layer ? ` (${e.layer})` : ""}`);
    if (e.reason) lines.push(`    why: ${e.reason}`);
    if (e.exception) lines.push(`    exception: ${e.exception}`);
    for (const k of e.kernel ?? []) lines.push(`    kernel refused ${k.kind === "read" ? "reading" : "writing"}: ${k.path} (rule ${k.rule})`);
    if (e.snapshot) lines.push(`    snapshot: ${"id" in e.snapshot ? `${e.snapshot.id} (${e.snapshot.holds})` : `not kept: ${e.snapshot.notKept}`}`);
    lines.push("");
  }
  if (entries.length === 0) lines.push("No decisions yet.");
  return lines.join("\n");
}

export function registerAuditView(context: vscode.ExtensionContext, host: GuardHost, pickFolder: (given?: unknown) => Promise<string | undefined>): void {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent(uri) {
      const folder = decodeURIComponent(uri.query);
      const guard = host.guard;
      if (!guard) return vscode.l10n.t("Damage Control is not running: {0}.", host.down ?? vscode.l10n.t("starting"));
      const ledger = guard.ledgerFor(folder);
      return formatLedger(ledger.tail(SHOWN), folder, ledger.file);
    },
  };
  const rawFile = async (given?: unknown) => {
    const folder = await pickFolder(given);
    if (!folder || !host.guard) return undefined;
    const file = host.guard.ledgerFor(folder).file;
    if (!fs.existsSync(file)) fs.writeFileSync(file, "");
    return { folder, file };
  };
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(AUDIT_SCHEME, provider),
    vscode.commands.registerCommand("damageControl.showAuditLog", async (given?: unknown) => {
      const at = await rawFile(given);
      if (!at) return;
      // The tab reads "audit.jsonl (formatted)"; the folder travels in the query.
      const uri = vscode.Uri.from({ scheme: AUDIT_SCHEME, path: "/audit.jsonl (formatted)", query: encodeURIComponent(at.folder) });
      changed.fire(uri);
      await vscode.window.showTextDocument(uri, { preview: true });
    }),
    vscode.commands.registerCommand("damageControl.showAuditLogRaw", async (given?: unknown) => {
      const at = await rawFile(given);
      if (at) await vscode.window.showTextDocument(vscode.Uri.file(at.file), { preview: true });
    }),
    // A new decision refreshes an open formatted view.
    (() => {
      const on = () => {
        for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === AUDIT_SCHEME) changed.fire(d.uri);
      };
      host.on("decision", on);
      return { dispose: () => host.off("decision", on) };
    })(),
  );
}
