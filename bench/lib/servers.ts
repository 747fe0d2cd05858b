// The servers the benchmarks start: `damage-control serve` and the bare node:http server (the
// floor), each in its own process group, found by the URL it prints, stopped by that group.
import { spawn, type ChildProcess } from "node:child_process";

/** A bare node:http server answering {} (the floor), in its own process like ours. */
export const BARE_SERVER = `
const http = require("node:http");
const s = http.createServer((req, res) => { req.resume(); req.on("end", () => { res.writeHead(200, {"content-type": "application/json", "content-length": 2}); res.end("{}"); }); });
s.listen(0, "127.0.0.1", () => console.log("listening http://127.0.0.1:" + s.address().port));
`;

/** Starts `node ARGS` and resolves with its URL once it prints `listening http://127.0.0.1:PORT`. */
export async function startServer(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"], detached: true });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start`)), 20_000);
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", () => reject(new Error(`${args.join(" ")} exited`)));
  });
  return { child, url };
}

/** Stops a server started here, and whatever it started, by its process group. */
export function stopServer(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    /* gone */
  }
}
