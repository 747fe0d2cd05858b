// Entry of dist/webview.js, the Damage Control panel (bundled by esbuild for the browser). It talks
// to the extension only through the typed messages of src/views/panel/messages.ts.
import { MACHINE_LINE_IDS, type PanelStats, type ToPanel } from "../views/panel/messages";
import { renderAgents } from "./agents";
import { barChart, sparkline } from "./charts";
import { byId, el, icon, marked, send } from "./dom";
import { Feed } from "./feed";
import { t } from "./l10n";
import { RulesEditor } from "./rules-editor";

type State = Extract<ToPanel, { type: "state" }>;
type TryResult = Extract<ToPanel, { type: "tryResult" }>;

const section = (id: string, codicon: string, title: string, ...body: HTMLElement[]) =>
  el("section", { id, "aria-labelledby": `h-${id}` }, el("h2", { id: `h-${id}` }, icon(codicon), ` ${title}`), ...body);

const app = byId("app");
const feedBox = el("div", {});
const editorBox = el("div", { id: "editor" });
const tryForm = el(
  "form",
  { id: "try-form" },
  el("label", { for: "try-tool" }, t("Tool")),
  el(
    "select",
    { id: "try-tool" },
    el("option", { value: "bash" }, t("bash (command)")),
    el("option", { value: "read" }, t("read (path)")),
    el("option", { value: "write" }, t("write (path)")),
    el("option", { value: "ls" }, t("ls (path)")),
  ),
  el("label", { for: "try-input" }, t("Command or path")),
  el("input", { id: "try-input", type: "text", spellcheck: "false", placeholder: "rm -rf build" }),
  el("button", { id: "try-run", type: "submit" }, t("Decide")),
);
app.append(
  // Every action's answer, where it can be seen whatever part of the panel is scrolled into view.
  el("div", { id: "panel-note", role: "status", "aria-live": "polite", hidden: true }),
  // What the product is doing and what to do first, before any warning (issue 38: the first screen alarmed).
  el("div", { id: "intro" }),
  section("health", "shield", t("Rules"), el("div", { id: "status", role: "status" }), el("table", { id: "counts", "aria-label": t("Rule counts by kind") }, el("tbody"))),
  section("agents-section", "hubot", t("Agents"), el("div", { id: "agents-status", role: "status" })),
  section("feed-section", "history", t("Feed"), feedBox),
  section("pictures", "graph", t("Pictures"), el("div", { id: "charts" })),
  section("try", "beaker", t("Try a command"), tryForm, el("div", { id: "try-result", "aria-live": "polite" })),
  section("rules-editor", "edit", t("Rules editor"), editorBox),
);
const feed = new Feed(feedBox);
const editor = new RulesEditor(editorBox);

let noteTimer: ReturnType<typeof setTimeout> | undefined;
function showNote(text: string, ok: boolean): void {
  const box = byId("panel-note");
  box.className = ok ? "ok" : "bad";
  box.textContent = "";
  box.append(icon(ok ? "pass" : "warning"), ` ${text}`);
  box.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => (box.hidden = true), 8000);
}

/** One short paragraph: what Damage Control does here now, and the first thing to do. */
function renderIntro(m: State): void {
  const box = byId("intro");
  box.textContent = "";
  if (m.down) return;
  const f = m.folders[0];
  if (!f) return;
  const what = f.source === "default" ? t("The default rules guard this folder: {0} rules decide each tool call an agent makes (allow, block or ask you).", f.counts.total) : t("Your rules file and the defaults guard this folder: {0} rules decide each tool call an agent makes (allow, block or ask you).", f.counts.total);
  const wired = (m.agents ?? []).some((a) => a.state === "guarding" && !MACHINE_LINE_IDS.has(a.id));
  const next = wired ? t("An agent is wired: its refusals and asks appear in the feed below.") : t("First: wire an agent (Agents, below), or run `node scripts/demo-ask.js` from the Damage Control clone to see an ask.");
  box.append(el("p", { class: "intro" }, icon("shield"), ` ${what} `, el("span", { class: "muted" }, next)));
}

function renderState(m: State): void {
  renderIntro(m);
  const status = byId("status");
  status.textContent = "";
  if (m.down) status.append(el("div", { class: "bad" }, icon("error"), ` ${t("Endpoint down: {0}", m.down)}`));
  else status.append(el("div", { class: "ok" }, icon("pass"), ` ${t("Endpoint {0}", m.endpoint ?? "")}`));
  if (m.managedWarning) status.append(el("div", { class: "bad", id: "managed-warning" }, icon("warning"), ` ${m.managedWarning}`));
  // The agents (VS Code's own first among the guarded), next to (not inside) the endpoint's status.
  renderAgents(byId("agents-status"), m.agents);
  const body = byId<HTMLTableElement>("counts").tBodies[0];
  body.textContent = "";
  for (const f of m.folders) {
    body.append(el("tr", {}, el("th", { colspan: "2", scope: "colgroup" }, f.source === "default" ? t("embedded defaults (no rules file)") : f.file)));
    if (f.broken) {
      const first = f.diagnostics.find((d) => d.severity === "error") ?? f.diagnostics[0];
      body.append(el("tr", { class: "bad" }, el("td", { colspan: "2" }, icon("warning"), ` ${first ? t("Rules file broken (line {0}: {1}): last good rules in force.", first.line + 1, first.message) : t("Rules file broken: last good rules in force.")}`)));
    } else if (f.lost?.length) {
      // A rule that parses but no longer matches what it matched is not "healthy".
      for (const l of f.lost) {
        const open = el("button", { type: "button", class: "link open-lost" }, icon("go-to-file"), ` ${t("Open rule")}`);
        open.addEventListener("click", () => send({ type: "openRules", folder: f.folder, line: l.line }));
        body.append(el("tr", { class: "bad lost-match" }, el("td", { colspan: "2" }, icon("warning"), ` ${t("The rule on line {0} no longer matches {1}, which it matched before the last change.", l.line + 1, l.examples.map((e) => `"${e}"`).join(", "))} `, open)));
      }
    } else {
      body.append(el("tr", { class: "ok" }, el("td", { colspan: "2" }, t("Rules file healthy"))));
    }
    // The counts are the rules in force (every layer together); the editor's headings count the
    // file's own rows: each says which, so the two never read as a contradiction (issue 38).
    body.append(el("tr", { class: "muted counts-what" }, el("td", { colspan: "2" }, f.source === "default" ? t("Rules in force (the defaults):") : t("Rules in force (the defaults and this file together):"))));
    const c = f.counts;
    const rows: [string, string | number][] = [
      ["bash patterns", t("{0} ({1} ask)", c.bashPatterns, c.ask)],
      ["zero-access", c.zeroAccess],
      ["read-only", c.readOnly],
      ["no-delete", c.noDelete],
      ["total", c.total],
    ];
    // data-kind stays the English key (tests and CSS find the cells by it); the label is translated.
    for (const [label, n] of rows) body.append(el("tr", {}, el("td", {}, t(label)), el("td", { class: "num", "data-kind": label }, n)));
  }
  // The user's exceptions ("Allow in this folder" adds one): the file the CLI's `exceptions list` reads.
  body.append(el("tr", { title: m.exceptions.file }, el("td", {}, t("your exceptions")), el("td", { class: "num", "data-kind": "exceptions" }, m.exceptions.count)));
  feed.setExceptionsAvailable(m.exceptionsAvailable);
  editor.setFolders(m.folders.map((f) => f.folder));
}

function renderStats(s: PanelStats): void {
  const box = byId("charts");
  box.textContent = "";
  box.append(
    barChart(t("Refusals per rule"), s.perRule, "chart-rules"),
    barChart(t("Refusals per agent"), s.perAgent, "chart-agents"),
    sparkline(t("Decisions, last hour"), s.lastHour, "spark-hour", t("1 h ago")),
    sparkline(t("Decisions, last day"), s.lastDay, "spark-day", t("24 h ago")),
  );
}

function renderTry(m: TryResult): void {
  // Test a Command (the palette) lands here too: the input shows what was decided.
  byId<HTMLInputElement>("try-input").value = m.input;
  byId("try").scrollIntoView({ block: "start" });
  const out = byId("try-result");
  out.textContent = "";
  out.append(el("div", { class: `decision decision-${m.action}` }, m.action.toUpperCase()));
  if (m.rule) out.append(el("div", {}, t("Rule: {0}", m.rule)));
  if (m.ruleReason) out.append(el("div", { class: "rule-reason" }, t("Why: {0}", m.ruleReason)));
  if (m.match && m.input) out.append(el("div", { class: "match" }, ...marked(m.input, m.match)));
  if (m.reason) out.append(el("div", { class: "muted" }, m.reason));
  editor.highlight(m.ruleRef);
}

window.addEventListener("message", (event: MessageEvent<ToPanel>) => {
  const m = event.data;
  switch (m.type) {
    case "state":
      return renderState(m);
    case "feed":
      return feed.set(m.entries);
    case "decision":
      return feed.add(m.entry);
    case "feedUpdate":
      return feed.update(m.entry);
    case "stats":
      renderStats(m.stats);
      feed.setQuiet(m.quiet);
      return editor.setHits(m.hits);
    case "draft":
      return editor.show(m);
    case "saved":
      return editor.note(m.message, m.ok);
    case "tryResult":
      return renderTry(m);
    case "explained":
      return feed.showExplanation(m.id, m.steps);
    case "note":
      return showNote(m.text, m.ok);
  }
});

tryForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const tool = byId<HTMLSelectElement>("try-tool").value;
  const value = byId<HTMLInputElement>("try-input").value;
  if (value.trim()) send({ type: "try", tool, value, folder: editor.currentFolder });
});

send({ type: "ready" });
