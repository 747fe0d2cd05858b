// Lock files and the package-manager commands that write them again (issue 36). A lock file is
// read-only to hand edits (`sandbox.updatedByTools` lets its tool rewrite it); deleting it and
// running its tool in the same call (`rm -f package-lock.json && npm install`) regenerates it, and
// a snapshot of the old one is kept first. Deleted without its tool, the pins are simply gone.
// DATA: lock file name → the commands (program and first word) that write it.

const LOCK_TOOLS: Record<string, RegExp> = {
  "package-lock.json": /^npm (install|i|ci|update|up|dedupe)\b/,
  "npm-shrinkwrap.json": /^npm (install|i|update|up|shrinkwrap)\b/,
  "yarn.lock": /^yarn( (install|add|up|upgrade|remove))?( |$)/,
  "pnpm-lock.yaml": /^pnpm (install|i|add|update|up|remove)\b/,
  "bun.lock": /^bun (install|i|add|update|remove)\b/,
  "bun.lockb": /^bun (install|i|add|update|remove)\b/,
  "uv.lock": /^uv (lock|sync|add|remove)\b/,
  "poetry.lock": /^poetry (lock|install|update|add|remove)\b/,
  "Cargo.lock": /^cargo (generate-lockfile|update|build|check|test|run|fetch)\b/,
  "Gemfile.lock": /^bundle( (install|update|lock))?( |$)/,
  "go.sum": /^go (mod (tidy|download)|get|build|test)\b/,
  "composer.lock": /^composer (install|update|require|remove)\b/,
};

/** The lock file names written again by a command of this line (the executed commands' texts). */
export function locksRegenerated(commands: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const [lock, tool] of Object.entries(LOCK_TOOLS)) if (commands.some((c) => tool.test(c))) out.add(lock);
  return out;
}
