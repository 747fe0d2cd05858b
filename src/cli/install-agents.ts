// damage-control install|uninstall codex|gemini [--cwd DIR] [--user] (issue 18).
import * as path from "node:path";
import { CodexConfigError, installCodex, uninstallCodex } from "../install/codex";
import { geminiSettingsFile, installGemini, uninstallGemini } from "../install/gemini";
import { lookupEndpoint } from "../core/registry";
import { geminiLoadsProjectSettings } from "../install/doctor-agents";
import { args, CliError, EXIT } from "./io";
import { selfHookCommand } from "./self-command";
import { runQwenInstall } from "./install-qwen";
import { runOpenCodeInstall } from "./install-opencode";
import { runClineInstall } from "./install-cline";

export const AGENT_INSTALL_HELP = `       damage-control install codex [--cwd DIR] [--user]
       damage-control install gemini [--cwd DIR] [--user]
       damage-control install qwen
       damage-control install opencode [--cwd DIR]
       damage-control install cline [--cwd DIR]
       damage-control uninstall codex | gemini | qwen | opencode | cline [--cwd DIR] [--user]

install codex   appends one delimited block to ~/.codex/config.toml ($CODEX_HOME): a PreToolUse
                command hook (damage-control hook codex) for every tool and a PostToolUse one
                (what the sandbox's kernel refused, for the feed; it never refuses), each with
                the hooks.state trust entry Codex needs before it runs any unmanaged hook. User-level always:
                Codex skips project .codex/ hooks in folders it does not trust, and skips
                untrusted hooks silently; the hook finds the endpoint guarding each call's cwd.
                Refuses (exit 3, saying why) when the TOML defines hooks in a form the block
                would collide with. The rest of the file is never rewritten.
install gemini  adds a BeforeTool command hook (damage-control hook gemini, matcher ".*") and an
                AfterTool one for shell calls (what the sandbox's kernel refused, for the feed;
                it never refuses) to DIR/.gemini/settings.json, or ~/.gemini/settings.json with --user.
install qwen    adds a PreToolUse command hook (the launcher, matcher "*") to ~/.qwen/settings.json.
                User-level always: Qwen Code loads project hooks only in a trusted folder.
install opencode
                writes the plugin ~/.config/opencode/plugins/damage-control.js (with --cwd DIR:
                DIR/.opencode/plugins/): its tool.execute.before runs the launcher and refuses
                on a deny and on any failure (bounded: OpenCode sets no hook timeout).
install cline   writes the executable hook ~/.cline/hooks/PreToolUse ($CLINE_DIR/hooks; with
                --cwd DIR: DIR/.clinerules/hooks/): it runs the launcher for every tool call. A
                refused run_commands call is replaced by a command that prints our reason (the
                model reads it, the task goes on); any other refused tool ends Cline's task.
                Refuses (exit 3) to replace a PreToolUse of your own; other hook files are kept.
                Cline reads its hooks when a session starts: restart running sessions and
                stop its hub daemon once (cline hub stop).`;

export function isAgentInstall(agent: string | undefined): boolean {
  return agent === "codex" || agent === "gemini" || agent === "qwen" || agent === "opencode" || agent === "cline";
}

export function runAgentInstall(argv: string[], verb: "install" | "uninstall"): number {
  const uninstall = verb === "uninstall";
  const { values, positionals } = args(argv, { cwd: { type: "string" }, user: { type: "boolean" } }, true);
  const agent = positionals[0];
  const folder = path.resolve(values.cwd ?? process.cwd());
  if (agent === "qwen") return runQwenInstall(folder, uninstall);
  if (agent === "opencode") return runOpenCodeInstall(values.cwd, uninstall);
  if (agent === "cline") return runClineInstall(values.cwd, uninstall);
  if (agent === "codex") {
    try {
      if (uninstall) {
        const r = uninstallCodex();
        process.stdout.write(r.removed ? `removed the Damage Control block from ${r.file}\n` : `no Damage Control block in ${r.file}\n`);
        return EXIT.ok;
      }
      const r = installCodex(selfHookCommand("codex"));
      process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: PreToolUse command hook for every tool, trusted for Codex (group ${r.group}); user-level, so it guards ${folder} and every other folder\n`);
    } catch (e) {
      if (e instanceof CodexConfigError) throw new CliError(e.message, EXIT.io);
      throw e;
    }
  } else {
    const file = geminiSettingsFile({ folder, user: values.user === true });
    if (uninstall) {
      const r = uninstallGemini(file);
      process.stdout.write(r.removed ? `removed ${r.removed} hook(s) from ${r.file}\n` : `no Damage Control hooks in ${r.file}\n`);
      return EXIT.ok;
    }
    let r;
    try {
      r = installGemini(file, selfHookCommand("gemini"));
    } catch (e) {
      throw new CliError((e as Error).message, EXIT.io);
    }
    process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: BeforeTool command hook for every tool, AfterTool for shell calls\n`);
    const trust = values.user ? { loads: true } : geminiLoadsProjectSettings(folder, process.env);
    if (!trust.loads) process.stderr.write(`warning: ${trust.why}\n`);
  }
  if (!uninstall && !lookupEndpoint(folder)) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\` (until then the hook decides locally).\n`);
  return EXIT.ok;
}
