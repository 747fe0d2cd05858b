// The feed: the reason first, then agent, tool, the command or path with the matched part marked.
// Sections by kind (refused by a rule, asked, allowed with a snapshot kept) with their counts, and
// each entry offers only the actions that apply to its kind: Open rule and Allow in this folder
// where a rule decided, Restore (then Restored) where a snapshot was kept, Explain and Copy
// everywhere. An action's answer is shown on the entry. Filters by agent and outcome too. The
// outcome is a field the extension set (no reason text is parsed here).
import { FEED_KINDS, FEED_OUTCOMES, kindOf, type ExplainStep, type FeedEntry, type FeedKind, type FeedOutcome } from "../views/panel/messages";
import { byId, el, icon, marked, send } from "./dom";
import { t } from "./l10n";

export const OUTCOME_LABEL: Record<FeedOutcome, string> = {
  refused: t("refused by a rule"),
  denied: t("denied by you"),
  "timed-out": t("timed out: denied"),
  dismissed: t("dialog dismissed: denied"),
  "denied-again": t("denied again (same call)"),
  "not-confirmed": t("not confirmed: denied"),
  allowed: t("allowed by you"),
  asked: t("asked"),
  "let-through": t("allowed by the rules"),
  "kernel-refused": t("refused by the kernel (sandbox)"),
};

const OUTCOME_ICON: Record<FeedOutcome, string> = {
  refused: "circle-slash",
  denied: "error",
  "timed-out": "watch",
  dismissed: "close",
  "denied-again": "error",
  "not-confirmed": "error",
  allowed: "pass",
  asked: "question",
  "let-through": "check",
  "kernel-refused": "lock",
};

const KIND_LABEL: Record<FeedKind, string> = {
  refused: t("Refused"),
  asked: t("Asked"),
  kept: t("Allowed, snapshot kept"),
};

export class Feed {
  private entries: FeedEntry[] = [];
  private exceptions = false;
  private kind: FeedKind | "" = "";

  constructor(root: HTMLElement) {
    const agent = el("select", { id: "feed-agent", "aria-label": t("Filter by agent") }, el("option", { value: "" }, t("All agents")));
    const outcome = el("select", { id: "feed-outcome", "aria-label": t("Filter by outcome") }, el("option", { value: "" }, t("All outcomes")));
    for (const o of FEED_OUTCOMES) outcome.append(el("option", { value: o }, OUTCOME_LABEL[o]));
    agent.addEventListener("change", () => this.render());
    outcome.addEventListener("change", () => this.render());
    root.append(
      el("div", { id: "feed-kinds", class: "kinds", role: "tablist", "aria-label": t("What the entries are") }),
      el("div", { class: "filters" }, agent, outcome),
      el("ol", { id: "feed", "aria-live": "polite" }),
      el("p", { id: "feed-empty", class: "muted" }, t("Nothing yet: refusals, asks and the calls Damage Control kept a snapshot for appear here.")),
      el("p", { id: "feed-quiet", class: "muted", hidden: true }),
    );
  }

  /** Decisions the pictures count that the feed does not list (allowed, nothing destroyed). */
  setQuiet(n: number): void {
    const p = byId("feed-quiet");
    p.hidden = n === 0;
    p.textContent = n === 1 ? t("Not listed: 1 call the rules allowed that destroyed nothing (counted in the pictures).") : t("Not listed: {0} calls the rules allowed that destroyed nothing (counted in the pictures).", n);
  }

  /** The kind tabs, each with its count. */
  private renderKinds(): void {
    const box = byId("feed-kinds");
    box.textContent = "";
    const tab = (k: FeedKind | "", label: string, n: number) => {
      const b = el("button", { type: "button", role: "tab", class: `kind${this.kind === k ? " active" : ""}`, "data-kind": k || "all", "aria-selected": this.kind === k ? "true" : "false" }, `${label} (${n})`);
      b.addEventListener("click", () => {
        this.kind = k;
        this.render();
      });
      return b;
    };
    box.append(tab("", t("All"), this.entries.length), ...FEED_KINDS.map((k) => tab(k, KIND_LABEL[k], this.entries.filter((e) => kindOf(e.outcome) === k).length)));
  }

  setExceptionsAvailable(on: boolean): void {
    if (on === this.exceptions) return;
    this.exceptions = on;
    this.render();
  }

  set(entries: FeedEntry[]): void {
    this.entries = entries.slice();
    this.render();
  }

  add(entry: FeedEntry): void {
    this.entries.unshift(entry);
    this.render();
  }

  update(entry: FeedEntry): void {
    const i = this.entries.findIndex((e) => e.id === entry.id);
    if (i < 0) return;
    this.entries[i] = entry;
    const li = document.querySelector(`#feed li[data-id="${CSS.escape(entry.id)}"]`);
    if (li) li.replaceWith(this.item(entry));
    this.renderKinds();
  }

  showExplanation(id: string, steps: ExplainStep[]): void {
    const box = document.querySelector<HTMLElement>(`#feed li[data-id="${CSS.escape(id)}"] .explain`);
    if (!box) return;
    box.textContent = "";
    const dl = el("dl", {});
    for (const s of steps) dl.append(el("dt", {}, s.label), el("dd", {}, s.text));
    box.append(dl);
    box.hidden = false;
  }

  private render(): void {
    const agentBox = byId<HTMLSelectElement>("feed-agent");
    const chosen = agentBox.value;
    const agents = [...new Set(this.entries.map((e) => e.agentLabel))].sort();
    agentBox.textContent = "";
    agentBox.append(el("option", { value: "" }, t("All agents")), ...agents.map((a) => el("option", { value: a }, a)));
    agentBox.value = agents.includes(chosen) ? chosen : "";
    const outcome = byId<HTMLSelectElement>("feed-outcome").value;
    this.renderKinds();
    const shown = this.entries.filter((e) => (!this.kind || kindOf(e.outcome) === this.kind) && (!agentBox.value || e.agentLabel === agentBox.value) && (!outcome || e.outcome === outcome));
    const list = byId("feed");
    list.textContent = "";
    for (const e of shown) list.append(this.item(e));
    const empty = byId("feed-empty");
    empty.hidden = shown.length > 0;
    empty.textContent = this.entries.length === 0 ? t("Nothing yet: refusals, asks and the calls Damage Control kept a snapshot for appear here.") : t("Nothing matches the filters.");
  }

  private item(e: FeedEntry): HTMLElement {
    const when = new Date(e.time);
    const kind = kindOf(e.outcome);
    // Only a bash command a rule refused (or a human denied) can be allowed here.
    const denied = kind === "refused" || (kind === "asked" && e.outcome !== "allowed" && e.outcome !== "asked");
    // The kernel's refusal is not lifted by an exception of ours: nothing to allow here.
    const allowable = denied && e.outcome !== "kernel-refused" && e.tool.toLowerCase() === "bash" && !e.target.startsWith("[");
    const action = (name: string, label: string, cls: string, onClick: () => void, disabled = false, title?: string) => {
      const b = el("button", { type: "button", class: `link ${cls}`, disabled, title }, icon(name), ` ${label}`);
      b.addEventListener("click", onClick);
      return b;
    };
    const copyText = `${e.agentLabel} ${e.toolLabel ?? e.tool}: ${e.target}\n${OUTCOME_LABEL[e.outcome]}${e.rule ? ` · rule ${e.rule}` : ""}\n${e.reason ?? ""}`.trim();
    return el(
      "li",
      { class: `feed-item feed-${e.outcome} kind-${kind}`, "data-id": e.id, "data-outcome": e.outcome, "data-kind": kind, tabindex: "0" },
      el("div", { class: "headline" }, icon(OUTCOME_ICON[e.outcome]), " ", el("span", { class: "feed-reason" }, e.headline || OUTCOME_LABEL[e.outcome])),
      el(
        "div",
        { class: "meta" },
        el("strong", { class: "feed-agent" }, e.agentLabel),
        " · ",
        el("span", { class: "feed-tool" }, e.toolLabel ?? e.tool),
        " · ",
        el("span", { class: "feed-outcome" }, OUTCOME_LABEL[e.outcome]),
        " · ",
        el("time", { class: "time", datetime: e.time, title: when.toLocaleString() }, when.toLocaleTimeString()),
      ),
      el("code", { class: "feed-target" }, ...marked(e.target, e.match)),
      e.rule ? el("div", { class: "muted feed-rule" }, t("rule {0}", e.rule)) : null,
      snapshotLine(e),
      e.sandboxed ? el("div", { class: "muted feed-sandbox" }, t("ran in the sandbox: the rules' protected paths were held by the kernel")) : null,
      ...(e.kernel ?? []).map((k) =>
        el("div", { class: "feed-kernel" }, icon("lock"), " ", k.kind === "read" ? t("the kernel refused reading") : t("the kernel refused writing"), " ", el("code", { class: "feed-kernel-path" }, k.path), " · ", t("rule {0}", k.rule), k.reason ? ` (${k.reason})` : ""),
      ),
      el(
        "div",
        { class: "actions" },
        e.rule ? action("go-to-file", t("Open rule"), "act-open", () => send({ type: "openRules", folder: e.folder, ...(e.ruleLine !== undefined && { line: e.ruleLine }) })) : null,
        action("info", t("Explain"), "act-explain", () => send({ type: "explain", id: e.id })),
        allowable && !e.allowedHere ? action("check", t("Allow in this folder"), "act-allow", () => send({ type: "allowInFolder", id: e.id }), !this.exceptions, this.exceptions ? undefined : t("Only while Damage Control guards this folder")) : null,
        e.allowedHere ? el("span", { class: "done act-allowed" }, icon("pass"), ` ${t("Allowed in this folder")}`) : null,
        action("copy", t("Copy"), "act-copy", () => send({ type: "copy", text: copyText })),
        e.snapshot?.id && !e.snapshot.restored ? action("discard", t("Restore"), "act-restore", () => send({ type: "restore", id: e.id }), false, t("Put back what was kept before this call (listed, then confirmed)")) : null,
        e.snapshot?.restored ? el("span", { class: "done act-restored" }, icon("pass"), ` ${t("Restored")}`) : null,
        e.snapshot?.restored ? action("history", t("Undo restore"), "act-undo-restore", () => send({ type: "undoRestore", id: e.id }), false, t("Put back what the restore replaced (what it set aside returns; nothing changed since is overwritten)")) : null,
      ),
      e.note ? el("div", { class: `entry-note ${e.note.ok ? "ok" : "bad"}`, role: "status" }, icon(e.note.ok ? "pass" : "warning"), ` ${e.note.text}`) : null,
      el("div", { class: "explain", hidden: true }),
    );
  }
}

/** What was kept before the call (or why nothing was); snapshots never cover remote services. */
function snapshotLine(e: FeedEntry): HTMLElement | null {
  const s = e.snapshot;
  if (!s) return null;
  if (s.notKept) return el("div", { class: "muted feed-snapshot" }, t("not kept: {0}", s.notKept));
  // A force push's old tip is kept locally; the remote itself is never changed back by the guard.
  // Said only where a remote is involved: on a local file delete it is noise (issue 38).
  const remote = s.remote ? ` ${t("Remote services are not kept: restoring prints the push that would put the old tip back.")}` : "";
  return el("div", { class: "muted feed-snapshot" }, t("snapshot kept: {0}.", s.holds ?? ""), remote);
}
