// Damage Control panel. Talks to the extension only through postMessage (src/views/panel/messages.ts).
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  let currentFolder = "";
  let lintTimer = 0;
  /** The textarea holds edits that are not saved yet. */
  let dirty = false;

  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  };

  function renderState(m) {
    const status = $("status");
    status.textContent = "";
    if (m.down) status.append(el("div", { class: "bad" }, el("span", { class: "codicon codicon-error" }), ` Endpoint down: ${m.down}`));
    else status.append(el("div", { class: "ok" }, el("span", { class: "codicon codicon-pass" }), ` Endpoint ${m.endpoint}`));
    if (m.managedWarning) status.append(el("div", { class: "bad", id: "managed-warning" }, el("span", { class: "codicon codicon-warning" }), ` ${m.managedWarning}`));
    const body = /** @type {HTMLTableElement} */ ($("counts")).tBodies[0];
    body.textContent = "";
    for (const f of m.folders) {
      const head = f.source === "default" ? "embedded defaults (no rules file)" : f.file;
      body.append(el("tr", {}, el("th", { colspan: "2", scope: "colgroup" }, head)));
      if (f.broken) {
        const first = f.diagnostics.find((d) => d.severity === "error") || f.diagnostics[0];
        body.append(
          el("tr", { class: "bad" }, el("td", { colspan: "2" }, el("span", { class: "codicon codicon-warning" }), ` Rules file broken${first ? ` (line ${first.line + 1}: ${first.message})` : ""}: last good rules in force.`)),
        );
      } else {
        body.append(el("tr", { class: "ok" }, el("td", { colspan: "2" }, "Rules file healthy")));
      }
      const c = f.counts;
      for (const [label, n] of [
        ["bash patterns", `${c.bashPatterns} (${c.ask} ask)`],
        ["zero-access", c.zeroAccess],
        ["read-only", c.readOnly],
        ["no-delete", c.noDelete],
        ["total", c.total],
      ]) {
        body.append(el("tr", {}, el("td", {}, label), el("td", { class: "num", "data-kind": label }, n)));
      }
    }
    const select = document.querySelector("#editor-folder");
    if (!currentFolder && m.folders[0]) currentFolder = m.folders[0].folder;
    void select;
  }

  /**
   * Fix: a call whose ask timed out (or whose dialog was dismissed) was listed as "denied-by-user",
   * as if the developer had clicked Deny. The ledger keeps one outcome for all of them; the reason
   * (written by src/views/ask-queue.ts) says which it was, so the feed says it too.
   */
  function outcomeText(e) {
    if (e.outcome === "denied-by-user" && e.reason) {
      if (/\(timed out\)/.test(e.reason)) return "timed out: denied";
      if (/dismissed the dialog/.test(e.reason)) return "dialog dismissed: denied";
      if (/already denied this same call/.test(e.reason)) return "denied again (same call)";
    }
    return e.outcome;
  }

  function feedItem(e) {
    const icon = e.outcome === "allowed-by-user" ? "pass" : e.outcome === "block" ? "circle-slash" : "question";
    const when = new Date(e.time).toLocaleTimeString();
    return el(
      "li",
      { class: `feed-${e.outcome}`, tabindex: "0", ...(e.reason && { title: e.reason }) },
      el("span", { class: `codicon codicon-${icon}`, "aria-hidden": "true" }),
      el("span", { class: "time" }, when),
      " ",
      el("strong", {}, e.agent === "claude" ? "Claude Code" : e.agent),
      ` ${e.tool} `,
      el("code", {}, e.target),
      el("div", { class: "muted" }, `${outcomeText(e)}${e.rule ? ` · rule ${e.rule}` : ""}`),
    );
  }

  function renderFeed(entries) {
    const list = $("feed");
    list.textContent = "";
    for (const e of entries) list.append(feedItem(e));
    $("feed-empty").hidden = entries.length > 0;
  }

  function renderDiagnostics(ds) {
    const list = $("editor-diagnostics");
    list.textContent = "";
    for (const d of ds) {
      const item = el("li", { class: d.severity, tabindex: "0", role: "button", title: "Go to this line" }, el("span", { class: `codicon codicon-${d.severity === "error" ? "error" : "warning"}` }), ` ${d.line + 1}:${d.character + 1} ${d.message}`);
      item.addEventListener("click", () => goToLine(d.line, d.character));
      item.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") goToLine(d.line, d.character);
      });
      list.append(item);
    }
  }

  function goToLine(line, character) {
    const ta = /** @type {HTMLTextAreaElement} */ ($("editor"));
    const lines = ta.value.split("\n");
    let offset = 0;
    for (let i = 0; i < line && i < lines.length; i++) offset += lines[i].length + 1;
    ta.focus();
    ta.setSelectionRange(offset + character, offset + (lines[line] || "").length);
  }

  function renderTry(m) {
    const out = $("try-result");
    out.textContent = "";
    out.append(el("div", { class: `decision decision-${m.action}` }, m.action.toUpperCase()));
    if (m.rule) out.append(el("div", {}, `Rule: ${m.rule}`));
    if (m.match && m.input) {
      const pre = el("div", { class: "match" });
      pre.append(m.input.slice(0, m.match.start), el("mark", {}, m.input.slice(m.match.start, m.match.end)), m.input.slice(m.match.end));
      out.append(pre);
    }
    if (m.reason) out.append(el("div", { class: "muted" }, m.reason));
  }

  window.addEventListener("message", (event) => {
    const m = event.data;
    switch (m.type) {
      case "state":
        renderState(m);
        break;
      case "feed":
        renderFeed(m.entries);
        break;
      case "decision": {
        $("feed").prepend(feedItem(m.entry));
        $("feed-empty").hidden = true;
        break;
      }
      case "rulesText": {
        const editor = /** @type {HTMLTextAreaElement} */ ($("editor"));
        if (m.changedOnDisk) {
          // The file changed outside the panel: follow it, unless that would throw away edits.
          if (currentFolder && m.folder !== currentFolder) break;
          if (m.text === editor.value) {
            dirty = false;
            break;
          }
          if (dirty) {
            $("save-result").textContent = "The rules file changed on disk. Saving here would overwrite that change.";
            $("save-result").className = "bad";
            break;
          }
        }
        currentFolder = m.folder;
        dirty = false;
        $("editor-file").textContent = m.exists ? m.file : `${m.file} (does not exist yet: the embedded defaults are in force)`;
        editor.value = m.text;
        vscode.postMessage({ type: "lint", text: m.text });
        break;
      }
      case "lintResult":
        renderDiagnostics(m.diagnostics);
        break;
      case "saved":
        $("save-result").textContent = m.message;
        $("save-result").className = m.ok ? "ok" : "bad";
        break;
      case "tryResult":
        renderTry(m);
        break;
    }
  });

  $("editor").addEventListener("input", () => {
    dirty = true;
    clearTimeout(lintTimer);
    lintTimer = setTimeout(() => vscode.postMessage({ type: "lint", text: /** @type {HTMLTextAreaElement} */ ($("editor")).value }), 200);
  });
  $("save").addEventListener("click", () => vscode.postMessage({ type: "save", folder: currentFolder, text: /** @type {HTMLTextAreaElement} */ ($("editor")).value }));
  $("open").addEventListener("click", () => vscode.postMessage({ type: "openRules", folder: currentFolder }));
  $("try-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const tool = /** @type {HTMLSelectElement} */ ($("try-tool")).value;
    const value = /** @type {HTMLInputElement} */ ($("try-input")).value;
    if (value.trim()) vscode.postMessage({ type: "try", tool, value, folder: currentFolder });
  });

  vscode.postMessage({ type: "ready" });
})();
