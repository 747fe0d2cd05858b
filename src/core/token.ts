// The bearer token every request to the endpoint must carry. Random, stored with user-only
// permissions, never logged. One per user: every window's endpoint accepts it, and the
// integrated terminals export it as DAMAGE_CONTROL_TOKEN.
import { randomBytes, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensurePrivateDir, userStateDir, writeFileAtomic } from "./state-dir";

export function tokenFile(stateDir = userStateDir()): string {
  return path.join(stateDir, "token");
}

/** Reads the token, creating it on first use. */
export function loadOrCreateToken(stateDir = userStateDir()): string {
  const file = tokenFile(stateDir);
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) {
      // Tighten permissions if someone loosened them.
      if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
      return existing;
    }
  } catch {
    /* first use */
  }
  ensurePrivateDir(stateDir);
  const token = randomBytes(32).toString("base64url");
  writeFileAtomic(file, token + "\n", 0o600);
  return token;
}

export function readToken(stateDir = userStateDir()): string | undefined {
  try {
    return fs.readFileSync(tokenFile(stateDir), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Constant-time comparison of an Authorization header against the token. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
