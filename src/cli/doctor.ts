// damage-control doctor: one report of what guards a folder; exit 1 when it is not guarded.
import * as path from "node:path";
import { formatReport, runDoctor } from "../install/doctor";
import { args, EXIT } from "./io";

export const DOCTOR_HELP = `Usage: damage-control doctor [--cwd DIR] [--json] [--managed-file FILE] [--rules FILE]

One line per check (ok, warn or FAIL) of what guards DIR (default: current directory):
  endpoint  an endpoint is registered for DIR and answers /health
  token     DAMAGE_CONTROL_TOKEN is in this environment and is the endpoint's token
  claude    the Claude Code version, and whether it honours onFailure "block"
  hooks     our hooks are installed (project, user or managed settings) and not shadowed:
            managed allowManagedHooksOnly, disableAllHooks, allowedHttpHookUrls, a moved port
  managed   warnings about this machine's managed settings
  pi        the pi extension is installed globally
  codex, gemini, qwen, opencode, cline, copilot-cli
            not installed (ok: that agent is not used), or installed and run by the agent (ok),
            or installed but skipped by the agent (FAIL: untrusted hook, untrusted folder…);
            cline also says to restart running Cline sessions and its hub daemon
  rules     the rules file parses (or the embedded defaults are in force)
  proxy     HTTP(S)_PROXY set without NO_PROXY covering 127.0.0.1 (hook traffic would leave loopback)

  --json               the report as JSON: {folder, guarded, checks: [{id, status, message}]}
  --managed-file FILE  managed settings to read (default /etc/claude-code/managed-settings.json on
                       Linux; $DAMAGE_CONTROL_MANAGED_SETTINGS overrides it too)
  --rules FILE         rules file (default: .pi/damage-control-rules.yaml in DIR)

Run it in the shell the agent runs in: the environment is part of what is checked.
Exit codes: 0 guarded (warnings allowed), 1 not guarded (any FAIL), 2 bad usage.`;

export async function runDoctorCli(argv: string[]): Promise<number> {
  const { values } = args(argv, { cwd: { type: "string" }, json: { type: "boolean" }, "managed-file": { type: "string" }, rules: { type: "string" } });
  const report = await runDoctor({ folder: path.resolve(values.cwd ?? process.cwd()), managedFile: values["managed-file"], rulesPath: values.rules });
  process.stdout.write(values.json ? JSON.stringify(report, null, 2) + "\n" : formatReport(report));
  return report.guarded ? EXIT.ok : EXIT.findings;
}
