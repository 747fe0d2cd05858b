// Local ESLint rule: no module may reach itself through its imports, type-only imports included.
// The maintained rules (eslint-plugin-import's and eslint-plugin-import-x's no-cycle) skip
// `import type` unconditionally; a type-only circle still ties two modules into one unit that can
// only be understood, moved or tested together, so it counts here.
//
// Each file's imports are read from TypeScript's own parse of it (import, export … from,
// import type, import("…") type queries, require), relative specifiers resolved to .ts files;
// bare specifiers (node:, packages) are leaves. The linted file's edges come from the
// text being linted, every other file's from disk (cached by mtime).
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** @type {Map<string, { mtimeMs: number, deps: string[] }>} */
const onDisk = new Map();

function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, path.join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every module specifier `text` names: import/export … from, import x = require, import("…") (types too), require("…"). */
function specifiersOf(text) {
  const source = ts.createSourceFile("linted.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const literal = (n) => (n && ts.isStringLiteralLike(n) ? found.push(n.text) : undefined);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) literal(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The local .ts files `text` (the content of `file`) imports, each with the specifier as written. */
function importsOf(file, text) {
  return specifiersOf(text).flatMap((specifier) => {
    const to = resolve(file, specifier);
    return to ? [{ to, specifier }] : [];
  });
}

function depsOnDisk(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const known = onDisk.get(file);
  if (known && known.mtimeMs === stat.mtimeMs) return known.deps;
  const deps = importsOf(file, fs.readFileSync(file, "utf8")).map((d) => d.to);
  onDisk.set(file, { mtimeMs: stat.mtimeMs, deps });
  return deps;
}

/** A shortest chain of files from `start` back to `target` (start first, target excluded), or undefined. */
function pathBack(start, target, depsOf) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of depsOf(file)) {
      if (next === target) {
        const chain = [];
        for (let f = file; f !== undefined; f = cameFrom.get(f)) chain.unshift(f);
        return chain;
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "no module reaches itself through its imports (type-only imports count)" },
    schema: [],
    messages: {
      cycle: "import circle: {{chain}}. Type-only imports count: move what both sides need into a module both import.",
    },
  },
  create(context) {
    const self = path.resolve(context.filename);
    const root = context.cwd;
    // The linted file as written now (it may differ from disk, e.g. in an editor or lintText).
    const depsOf = (file) => (file === self ? importsOf(self, context.sourceCode.text).map((d) => d.to) : depsOnDisk(file));
    const show = (file) => path.relative(root, file);
    return {
      Program(node) {
        const seen = new Set();
        for (const { to, specifier } of importsOf(self, context.sourceCode.text)) {
          if (to === self || seen.has(to)) continue;
          seen.add(to);
          const chain = pathBack(to, self, depsOf);
          if (!chain) continue;
          const where = node.body.find((s) => s.source?.value === specifier) ?? node;
          context.report({ node: where, messageId: "cycle", data: { chain: [self, ...chain, self].map(show).join(" → ") } });
        }
      },
    };
  },
};
