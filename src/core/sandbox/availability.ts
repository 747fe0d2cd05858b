// Can this machine run our sandbox? bubblewrap on the guard's PATH, and a user namespace it may
// create (Ubuntu 24.04+ refuses one through AppArmor unless a profile allows bwrap). Probed once
// per PATH with a real `bwrap … true`: a sandbox we only assume is one we might pretend to have.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export type SandboxAvailability = { ok: true; bwrap: string } | { ok: false; why: string; fix: string };

const probed = new Map<string, SandboxAvailability>();

/** The first executable file `name` on PATH (the runner's bwrap, doctor's socat and rg). */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export function sandboxAvailability(env: NodeJS.ProcessEnv = process.env): SandboxAvailability {
  if (process.platform !== "linux") {
    return { ok: false, why: `no sandbox runner on ${process.platform} yet (the macOS Seatbelt profile is generated but not wired)`, fix: "set damageControl.sandbox to auto or off on this machine" };
  }
  const key = env.PATH ?? "";
  const known = probed.get(key);
  if (known) return known;
  const bwrap = findOnPath("bwrap", env.PATH);
  let result: SandboxAvailability;
  if (!bwrap) result = { ok: false, why: "bubblewrap (bwrap) is not installed or not on PATH", fix: "install it: sudo apt-get install bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora)" };
  else {
    const r = spawnSync(bwrap, ["--die-with-parent", "--cap-drop", "ALL", "--dev-bind", "/", "/", "--", "/bin/sh", "-c", "true"], { encoding: "utf8", timeout: 10_000 });
    result =
      r.status === 0
        ? { ok: true, bwrap }
        : {
            ok: false,
            why: `bubblewrap cannot create a sandbox here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split("\n")[0]})`,
            fix: "allow unprivileged user namespaces for bwrap (Ubuntu 24.04+: an AppArmor profile for /usr/bin/bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0)",
          };
  }
  probed.set(key, result);
  return result;
}
