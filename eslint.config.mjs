// ESLint (flat config) with typescript-eslint, run by `npm test` before the tiers.
// The layer rule: imports point down only.
//
//   engine   pure: imports nothing above it, no I/O (node:path's posix helpers only), no vscode
//   core     the engine only (+ Node): no adapter, no vscode, no HTTP (its one endpoint client aside)
//   adapters hookserver/, install/, pi/ use core and engine; cli/ and views/ may also host the
//            endpoint (hookserver/) and the installers (install/); no adapter imports cli/, views/
//            or pi/ of another, so no two folders depend on each other
// And inside a folder no circles: no module reaches itself through its imports, type-only ones
// included (eslint-rules/no-import-cycle.mjs).
import tseslint from "typescript-eslint";
import { noImportCycle } from "./eslint-rules/no-import-cycle.mjs";

const ADAPTERS = ["hookserver", "install", "pi", "cli", "views", "webview"];

/** An upward relative import into one of `folders` (e.g. "../core/guard", "../../views/x"). */
const into = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join("|")})(/|$)`, message });

const layer = (patterns, paths = []) => ({
  "no-restricted-imports": ["error", { paths, patterns }],
});

const VSCODE = { name: "vscode", message: "only views/ and extension.ts talk to VS Code" };

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "node_modules/**", ".vscode-test/**", "media/**", "test-results/**"] },
  {
    files: ["src/**/*.ts"],
    extends: [tseslint.configs.recommended],
    plugins: { local: { rules: { "no-import-cycle": noImportCycle } } },
    rules: {
      "local/no-import-cycle": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/engine/**/*.ts"],
    rules: layer(
      [
        into(["core", ...ADAPTERS], "the engine is pure: it imports nothing from core/ or the adapters"),
        { regex: "^node:(?!path$)", message: "the engine is pure: no I/O (node:path's posix helpers only)" },
        { regex: "^(fs|os|http|https|net|child_process|worker_threads)$", message: "the engine is pure: no I/O" },
      ],
      [VSCODE],
    ),
  },
  {
    files: ["src/core/**/*.ts"],
    ignores: ["src/core/endpoint-client.ts"],
    rules: layer(
      [
        into(ADAPTERS, "core/ imports only the engine: adapters sit on top of it"),
        { regex: "^node:(http|https|net)$", message: "core/ has no HTTP (the endpoint is hookserver/; the client is core/endpoint-client.ts)" },
      ],
      [VSCODE],
    ),
  },
  {
    files: ["src/core/endpoint-client.ts"],
    rules: layer([into(ADAPTERS, "core/ imports only the engine: adapters sit on top of it")], [VSCODE]),
  },
  {
    files: ["src/hookserver/**/*.ts", "src/install/**/*.ts", "src/pi/**/*.ts"],
    rules: layer([into(ADAPTERS, "an adapter uses core/ and the engine, not another adapter")], [VSCODE]),
  },
  {
    files: ["src/cli/**/*.ts"],
    rules: layer([into(["pi", "views", "webview"], "the CLI uses core/ (and hosts hookserver/, install/), never another adapter")], [VSCODE]),
  },
  {
    files: ["src/views/**/*.ts"],
    rules: layer([into(["cli", "pi"], "views/ use core/ (and host hookserver/, install/), never the CLI or pi")]),
  },
);
