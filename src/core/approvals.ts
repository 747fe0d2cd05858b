// Approvals of workspace rules files that remove or loosen something (disable:, allow:).
// Kept outside the workspace, in the user's state folder (zero-access for agents), keyed by the
// file's content hash. A later content is still approved when everything it loosens was approved
// before (a change that only tightens needs no new approval).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { coveredBy } from "../engine/rules/layers";
import { ensurePrivateDir, userStateDir, writeFileAtomic } from "./state-dir";

export interface Approval {
  /** Short stable id for `damage-control exceptions revoke ID`. */
  id: string;
  /** Absolute path of the workspace rules file. */
  file: string;
  /** sha256 of the approved content. */
  hash: string;
  /** The loosening items approved (looseningItems of the content). */
  items: string[];
  approvedAt: string;
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function approvalsFile(stateDir = userStateDir()): string {
  return path.join(stateDir, "approvals.json");
}

export function readApprovals(stateDir = userStateDir()): Approval[] {
  try {
    const data = JSON.parse(fs.readFileSync(approvalsFile(stateDir), "utf8")) as { approvals?: unknown };
    return Array.isArray(data.approvals) ? (data.approvals as Approval[]).filter((a) => a && typeof a.file === "string" && typeof a.hash === "string" && Array.isArray(a.items)) : [];
  } catch {
    return [];
  }
}

function writeApprovals(list: Approval[], stateDir: string): void {
  ensurePrivateDir(stateDir);
  writeFileAtomic(approvalsFile(stateDir), JSON.stringify({ approvals: list }, null, 2) + "\n", 0o600);
}

/** Is this content of `file` approved: its exact hash, or its loosening covered by the latest approval of the file? */
export function isApproved(file: string, text: string, items: string[], stateDir = userStateDir()): boolean {
  if (items.length === 0) return true;
  const hash = contentHash(text);
  const mine = readApprovals(stateDir).filter((a) => a.file === file);
  if (mine.some((a) => a.hash === hash)) return true;
  const latest = mine[mine.length - 1];
  return latest !== undefined && coveredBy(items, latest.items);
}

/** Records the user's approval of this exact content (replacing earlier approvals of the file). */
export function approve(file: string, text: string, items: string[], stateDir = userStateDir()): Approval {
  const hash = contentHash(text);
  const approval: Approval = { id: "a-" + hash.slice(0, 8), file, hash, items, approvedAt: new Date().toISOString() };
  writeApprovals([...readApprovals(stateDir).filter((a) => a.file !== file), approval], stateDir);
  return approval;
}

/** Removes an approval by id; true when there was one. */
export function revokeApproval(id: string, stateDir = userStateDir()): boolean {
  const list = readApprovals(stateDir);
  const kept = list.filter((a) => a.id !== id);
  if (kept.length === list.length) return false;
  writeApprovals(kept, stateDir);
  return true;
}
