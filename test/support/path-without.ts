// A PATH on which one program is missing and everything else is where it was: a folder of links to
// every entry of the PATH's folders except the named programs. Used where a whole application
// (code-server, an agent) must start normally but must not find, say, bubblewrap.
import * as fs from "node:fs";
import * as path from "node:path";

export function pathWithout(dir: string, missing: readonly string[], searchPath = process.env.PATH ?? ""): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const folder of searchPath.split(path.delimiter)) {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const link = path.join(dir, name);
      // The first folder on PATH wins, as it does for the shell.
      if (missing.includes(name) || fs.existsSync(link)) continue;
      try {
        fs.symlinkSync(path.join(folder, name), link);
      } catch {
        /* a name that cannot be linked is not one the application needs */
      }
    }
  }
  return dir;
}
