// Temp folders for e2e runs. Everything lives under one folder per test process, removed at
// exit, so a failed run leaves nothing behind, unless DC_E2E_KEEP=1 asks to keep it for
// debugging (the path is then printed).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

let root: string | undefined;

export const keepTemp = process.env.DC_E2E_KEEP === "1";

/** The per-process root, created on first use. realpath: macOS /tmp is a symlink and agents report real paths. */
export function e2eRoot(): string {
  if (!root) {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dc-e2e-")));
    const created = root;
    process.on("exit", () => {
      if (keepTemp) process.stderr.write(`[e2e] kept temp files in ${created}\n`);
      else fs.rmSync(created, { recursive: true, force: true });
    });
  }
  return root;
}

/** A fresh folder under the e2e root. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(e2eRoot(), `${prefix}-`));
}

/** Remove a folder made by tempDir now (unless DC_E2E_KEEP=1). */
export function removeTemp(dir: string): void {
  if (!keepTemp) fs.rmSync(dir, { recursive: true, force: true });
}
