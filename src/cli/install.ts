// damage-control install|uninstall claude|pi: wire an agent to the guard.
import * as fs from "node:fs";
import * as path from "node:path";
import { lookupEndpoint, preferredPort } from "../core/registry";
import { detectClaudeVersion, installClaude, uninstallClaude } from "../install/claude";
import { parsePosture } from "../engine/events";
import { managedWarnings, projectHooksDisabledMessage, readManaged, renderManagedSettings } from "../install/managed";
import { installPi, uninstallPi } from "../install/pi";
import { PI_BUNDLES, PI_EXTENSION_BUNDLE } from "../core/build-info";
import { AGENT_INSTALL_HELP, isAgentInstall, runAgentInstall } from "./install-agents";
import { args, CliError, EXIT } from "./io";
import { INSTALL_COPILOT_HELP, runInstallCopilot } from "./install-copilot";
import { installLauncher } from "../install/launcher";
import { shellQuote } from "./self-command";
import { loadOrCreateToken } from "../core/token";

export const INSTALL_HELP: string = `Usage: damage-control install claude [--cwd DIR] [--claude-version V] [--posture governed]
       damage-control install claude --managed [--out FILE] [--port N | --url URL] [--claude-version V]
       damage-control install pi
       damage-control uninstall claude [--cwd DIR]
       damage-control uninstall pi
${AGENT_INSTALL_HELP}
${INSTALL_COPILOT_HELP}

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
install claude --managed
                renders a managed-settings file for platform teams (to stdout, or to FILE with
                --out; Linux reads /etc/claude-code/managed-settings.json): our HTTP hooks for the
                governed events with an empty matcher, onFailure "block" and a timeout;
                allowedHttpHookUrls limited to loopback; allowManagedHooksOnly true. Every user's
                endpoint must listen on the same port (--port, default 42345; serve --port N or
                the damageControl.port setting). Warnings go to stderr, also about the managed
                file already on this machine ($DAMAGE_CONTROL_MANAGED_SETTINGS overrides its path).
--posture governed
                also registers PostToolUse and the state-changing lifecycle events.
uninstall       removes exactly what install added.`;

export async function runInstall(argv: string[], verb: "install" | "uninstall"): Promise<number> {
  if (isAgentInstall(argv.find((a) => !a.startsWith("-")))) return runAgentInstall(argv, verb);
  const uninstall = verb === "uninstall";
  const { values, positionals } = args(
    argv,
    { cwd: { type: "string" }, "claude-version": { type: "string" }, posture: { type: "string" }, managed: { type: "boolean" }, out: { type: "string" }, port: { type: "string" }, url: { type: "string" }, repo: { type: "boolean" }, "ask-timeout": { type: "string" } },
    true,
  );
  const agent = positionals[0];
  const folder = path.resolve(values.cwd ?? process.cwd());
  if (agent === "claude" && values.managed) {
    if (uninstall) throw new CliError("uninstall claude takes no --managed: remove the managed file yourself");
    return renderManaged(values);
  }
  if (agent === "claude") {
    if (uninstall) {
      const r = uninstallClaude(folder);
      process.stdout.write(r.removed ? `removed ${r.removed} hook(s) from ${r.file}\n` : `no Damage Control hooks in ${r.file}\n`);
      return EXIT.ok;
    }
    const reg = lookupEndpoint(folder);
    const url = reg?.url ?? `http://127.0.0.1:${preferredPort(folder)}`;
    const posture = values.posture === undefined ? "advisory" : parsePosture(values.posture);
    if (!posture) throw new CliError(`--posture must be advisory or governed, got ${values.posture}`);
    // Builds that ignore onFailure get the command hook: the launcher (a copy of this CLI
    // decides locally behind it). HTTP hooks carry the token, so no DAMAGE_CONTROL_TOKEN is needed.
    const launcher = installLauncher({ distDir: path.dirname(path.resolve(process.argv[1] ?? ".")), nodePath: process.execPath });
    const r = installClaude({ folder, url, hookCommand: `${shellQuote(launcher.sh)} claude`, version: values["claude-version"] ?? (await detectClaudeVersion()), posture, token: loadOrCreateToken() });
    const managed = readManaged();
    if (managed.projectHooksDisabled) process.stderr.write(`warning: ${projectHooksDisabledMessage(managed)}\n`);
    const how = r.mode === "http" ? `HTTP hooks to ${url} with onFailure "block"` : `command hooks (Claude Code ${r.version} ignores onFailure on HTTP hooks)`;
    process.stdout.write(`${r.changed ? "wrote" : "unchanged"} ${r.file}: ${how} for ${r.events.join(", ")}${r.version ? ` (Claude Code ${r.version})` : " (Claude Code version unknown: assumed current)"}\n`);
    const sb = r.sandbox;
    process.stdout.write(sb.mode === "off" ? "sandbox: off (rules file sandbox.mode)\n" : `sandbox: ${sb.mode}, ${sb.denyRead} unreadable and ${sb.denyWrite} unwritable paths from the rules (docs/sandbox.md; damage-control doctor checks this machine can run it)\n`);
    if (!reg) process.stdout.write(`No endpoint runs for ${folder} yet: open it in VS Code or run \`damage-control serve --cwd ${folder}\`.\n`);
    return EXIT.ok;
  }
  if (agent === "copilot") return runInstallCopilot(argv.filter((a) => a !== "copilot"), uninstall);
  if (agent === "pi") {
    if (uninstall) {
      const r = uninstallPi();
      process.stdout.write(r.removed ? `removed ${r.file}\n` : `not installed: ${r.file}\n`);
      return EXIT.ok;
    }
    const dist = path.dirname(path.resolve(process.argv[1] ?? "."));
    const missing = PI_BUNDLES.map((b) => path.join(dist, b)).find((f) => !fs.existsSync(f));
    if (missing) throw new CliError(`the pi extension bundle is missing: ${missing}`, EXIT.io);
    const r = installPi(path.join(dist, PI_EXTENSION_BUNDLE));
    process.stdout.write(`${r.changed ? "installed" : "unchanged"} ${r.file} (listed in ${r.settings})\n`);
    return EXIT.ok;
  }
  throw new CliError(`${uninstall ? "uninstall" : "install"} takes an agent: claude, pi, copilot, codex or gemini`);
}

/** The fixed port managed hooks point at unless told otherwise. */
export const MANAGED_DEFAULT_PORT = 42345;

function renderManaged(values: { out?: string; port?: string; url?: string; "claude-version"?: string }): number {
  let url = values.url;
  if (url !== undefined) {
    if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+$/.test(url)) throw new CliError(`--url must be http://127.0.0.1:PORT or http://localhost:PORT, got ${url}`);
  } else {
    const port = values.port === undefined ? MANAGED_DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--port must be 1..65535, got ${values.port}`);
    url = `http://127.0.0.1:${port}`;
  }
  const settings = renderManagedSettings({ url, version: values["claude-version"] });
  const text = JSON.stringify(settings, null, 2) + "\n";
  for (const w of managedWarnings(settings)) process.stderr.write(`warning: rendered file: ${w}\n`);
  const existing = readManaged();
  if (existing.error) process.stderr.write(`warning: ${existing.file}: ${existing.error}\n`);
  for (const w of existing.warnings) process.stderr.write(`warning: ${existing.file}: ${w}\n`);
  if (values.out) {
    fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
    fs.writeFileSync(values.out, text);
    process.stderr.write(`wrote ${values.out}: install it as ${existing.file} (root-owned, 0644)\n`);
  } else {
    process.stdout.write(text);
  }
  return EXIT.ok;
}
