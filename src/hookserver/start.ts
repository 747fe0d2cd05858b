// Starting an endpoint for a set of folders: the folder's usual port when it is free, any
// free port otherwise (EADDRINUSE: another window or a stale host holds it), then publish it.
import { startEndpoint, type AnswerInfo, type Endpoint } from "./server";
import type { Asker } from "../core/asker";
import type { Guard } from "../core/guard";
import { preferredPort, register } from "../core/registry";

export interface StartedEndpoint extends Endpoint {
  /** True when the usual port was taken and another one was used. */
  moved: boolean;
}

export async function startGuardEndpoint(guard: Guard, token: string, opts: { port?: number; host: string; asker?: Asker; stateDir?: string; onAnswer?: (info: AnswerInfo) => void }): Promise<StartedEndpoint> {
  const wanted = opts.port ?? preferredPort(guard.folders[0], opts.stateDir);
  let endpoint: Endpoint;
  let moved = false;
  try {
    endpoint = await startEndpoint({ guard, token, asker: opts.asker, port: wanted, onAnswer: opts.onAnswer });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw e;
    // An explicit port that is taken is an error the user must see.
    if (opts.port !== undefined && opts.port !== 0) throw e;
    endpoint = await startEndpoint({ guard, token, asker: opts.asker, port: 0, onAnswer: opts.onAnswer });
    moved = true;
  }
  register(guard.folders, endpoint.url, endpoint.port, opts.host, opts.stateDir);
  guard.prepare();
  return Object.assign(endpoint, { moved });
}
