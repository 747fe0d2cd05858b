// Whether a hook may trust the endpoint a registry entry names (issue 35). Everything in the entry
// could have been written by the agent's own code (the state folder is the user's, and so is the
// agent), so each check reads the processes, not the entry:
//   1. the URL is http://127.0.0.1:PORT (the only address the endpoint serves; `localhost` may
//      resolve to ::1, another socket);
//   2. the process listening on that port is the entry's pid (listener.ts): an entry forged with
//      the pid of one of the user's processes beside a port of the agent's server fails here;
//   3. that process was not started inside an agent's tool call (provenance.ts: ancestry, marker
//      variables);
//   4. it did not start after the agent session this hook runs in: a double-forked server with a
//      scrubbed environment has neither an agent ancestor nor a marker, but it cannot have started
//      before the agent that started it.
// Any check that cannot be made on Linux (no /proc/net, fds hidden) is a reason to distrust: the
// hook then decides locally with the folder's rules. Other systems have no /proc: checks 2-4 are
// not available there (docs/self-protection.md lists it among the open routes).
import { listenerPid, notListener } from "./listener";
import { agentSession, startedByAgent, startTimeOf } from "./provenance";

export interface EndpointEntry {
  url: string;
  /** The registered process; none for a URL from the environment (its listener is then found). */
  pid?: number;
}

/** Why the endpoint of `reg` must not be trusted by a hook of this process, or undefined. */
export function distrustOf(reg: EndpointEntry, procDir = "/proc", platform = process.platform): string | undefined {
  let port: number;
  try {
    const u = new URL(reg.url);
    if (u.protocol !== "http:" || u.hostname !== "127.0.0.1" || !u.port) return `its URL ${reg.url} is not http://127.0.0.1:PORT`;
    port = Number(u.port);
  } catch {
    return `its URL ${reg.url} is not a URL`;
  }
  if (platform !== "linux") return undefined;
  const pid = reg.pid ?? listenerPid(port, procDir);
  if (pid instanceof Error) return pid.message;
  const start = startTimeOf(pid, procDir);
  const listener = notListener(pid, port, start, procDir);
  if (listener) return listener;
  const agent = startedByAgent(pid, procDir);
  if (agent) return `its process (pid ${pid}) was started inside a tool call of ${agent}`;
  const session = agentSession(procDir);
  if (session && Number(start) > session.startTime) return `its process (pid ${pid}) started after this ${session.agent} session (pid ${session.pid}): the agent could have started it`;
  return undefined;
}
