// damage-control install|uninstall claude|pi: wire an agent to the guard.
import * as fs from "node:fs";
import * as path from "node:path";
import { lookupEndpoint, preferredPort } from "../hookserver/registry";
import { installClaude, uninstallClaude } from "../install/claude";
import { installPi, uninstallPi } from "../install/pi";
import { args, CliError, EXIT } from "./io";

export const INSTALL_HELP = `Usage: damage-control install claude [--cwd DIR] [--claude-version V]
       damage-control install pi
       damage-control uninstall claude [--cwd DIR]
       damage-control uninstall pi

install claude  writes Damage Control's hooks into DIR/.claude/settings.local.json, merged with
                what is there (running it twice changes nothing). Claude Code >= 2.1.295 gets HTTP
                hooks with onFailure "block"; older builds, which ignore onFailure and would fail
                open, get a command hook (damage-control hook claude) that decides locally when
                the endpoint is down. The version comes from \`claude --version\`
                (--claude-version overrides it; $DAMAGE_CONTROL_CLAUDE_BIN names the binary).
install pi      copies the pi extension to pi's agent folder ($PI_CODING_AGENT_DIR or
                ~/.pi/agent)/damage-control/ and lists it in that folder's settings.json
                "extensions" (global: project-local extensions are skipped by headless pi
                without trust, and pi 0.73 discovers only .ts files in extensions/).
uninstall       removes exactly what install added.`;

/** The shell command line Claude Code runs for the command hook: this very CLI. */
export function selfHookCommand(): string {
  const cli = path.resolve(process.argv[1] ?? "damage-control");
  return `${shellQuote(process.execPath)} ${shellQuote(cli)} hook claude`;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function runInstall(argv: string[], uninstall: boolean): number {
  const { values, positionals } = args(argv, { cwd: { type: "string" }, "claude-version": { type: "string" } }, true);
  const agent = positionals[0];
  const folder = path.resolve(values.cwd ?? process.cwd());
  if (agent === "claude") {
    if (uninstall) {
      const r = uninstallClaude(folder);
      process.stdout.write(r.removed ? `removed ${r.removed} hook(s) from ${r.file}\n` : `no Damage Control hooks in ${r.file}\n`);
      return EXIT.ok;
    }
    const reg = lookupEndpoint(folder);
    const url = reg?.url ?? `http://127.0.0.1:${preferredPort(folder)}`;
    const r = installClaude({ folder, url, hookCommand: selfHookCommand(), version: values["claude-version"] });
    const how = r.mode === "http" ? `HTTP hooks to ${url} with onFailure "block"` : `command hooks (Claude Code ${r.version} ignores onFailure on HTTP hooks)`;
    process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: ${how} for ${r.events.join(", ")}${r.version ? ` (Claude Code ${r.version})` : " (Claude Code version unknown: assumed current)"}\n`);
    if (r.mode === "http") process.stdout.write(`Claude Code must see DAMAGE_CONTROL_TOKEN in its environment (VS Code terminals have it; elsewhere: export DAMAGE_CONTROL_TOKEN=... from \`damage-control endpoint\`).\n`);
    if (!reg) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\`.\n`);
    return EXIT.ok;
  }
  if (agent === "pi") {
    if (uninstall) {
      const r = uninstallPi();
      process.stdout.write(r.removed ? `removed ${r.file}\n` : `not installed: ${r.file}\n`);
      return EXIT.ok;
    }
    const bundle = path.join(path.dirname(path.resolve(process.argv[1] ?? ".")), "pi-extension.js");
    if (!fs.existsSync(bundle)) throw new CliError(`the pi extension bundle is missing: ${bundle}`, EXIT.io);
    const r = installPi(bundle);
    process.stdout.write(`${r.changed ? "installed" : "unchanged"} ${r.file} (listed in ${r.settings})\n`);
    return EXIT.ok;
  }
  throw new CliError(`${uninstall ? "uninstall" : "install"} takes an agent: claude or pi`);
}
