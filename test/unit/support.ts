// Helpers shared by the unit tests.
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root (tests run from out/test/unit/*.js). */
export const repoRoot = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
})();

/** A file from ../shared when present (the live copy), else the vendored one in test/fixtures. */
export function fixture(rel: string): string {
  const sharedMap: Record<string, string> = { corpus: "../shared/corpus", payloads: "../shared/claude-code/payloads" };
  const [head, ...rest] = rel.split("/");
  const shared = sharedMap[head] ? path.resolve(repoRoot, sharedMap[head], ...rest) : undefined;
  if (shared && fs.existsSync(shared)) return shared;
  return path.join(repoRoot, "test/fixtures", rel);
}

import type { PiAnswer } from "../../src/engine/agents/pi";
import type { Asker } from "../../src/core/asker";
import type { Guard } from "../../src/core/guard";

/** Claude Code's hook payload through guard.handle → the body Claude Code reads. */
export async function claudeBody(g: Guard, payload: unknown, asker?: Asker): Promise<Record<string, unknown>> {
  return (await g.handle("claude", payload, { asker })).body as Record<string, unknown>;
}

/** pi's tool call through guard.handle → {block, reason}. */
export async function piBody(g: Guard, payload: unknown, asker?: Asker): Promise<PiAnswer> {
  return (await g.handle("pi", payload, { asker })).body as PiAnswer;
}
