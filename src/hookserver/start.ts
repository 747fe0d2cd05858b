// Starting an endpoint for a set of folders: the folder's usual port when it is free, any
// free port otherwise (EADDRINUSE: another window or a stale host holds it), then publish it.
import { startEndpoint, type AnswerInfo, type Endpoint } from "./server";
import type { Asker } from "../core/asker";
import type { Guard } from "../core/guard";
import { preferredPort, register } from "../core/registry";

export interface StartedEndpoint extends Endpoint {
  /** True when the usual port was taken and another one was used. */
  moved: boolean;
  /** The folders this endpoint is registered for (the hooks find it there). */
  registered: string[];
  /** Folders another live endpoint holds: served here too, but not found by the hooks until it is gone. */
  waiting: string[];
}

/** How often an endpoint waiting for a folder checks whether its holder is gone. */
const TAKE_OVER_MS = 2000;

export async function startGuardEndpoint(guard: Guard, token: string, opts: { port?: number; host: string; asker?: Asker; stateDir?: string; onAnswer?: (info: AnswerInfo) => void; onRegistered?: (folders: string[]) => void }): Promise<StartedEndpoint> {
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
  // One endpoint per folder (issue 35): a folder whose endpoint lives stays that endpoint's; this
  // one takes it only once that process is gone (a window reloaded, a serve stopped).
  const registered = register(guard.folders, endpoint.url, endpoint.port, opts.host, opts.stateDir);
  const waiting = guard.folders.filter((f) => !registered.includes(f));
  const started = Object.assign(endpoint, { moved, registered, waiting });
  if (waiting.length) {
    const timer = setInterval(() => {
      const took = register(started.waiting, endpoint.url, endpoint.port, opts.host, opts.stateDir);
      if (took.length === 0) return;
      started.registered.push(...took);
      started.waiting = started.waiting.filter((f) => !took.includes(f));
      if (started.waiting.length === 0) clearInterval(timer);
      opts.onRegistered?.(took);
    }, TAKE_OVER_MS);
    timer.unref();
    const close = endpoint.close.bind(endpoint);
    started.close = () => {
      clearInterval(timer);
      return close();
    };
  }
  guard.prepare();
  return started;
}
