// The one place unbash is imported. unbash is ESM-only while this project type-checks as
// CommonJS (tsconfig module Node16, no "type": "module"): a plain `import { parse } from "unbash"`
// is rejected by tsc (TS1479) although esbuild bundles it fine. Types come through a type-only
// import with resolution-mode "import"; the values through require(), which esbuild resolves to
// the bundled ESM module.
import type * as Unbash from "unbash" with { "resolution-mode": "import" };

export type {
  Command,
  CommandNode,
  CompoundList,
  HereDocBody,
  ParsedScript,
  PipelineNode,
  Redirection,
  Statement,
  SyntaxNode,
  Word,
  WordPart,
} from "unbash" with { "resolution-mode": "import" };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = require("unbash") as typeof Unbash;

export const parse: typeof Unbash.parse = lib.parse;
export const forEachChild: typeof Unbash.forEachChild = lib.forEachChild;
