// How the layers' `sandbox:` sections combine, with the same trust as the rest of the rules: a
// weaker layer may tighten (a stricter mode, denied hosts); only a layer that may loosen (managed,
// user, an approved workspace file) may switch the sandbox off, keep a read-only entry writable
// for tools, or open a host.
import type { SandboxSection } from "../types";
import type { SandboxMode } from "./policy-types";

const STRICTNESS: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

/** Sections strongest layer first, each with whether its layer may loosen. */
export function mergeSandbox(sections: { section: SandboxSection; trusted: boolean }[]): SandboxSection | undefined {
  if (sections.length === 0) return undefined;
  const out: SandboxSection = {};
  const modes: SandboxMode[] = [];
  const union = (key: "updatedByTools" | "allowedHosts" | "deniedHosts", list: string[] | undefined) => {
    if (!list?.length) return;
    out[key] = [...new Set([...(out[key] ?? []), ...list])];
  };
  for (const { section, trusted } of sections) {
    const s = trusted ? section : sandboxAdditions(section);
    if (s.mode) modes.push(s.mode);
    union("updatedByTools", s.updatedByTools);
    union("allowedHosts", s.allowedHosts);
    union("deniedHosts", s.deniedHosts);
  }
  // The strictest mode any layer asks for: a user's `off` does not undo a managed `required`, and a
  // workspace's `required` holds over a user's `auto`.
  if (modes.length) out.mode = modes.reduce((a, b) => (STRICTNESS[b] > STRICTNESS[a] ? b : a));
  return out;
}

/** What an unapproved layer's section still adds: a mode stricter than the default, denied hosts. */
export function sandboxAdditions(section: SandboxSection): SandboxSection {
  return {
    ...(section.mode === "required" && { mode: section.mode }),
    ...(section.deniedHosts && { deniedHosts: section.deniedHosts }),
  };
}

/** The loosening items of a section (what a user approves, as for `disable:` and `allow:`). */
export function sandboxLooseningItems(section: SandboxSection | undefined): string[] {
  if (!section) return [];
  const items: string[] = [];
  if (section.mode === "off") items.push(`sandbox:mode:${section.mode}`);
  for (const p of section.updatedByTools ?? []) items.push(`sandbox:updatedByTools:${p}`);
  for (const h of section.allowedHosts ?? []) items.push(`sandbox:allowedHosts:${h}`);
  return items;
}
