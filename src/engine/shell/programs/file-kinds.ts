// The file kinds each formatter or fixer rewrites when it is given a folder (issue 27): `black .`
// rewrites the Python files below `.`, never `.claude/settings.json`. A row's folder operand is a
// rewrite of these kinds only (src/engine/kinds.ts judges it against the path rules). A tool that
// also picks files by their content (shfmt reads shebangs) or by plugins (eslint) has no row here:
// its folder stays a rewrite of everything below it.
const PYTHON = ["*.py", "*.pyi"];
const PYTHON_NOTEBOOKS = [...PYTHON, "*.ipynb"];
/** What prettier formats without plugins: JSON is among them, so protected JSON files are reached. */
const PRETTIER = ["*.js", "*.jsx", "*.mjs", "*.cjs", "*.ts", "*.tsx", "*.mts", "*.cts", "*.json", "*.json5", "*.jsonc", "*.css", "*.scss", "*.less", "*.html", "*.htm", "*.vue", "*.md", "*.markdown", "*.mdx", "*.yaml", "*.yml", "*.graphql", "*.gql", "*.hbs", "*.handlebars"];

export const FORMATTER_KINDS = {
  black: PYTHON_NOTEBOOKS,
  ruff: PYTHON_NOTEBOOKS,
  python: PYTHON,
  isort: [...PYTHON, "*.pyx", "*.pxd"],
  go: ["*.go"],
  rust: ["*.rs"],
  terraform: ["*.tf", "*.tfvars", "*.tftest.hcl"],
  prettier: PRETTIER,
  biome: ["*.js", "*.jsx", "*.mjs", "*.cjs", "*.ts", "*.tsx", "*.mts", "*.cts", "*.json", "*.jsonc", "*.css", "*.graphql", "*.gql"],
} as const satisfies Record<string, readonly string[]>;
