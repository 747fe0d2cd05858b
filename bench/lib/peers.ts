// The deciders `npm run bench` puts side by side: ours (HTTP hook, command hook), the peer guard
// cc-safety-net (pinned in scripts/test-tools.js, installed by scripts/install-test-tools.js)
// and no guard. What each one's hook command is, and how to call it in-process.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { hookCliJs, modulesDir } from "../../scripts/test-tools.js";

export const CCSN_ID = "cc-safety-net-2.4.5" as const;

/** Shell-quotes one word for a hook `command` string. */
export const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface CommandHook {
  /** Shown in the tables: which program the "damage-control command hook" row measured. */
  label: string;
  /** argv for spawning it directly (the per-call figure). */
  argv: string[];
  /** The same as a Claude Code hook `command` string. */
  command: string;
}

/**
 * The program behind the `damage-control command hook` row. Today: the Node shim
 * (`node dist/cli.js hook claude`). When the sh + curl fast path exists (issue 14: the launcher
 * `<state>/bin/damage-control-hook`), this is the one place to point at it: it is picked up when
 * present in the bench's state folder, and `DC_BENCH_COMMAND_HOOK` (a shell command) overrides
 * both, so another launcher can be measured without editing the bench.
 */
export function commandHook(cli: string, stateDir: string): CommandHook {
  const override = process.env.DC_BENCH_COMMAND_HOOK;
  if (override) return { label: `DC_BENCH_COMMAND_HOOK (${override})`, argv: ["/bin/sh", "-c", override], command: override };
  const launcher = path.join(stateDir, "bin", "damage-control-hook");
  if (fs.existsSync(launcher)) return { label: "sh + curl fast path (damage-control-hook claude)", argv: ["/bin/sh", launcher, "claude"], command: `${sh(launcher)} claude` };
  return { label: "Node shim (node dist/cli.js hook claude)", argv: [process.execPath, cli, "hook", "claude"], command: `${sh(process.execPath)} ${sh(cli)} hook claude` };
}

/**
 * cc-safety-net's documented Claude Code hook: its plugin's hooks/hooks.json registers
 * `node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js" hook --coding-cli` on PreToolUse for
 * every tool. Same command here, with the plugin root = the pinned package and `node` = the Node
 * that runs our own command hook, so both pay the same Node start.
 */
export function ccsnHook(): CommandHook {
  const js = hookCliJs(CCSN_ID);
  return { label: "cc-safety-net 2.4.5 (node cc-safety-net.js hook --coding-cli)", argv: [process.execPath, js, "hook", "--coding-cli"], command: `${sh(process.execPath)} ${sh(js)} hook --coding-cli` };
}

export function ccsnSettings(): object {
  return { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: ccsnHook().command }] }] } };
}

export type CcsnCheck = (input: { command: string; cwd: string }) => { kind: string; reason?: string };

/** cc-safety-net's library API (`checkCommand` from `cc-safety-net/api`, ESM), loaded at run time. */
export async function loadCcsn(): Promise<CcsnCheck> {
  const api = path.join(modulesDir(CCSN_ID), "cc-safety-net", "dist", "api.js");
  // A variable specifier: esbuild leaves the import() to Node, which loads the ESM file.
  const spec = pathToFileURL(api).href;
  const mod = (await import(spec)) as { checkCommand: CcsnCheck };
  return mod.checkCommand;
}
