// Where things are, from code that esbuild has bundled into out/ (so __dirname is somewhere under out/).
import * as fs from "node:fs";
import * as path from "node:path";

/** The clone's root: the nearest ancestor of this file whose package.json is named "damage-control". */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "damage-control") return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`repoRoot: no damage-control package.json above ${__dirname}`);
    dir = up;
  }
}

/** `<repo>/test-results/<sub>` (gitignored), created on demand. */
export function resultsDir(sub = ""): string {
  const dir = path.join(repoRoot(), "test-results", sub);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The extension's id as VS Code knows it: `<publisher>.<name>` from package.json. */
export function extensionId(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8"));
  return `${pkg.publisher}.${pkg.name}`;
}
