// The panel's agent health lines (built on the extension side, src/views/panel/agent-health.ts):
// a warning per agent that is set up but not guarded, with the command that fixes it (Copy) or a
// button where the extension can do it; a quiet line per guarded agent; one line for the rest.
import type { AgentLine } from "../views/panel/messages";
import { el, icon, send } from "./dom";
import { t } from "./l10n";

const ICON: Record<AgentLine["state"], string> = { guarding: "pass", "not-guarding": "warning", "not-installed": "circle-slash" };

function lineOf(a: AgentLine): HTMLElement {
  // Anything the doctor does not call ok is a warning (VS Code's agent unguarded included); the
  // agents not set up are quiet.
  // Not set up is a to-do, not an alarm: quiet, with its button or command; red only for an agent
  // that is set up and still not guarded.
  const ok = a.status === "ok" || a.state === "not-installed";
  const cls = !ok ? "bad" : a.state === "not-installed" ? "muted" : "ok";
  // VS Code's agent keeps the id it always had (#vscode-agent); the others are #<check id>-agent.
  const line = el("div", { class: `agent-line ${cls}`, id: `${a.id}-agent`, "data-status": a.status, "data-state": a.state, title: a.detail }, icon(ok ? ICON[a.state] : "warning"), ` ${a.text}`);
  if (a.fix) {
    const copy = el("button", { type: "button", class: "copy-fix", title: t("Copy the command") }, t("Copy"));
    copy.addEventListener("click", () => send({ type: "copy", text: a.fix! }));
    line.append(el("div", { class: "fix" }, t("Fix: "), el("code", {}, a.fix), " ", copy));
  }
  if (a.action === "guardVsCodeAgent") {
    const button = el("button", { id: "guard-vscode-agent", type: "button" }, t("Guard VS Code's Agent"));
    button.addEventListener("click", () => send({ type: "guardVsCodeAgent" }));
    line.append(" ", button);
  }
  return line;
}

export function renderAgents(box: HTMLElement, lines: readonly AgentLine[] | undefined): void {
  box.textContent = "";
  for (const a of lines ?? []) box.append(lineOf(a));
}
