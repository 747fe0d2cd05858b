// The ask modal's title, without `vscode` so it can be tested in plain Node: who wants what, the
// rule's reason, and that a human decides — said once, even when the reason already says it.

/** vscode.l10n.t's shape: a message with {0}, {1}… placeholders. */
export type Translate = (message: string, ...args: string[]) => string;

export function composeAskTitle(t: Translate, agent: string, tool: string, reason: string): string {
  const what = tool.toLowerCase() === "bash" ? t("run a command") : t("use {0}", tool);
  const decides = t("a human decides");
  const head = reason ? t("{0} wants to {1}: {2}", agent, what, reason) : t("{0} wants to {1}", agent, what);
  // A rule's own reason may end with the phrase ("…, so a human decides"): not twice.
  return reason.toLowerCase().includes(decides.toLowerCase()) ? head : `${head} — ${decides}`;
}
