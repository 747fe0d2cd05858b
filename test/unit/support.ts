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
