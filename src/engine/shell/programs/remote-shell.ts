// `ssh [options] HOST [CMD…]`: the words after the host are joined with spaces and run by the
// remote user's shell, so CMD is judged as a command line here is: its path effects are read as
// paths of a machine laid out like this one (a remote `rm -rf /srv/data` is judged as that path),
// relative paths from the home folder, where ssh starts. Key and config files are read locally.
import { parseOptions, valuesOf } from "../options";
import type { Handler } from "../runner";
import { mentionAll, present, shown } from "./common";
import { joinCode } from "./shells";

const SSH_SPEC = { shortWithValue: "BbcDEeFIiJLlmOopQRSWw", stopAtOperand: true };

const ssh: Handler = (inv, r) => {
  const p = parseOptions(inv.args, SSH_SPEC);
  const rest = inv.args.slice(p.restIndex);
  const [host, ...command] = rest;
  r.emit(inv, present(["ssh"], inv.args.slice(0, p.restIndex + 1)));
  // `-i KEY` authenticates with the key, which ssh never shows (credentials.ts): used, not read.
  mentionAll(inv, r, valuesOf(p, "F"));
  const code = joinCode(command);
  if (!host || !code) return;
  const scope = inv.scope.child();
  scope.cwd = scope.home;
  r.runCode(code, scope, { kind: "none" }, inv.depth + 1, `ssh ${shown(host)}`);
};

export function remoteShellHandlers(): Record<string, Handler> {
  return { ssh };
}
