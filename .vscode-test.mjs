// `npm run test:electron`: the same extension host tests (out/test/vscode/host/*.test.js) in a
// desktop VS Code that @vscode/test-cli downloads. For machines with internet access only; the
// `vscode` tier of `npm test` runs them in code-server instead (scripts/run-vscode-tests.js).
// DC_VSCODE_VERSION picks the VS Code build: "stable" (default), "insiders" or e.g. "1.90.0"
// (the lowest our engines.vscode allows).
import { defineConfig } from "@vscode/test-cli";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const workspace = path.join(os.tmpdir(), "dc-electron-workspace");
fs.mkdirSync(workspace, { recursive: true });

export default defineConfig({
  label: "extension-host",
  files: "out/test/vscode/host/**/*.test.js",
  version: process.env.DC_VSCODE_VERSION || "stable",
  extensionDevelopmentPath: import.meta.dirname,
  workspaceFolder: workspace,
  launchArgs: ["--disable-extensions", "--disable-workspace-trust", "--skip-welcome", "--skip-release-notes"],
  mocha: { ui: "tdd", timeout: 30_000 },
});
