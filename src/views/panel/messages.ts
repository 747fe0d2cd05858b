// Typed messages between the extension and the panel webview (media/panel.js speaks the same).

export interface PanelDiagnostic {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  severity: "error" | "warning" | "information";
  message: string;
}

export interface PanelFolder {
  folder: string;
  file: string;
  source: "file" | "default" | "last-good";
  broken: boolean;
  counts: { total: number; bashPatterns: number; ask: number; zeroAccess: number; readOnly: number; noDelete: number };
  diagnostics: PanelDiagnostic[];
}

export interface FeedEntry {
  time: string;
  agent: string;
  tool: string;
  target: string;
  rule?: string;
  /** block, denied-by-user, allowed-by-user, ask */
  outcome: string;
  reason?: string;
}

export type ToPanel =
  | {
      type: "state";
      folders: PanelFolder[];
      endpoint: string | null;
      down: string | null;
      refusals: number;
      /** Managed settings switch our project hooks off (allowManagedHooksOnly), said in one line. */
      managedWarning?: string | null;
    }
  | { type: "feed"; entries: FeedEntry[] }
  | { type: "decision"; entry: FeedEntry }
  /** `changedOnDisk`: sent because the file changed outside the panel (the panel keeps unsaved edits). */
  | { type: "rulesText"; folder: string; file: string; text: string; exists: boolean; changedOnDisk?: boolean }
  | { type: "lintResult"; diagnostics: PanelDiagnostic[] }
  | { type: "saved"; ok: boolean; message: string }
  | { type: "tryResult"; action: string; rule: string | null; reason: string; match: { start: number; end: number; text: string } | null; input: string };

export type FromPanel =
  | { type: "ready" }
  | { type: "lint"; text: string }
  | { type: "save"; folder: string; text: string }
  | { type: "openRules"; folder: string }
  | { type: "loadRules"; folder: string }
  | { type: "try"; tool: string; value: string; folder: string };

/** Checks a message from the webview before it is trusted with anything. */
export function isFromPanel(m: unknown): m is FromPanel {
  if (typeof m !== "object" || m === null) return false;
  const x = m as Record<string, unknown>;
  const str = (k: string) => typeof x[k] === "string";
  switch (x.type) {
    case "ready":
      return true;
    case "lint":
      return str("text");
    case "save":
      return str("folder") && str("text");
    case "openRules":
    case "loadRules":
      return str("folder");
    case "try":
      return str("tool") && str("value") && str("folder");
    default:
      return false;
  }
}
