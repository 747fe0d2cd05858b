// damage-control exceptions [list | revoke ID]: what loosens the rules beyond the defaults —
// the user's exceptions (allow: in ~/.config/damage-control/rules.yaml, e.g. written by
// "Always allow in this folder") and the approved workspace rules files — and how to take one back.
import { readApprovals, revokeApproval } from "../core/approvals";
import { listUserExceptions, revokeUserException, userRulesFile } from "../core/layer-files";
import { CliError, EXIT } from "./io";

export const EXCEPTIONS_HELP = `Usage: damage-control exceptions [list] [--json]
       damage-control exceptions revoke ID

list (default)  the user's exceptions (allow: in ${"$"}XDG_CONFIG_HOME/damage-control/rules.yaml) and the
                workspace rules files whose disable:/allow: the user approved in VS Code, one per line
                with its ID
revoke ID       remove that exception from the user's rules file, or withdraw that approval (the
                workspace file then only adds rules again until it is approved anew)`;

export function runExceptions(argv: string[]): number {
  const [sub = "list", ...rest] = argv;
  if (sub === "list") {
    const json = rest.includes("--json");
    const exceptions = listUserExceptions();
    const approvals = readApprovals();
    if (json) {
      process.stdout.write(JSON.stringify({ exceptions, approvals }, null, 2) + "\n");
      return EXIT.ok;
    }
    const lines: string[] = [];
    lines.push(`user exceptions (${userRulesFile()}):`);
    if (exceptions.length === 0) lines.push("  (none)");
    for (const e of exceptions) lines.push(`  ${e.id}  ${e.command !== undefined ? `command /${e.command}/` : `path ${e.path}`}${e.folder ? ` in ${e.folder}` : ""}: ${e.reason}`);
    lines.push("approved workspace rules files:");
    if (approvals.length === 0) lines.push("  (none)");
    for (const a of approvals) lines.push(`  ${a.id}  ${a.file} (${a.items.join(", ")}) approved ${a.approvedAt}`);
    process.stdout.write(lines.join("\n") + "\n");
    return EXIT.ok;
  }
  if (sub === "revoke") {
    const id = rest[0];
    if (!id) throw new CliError("revoke needs an ID (see damage-control exceptions list)");
    if (id.startsWith("a-") ? revokeApproval(id) : revokeUserException(id)) {
      process.stdout.write(`revoked ${id}\n`);
      return EXIT.ok;
    }
    throw new CliError(`no exception or approval with ID ${id}`, EXIT.findings);
  }
  throw new CliError(`exceptions takes list or revoke ID, got "${sub}"`);
}
