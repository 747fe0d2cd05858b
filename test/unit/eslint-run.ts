// The repository's ESLint (its eslint.config.mjs) run on a text as if it were a file of src/:
// the lint tests state what the config refuses without writing into the tree.
import * as path from "node:path";
import { repoRoot } from "./support";

interface LintMessage {
  ruleId: string | null;
  message: string;
}
interface ESLintApi {
  lintText(text: string, opts: { filePath: string }): Promise<{ messages: LintMessage[] }[]>;
}
// ESLint from the repository's node_modules at run time (a computed path: esbuild leaves it out of the bundle).
const eslintModule = path.join(repoRoot, "node_modules", "eslint");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ESLint } = require(eslintModule) as { ESLint: new (o: { cwd: string }) => ESLintApi };
const eslint = new ESLint({ cwd: repoRoot });

/** status 1 when the text has a lint error (as the CLI exits), else 0; `out` lists the messages. */
export async function lint(filePath: string, text: string): Promise<{ status: number; out: string }> {
  const [result] = await eslint.lintText(text, { filePath: path.join(repoRoot, filePath) });
  return { status: result.messages.length > 0 ? 1 : 0, out: result.messages.map((m) => `${m.ruleId}: ${m.message}`).join("\n") };
}
