// The translator the vscode-free parts of the views take (settings-scope.ts, panel/rules-draft.ts,
// which unit tests and the webview bundle import): the extension passes vscode.l10n.t in; without
// it the English text, with {0}, {1}, … filled like vscode.l10n.t fills them.

/** vscode.l10n.t's shape. */
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** The English fallback: fills {0}, {1}, … like vscode.l10n.t (an unmatched {n} stays as written). */
export const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
