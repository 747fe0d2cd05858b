// The webview's strings go through t(), like vscode.l10n.t on the extension side: the extension
// puts its loaded bundle (vscode.l10n.bundle: translations of the display language, none for
// English) into <body data-l10n>, and t() looks each message up there, then fills {0}, {1}, ….
const bundle: Record<string, string> = (() => {
  try {
    const parsed: unknown = JSON.parse(document.body.dataset.l10n || "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
})();

export function t(message: string, ...args: (string | number)[]): string {
  const text = typeof bundle[message] === "string" ? bundle[message] : message;
  return text.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : whole));
}
