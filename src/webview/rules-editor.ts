// The structured rules editor: the four lists as tables, one row per entry. The extension holds
// the draft (the YAML text, edited in place); this side sends edits and shows the rows and the
// engine's diagnostics mapped onto them. Save is refused (button disabled, and by the extension)
// while any row has an error.
import { ENTRY_VALUE_KEY, listCount, RULE_LISTS, type PanelDiagnostic, type RuleEdit, type RuleList, type RuleRow, type ToPanel } from "../views/panel/messages";
import { byId, el, icon, send } from "./dom";
import { t } from "./l10n";

type Draft = Extract<ToPanel, { type: "draft" }>;

const TITLES: Record<RuleList, { title: string; value: string; placeholder: string }> = {
  bashToolPatterns: { title: t("Bash patterns"), value: t("Pattern (regex)"), placeholder: "\\bgit\\s+push\\b" },
  toolNamePatterns: { title: t("Tool name patterns"), value: t("Tool (glob)"), placeholder: "mcp__github__merge_*" },
  zeroAccessPaths: { title: t("Zero-access paths"), value: t("Path"), placeholder: ".env" },
  readOnlyPaths: { title: t("Read-only paths"), value: t("Path"), placeholder: "config/" },
  noDeletePaths: { title: t("No-delete paths"), value: t("Path"), placeholder: "data/" },
};

const TYPING_MS = 150;

export class RulesEditor {
  private folder = "";
  private seq = 0;
  private lastShown = 0;
  private draft: Draft | undefined;
  private hits: Record<string, number> = {};
  private matched: { list: RuleList; value: string } | null = null;
  private readonly timers = new Map<string, number>();

  constructor(private readonly root: HTMLElement) {
    const picker = el("select", { id: "editor-folder", "aria-label": t("Folder whose rules to edit"), hidden: true });
    picker.addEventListener("change", () => send({ type: "loadRules", folder: picker.value }));
    root.append(
      picker,
      el("div", { id: "editor-file", class: "muted" }),
      el("ul", { id: "editor-file-diagnostics", class: "diags", "aria-label": t("Problems in the rules file outside the rows") }),
      el("div", { id: "editor-tables" }),
      el(
        "div",
        { class: "buttons" },
        el("button", { id: "save", type: "button" }, icon("save"), ` ${t("Save")}`),
        el("button", { id: "revert", type: "button", class: "secondary" }, icon("discard"), ` ${t("Revert")}`),
        el("button", { id: "open", type: "button", class: "secondary" }, icon("go-to-file"), ` ${t("Open in Editor")}`),
      ),
      el("div", { id: "save-result", role: "status" }),
    );
    byId("save").addEventListener("click", () => {
      this.flushTyping();
      send({ type: "save", folder: this.folder });
    });
    byId("revert").addEventListener("click", () => this.edit({ op: "revert" }));
    byId("open").addEventListener("click", () => send({ type: "openRules", folder: this.folder }));
  }

  /** A multi-root window: pick the folder whose rules file the editor shows. */
  setFolders(folders: string[]): void {
    const picker = byId<HTMLSelectElement>("editor-folder");
    picker.hidden = folders.length < 2;
    if (picker.options.length === folders.length && folders.every((f, i) => picker.options[i].value === f)) return;
    picker.textContent = "";
    for (const f of folders) picker.append(el("option", { value: f }, f));
    picker.value = this.folder || folders[0] || "";
  }

  get currentFolder(): string {
    return this.folder;
  }

  setHits(hits: Record<string, number>): void {
    this.hits = hits;
    for (const cell of Array.from(this.root.querySelectorAll<HTMLElement>(".hits"))) cell.textContent = String(hits[cell.dataset.value ?? ""] ?? 0);
  }

  /** Marks the rows that decided "try a command" (the decider names one rule). */
  highlight(ref: { list: RuleList; value: string } | null): void {
    this.matched = ref;
    for (const body of Array.from(this.root.querySelectorAll<HTMLElement>("tbody.rule"))) {
      const row = this.rowAt(body.dataset.list as RuleList, Number(body.dataset.index));
      body.classList.toggle("matched", !!ref && !!row && row.list === ref.list && row.value === ref.value);
    }
  }

  private rowAt(list: RuleList, index: number): RuleRow | undefined {
    return this.draft?.rows.filter((r) => r.list === list)[index];
  }

  private edit(edit: RuleEdit): void {
    send({ type: "edit", seq: ++this.seq, folder: this.folder, edit });
  }

  private flushTyping(): void {
    for (const [key, t] of this.timers) {
      clearTimeout(t);
      this.timers.delete(key);
      const input = this.root.querySelector<HTMLInputElement>(`[data-key="${CSS.escape(key)}"]`);
      input?.dispatchEvent(new Event("flush"));
    }
  }

  show(d: Draft): void {
    if (d.seq < this.lastShown) return; // an answer to an older edit
    this.lastShown = d.seq;
    const first = !this.draft || this.draft.folder !== d.folder;
    this.folder = d.folder;
    this.draft = d;
    byId<HTMLSelectElement>("editor-folder").value = d.folder;
    byId("editor-file").textContent = d.exists ? d.file : t("{0} (does not exist yet: the embedded defaults are in force; Save creates it)", d.file);
    if (first || d.structural) this.render(d);
    else this.updateDiagnostics(d);
    this.renderFileDiagnostics(d);
    const save = byId<HTMLButtonElement>("save");
    save.disabled = d.diagnostics.hasErrors || !!d.readOnly;
    save.title = d.diagnostics.hasErrors ? t("Fix the errors marked on the rows first") : "";
    byId<HTMLButtonElement>("revert").disabled = !d.dirty;
    this.root.classList.toggle("dirty", d.dirty);
    if (d.changedOnDisk) this.note(t("The rules file changed on disk: the editor shows it as it is now."), true);
  }

  note(text: string, ok: boolean): void {
    const out = byId("save-result");
    out.textContent = text;
    out.className = ok ? "ok" : "bad";
  }

  private renderFileDiagnostics(d: Draft): void {
    const list = byId("editor-file-diagnostics");
    list.textContent = "";
    if (d.readOnly) list.append(el("li", { class: "error" }, icon("error"), ` ${d.readOnly}`));
    for (const x of d.diagnostics.file) list.append(this.diagItem(x));
  }

  private render(d: Draft): void {
    const tables = byId("editor-tables");
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    tables.textContent = "";
    for (const list of RULE_LISTS) tables.append(this.table(list, d));
    if (focused) tables.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
    this.highlight(this.matched);
  }

  private table(list: RuleList, d: Draft): HTMLElement {
    const titles = TITLES[list];
    const rows = d.rows.filter((r) => r.list === list);
    const isPattern = ENTRY_VALUE_KEY[list] !== undefined;
    // Narrow side bar: the inputs get the width; layer, hits and the row's buttons go on a second line.
    const head = el(
      "tr",
      {},
      el("th", { scope: "col" }, isPattern ? t("{0} and reason", titles.value) : titles.value),
      isPattern ? el("th", { scope: "col", class: "narrow" }, t("Ask")) : null,
    );
    const table = el("table", { class: "rules", "data-list": list, "aria-label": titles.title }, el("caption", {}, titles.title, el("span", { class: "muted list-count" }, ` (${t("{0} in this file", captionCount(rows))})`)), el("thead", {}, head));
    rows.forEach((row, i) => table.append(this.rowBody(list, row, i, rows.length, d.diagnostics.rows[list][i] ?? [], !!d.readOnly)));
    const add = el("button", { type: "button", class: "secondary add", "data-list": list, disabled: !!d.readOnly }, icon("add"), ` ${isPattern ? (list === "toolNamePatterns" ? t("Add tool pattern") : t("Add pattern")) : t("Add path")}`);
    add.addEventListener("click", () => this.edit({ op: "add", list }));
    return el("div", { class: "rules-list" }, table, add);
  }

  private rowBody(list: RuleList, row: RuleRow, index: number, count: number, diags: PanelDiagnostic[], readOnly: boolean): HTMLElement {
    const isPattern = ENTRY_VALUE_KEY[list] !== undefined;
    const body = el("tbody", { class: "rule", "data-list": list, "data-index": String(index) });
    const input = (field: "value" | "reason", value: string, label: string, placeholder?: string) => {
      const key = `${list}:${index}:${field}`;
      const box = el("input", { type: "text", class: `f-${field}`, value, spellcheck: "false", "aria-label": t("{0}, row {1}", label, index + 1), "data-key": key, placeholder, disabled: readOnly });
      const push = () => {
        this.timers.delete(key);
        this.edit({ op: "set", list, index, field, value: box.value });
      };
      box.addEventListener("input", () => {
        clearTimeout(this.timers.get(key));
        this.timers.set(key, window.setTimeout(push, TYPING_MS));
      });
      box.addEventListener("flush", push);
      return box;
    };
    const ask = el("input", { type: "checkbox", class: "f-ask", checked: !!row.ask, "aria-label": t("Ask instead of refusing, row {0}", index + 1), disabled: readOnly });
    ask.addEventListener("change", () => this.edit({ op: "set", list, index, field: "ask", value: ask.checked }));
    const button = (name: string, title: string, cls: string, disabled: boolean, edit: RuleEdit) => {
      const b = el("button", { type: "button", class: `icon ${cls}`, title, "aria-label": t("{0}, row {1}", title, index + 1), disabled: disabled || readOnly }, icon(name));
      b.addEventListener("click", () => this.edit(edit));
      return b;
    };
    const cols = isPattern ? "2" : "1";
    body.append(
      el(
        "tr",
        { class: "fields" },
        el("td", { class: "inputs" }, input("value", row.value, TITLES[list].value, TITLES[list].placeholder), isPattern ? input("reason", row.reason ?? "", t("Reason"), t("what the agent is told")) : null),
        isPattern ? el("td", { class: "narrow" }, ask) : null,
      ),
      el(
        "tr",
        { class: "meta-row" },
        el(
          "td",
          { colspan: cols },
          el(
            "div",
            { class: "row-meta" },
            el("span", { class: "muted" }, `${t("layer")} `, el("span", { class: "layer" }, row.layer ?? t("workspace")), ` · ${t("hits")} `, el("span", { class: "hits", "data-value": row.value }, String(this.hits[row.value] ?? 0))),
            el(
              "span",
              { class: "row-actions" },
              button("arrow-up", t("Move up"), "up", index === 0, { op: "move", list, index, to: index - 1 }),
              button("arrow-down", t("Move down"), "down", index === count - 1, { op: "move", list, index, to: index + 1 }),
              button("trash", t("Delete"), "delete", false, { op: "delete", list, index }),
            ),
          ),
          this.diagList(diags),
        ),
      ),
    );
    body.classList.toggle("has-error", diags.some((x) => x.severity === "error"));
    return body;
  }

  private diagList(diags: PanelDiagnostic[]): HTMLElement {
    const ul = el("ul", { class: "diags" });
    for (const d of diags) ul.append(this.diagItem(d));
    return ul;
  }

  private diagItem(d: PanelDiagnostic): HTMLElement {
    const li = el("li", { class: `diag ${d.severity}`, "data-code": d.code }, icon(d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "info"), " ", el("span", { class: "diag-message" }, d.message), el("span", { class: "muted" }, ` ${t("(line {0})", d.line + 1)}`));
    if (d.fixTitle) {
      const fix = el("button", { type: "button", class: "link fix" }, icon("lightbulb"), ` ${d.fixTitle}`);
      fix.addEventListener("click", () => this.edit({ op: "fix", diagnostic: d.index }));
      li.append(" ", fix);
    }
    return li;
  }

  /** A field edit: only the diagnostics change on screen (the inputs keep focus and caret). */
  private updateDiagnostics(d: Draft): void {
    for (const list of RULE_LISTS) {
      d.diagnostics.rows[list].forEach((diags, i) => {
        const body = this.root.querySelector<HTMLElement>(`tbody.rule[data-list="${list}"][data-index="${i}"]`);
        if (!body) return;
        body.querySelector("tr.meta-row ul.diags")?.replaceWith(this.diagList(diags));
        body.classList.toggle("has-error", diags.some((x) => x.severity === "error"));
        const hits = body.querySelector<HTMLElement>(".hits");
        const row = d.rows.filter((r) => r.list === list)[i];
        if (hits && row) {
          hits.dataset.value = row.value;
          hits.textContent = String(this.hits[row.value] ?? 0);
        }
      });
    }
    this.highlight(this.matched);
  }
}

/** A list's count as the panel's summary counts it (listCount in messages.ts). */
function captionCount(rows: readonly RuleRow[]): string {
  const { rules, exclusions } = listCount(rows);
  if (exclusions === 0) return String(rules);
  return exclusions === 1 ? t("{0}, 1 exclusion", rules) : t("{0}, {1} exclusions", rules, exclusions);
}
