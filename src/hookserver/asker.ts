// Asking a human. The VS Code adapter shows a modal; headless `serve` has nobody to ask,
// so its ask is a refusal that says so.

export interface AskRequest {
  agent: "claude" | "pi";
  tool: string;
  /** The command, or the path, the call is about. */
  target: string;
  /** The workspace folder the call is in. */
  folder: string;
  /** The rule's reason, as the engine wrote it for the model. */
  reason: string;
  /** The rule as written (pattern or path), when there is one. */
  rule?: string;
  sessionId?: string;
  /** The bash command, when a bash pattern asks: then "Always allow in this folder" can write an exception for it. */
  command?: string;
}

export interface AskResult {
  approved: boolean;
  /** Why it was not approved (user denied, timed out, nobody could confirm…). */
  why: string;
  /** The user chose "Always allow in this folder": write the narrowest exception to the user layer. */
  always?: boolean;
}

export interface Asker {
  ask(request: AskRequest): Promise<AskResult>;
}

export const headlessAsker: Asker = {
  async ask() {
    return { approved: false, why: "nobody could confirm it (Damage Control runs without an interactive approval surface)" };
  },
};
