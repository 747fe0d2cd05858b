// Which process really listens on an endpoint's port (Linux /proc). A registry entry names a pid,
// but the hooks post to a port: an entry forged with the pid of one of the user's own processes
// (a VS Code window) beside the port of a server of the agent's would pass a check of the pid
// alone. So the socket listening on 127.0.0.1:PORT (/proc/net/tcp{,6}, LISTEN) is looked up by
// its inode in the registered process's /proc/PID/fd: only a pid that holds it is the listener.
// Every failure to see this (no /proc, /proc hidden, a socket held by another process) is a
// reason not to trust the entry, never a pass.
import * as fs from "node:fs";
import * as path from "node:path";

/** /proc/net/tcp's LISTEN state (include/net/tcp_states.h: TCP_LISTEN = 10). */
const LISTEN = "0A";

/**
 * Local addresses (as /proc/net prints them: 32-bit words in host byte order, both orders listed)
 * of a listening socket that accepts a connection to 127.0.0.1: the loopback address itself, the
 * IPv4 and IPv6 wildcards (a dual-stack "::" takes IPv4 too) and IPv4-mapped 127.0.0.1. Every such
 * socket on the port must be the registered process's: a second listener could take the call.
 */
const ACCEPTS_LOOPBACK = new Set([
  "0100007F", // 127.0.0.1, little-endian
  "7F000001", // 127.0.0.1, big-endian
  "00000000", // 0.0.0.0
  "00000000000000000000000000000000", // ::
  "0000000000000000FFFF00000100007F", // ::ffff:127.0.0.1, little-endian
  "00000000000000000000FFFF7F000001", // ::ffff:127.0.0.1, big-endian
]);

/** Fields of a /proc/net/tcp line: sl local rem st tx:rx tr:when retrnsmt uid timeout inode. */
const F_LOCAL = 1;
const F_STATE = 3;
const F_INODE = 9;

/** Inodes of the sockets listening on `port` that a connection to 127.0.0.1:port can reach. */
export function listeningInodes(port: number, procDir = "/proc"): string[] | Error {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes: string[] = [];
  let read = 0;
  for (const table of ["tcp", "tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(procDir, "net", table), "utf8");
      read++;
    } catch {
      continue; // no IPv6 in this kernel: tcp alone is the whole answer
    }
    // A listener found in tcp is the port's only one for 127.0.0.1: another socket cannot bind an
    // overlapping address (::, ::ffff:127.0.0.1) beside it unless both set SO_REUSEPORT, which the
    // endpoint never does. Reading a table walks the kernel's whole hash (≈ 4-9 ms measured here),
    // so tcp6 is read only when tcp has none.
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length <= F_INODE || f[F_STATE] !== LISTEN) continue;
      const colon = f[F_LOCAL].lastIndexOf(":");
      if (f[F_LOCAL].slice(colon + 1) !== hexPort || !ACCEPTS_LOOPBACK.has(f[F_LOCAL].slice(0, colon))) continue;
      inodes.push(f[F_INODE]);
    }
    if (inodes.length) break;
  }
  if (read === 0) return new Error(`${procDir}/net/tcp cannot be read, so the process listening on port ${port} cannot be checked`);
  return inodes;
}

/** The socket inodes process `pid` holds open, or undefined when its fds cannot be read. */
function socketsOf(pid: number, procDir: string): Set<string> | undefined {
  const dir = path.join(procDir, String(pid), "fd");
  let fds: string[];
  try {
    fds = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const held = new Set<string>();
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(path.join(dir, fd)));
      if (m) held.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  return held;
}

/** The other process of this user that holds `inode` (for the reason only: the failure path). */
function holderOf(inode: string, procDir: string): number | undefined {
  let pids: string[];
  try {
    pids = fs.readdirSync(procDir).filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  for (const p of pids) if (socketsOf(Number(p), procDir)?.has(inode)) return Number(p);
  return undefined;
}

/** The process listening alone on 127.0.0.1:`port` (for a URL that names no pid), else why none is. */
export function listenerPid(port: number, procDir = "/proc"): number | Error {
  const inodes = listeningInodes(port, procDir);
  if (inodes instanceof Error) return inodes;
  if (inodes.length === 0) return new Error(`nothing listens on 127.0.0.1:${port}`);
  const pid = holderOf(inodes[0], procDir);
  return pid ?? new Error(`port ${port} is listened on by a process this user cannot see`);
}

/**
 * Answers by (pid, its start time, port, the listening inodes): a socket inode is not reused
 * before the counter wraps, so a new listener on the port, or the pid reused, is a new question.
 * The long-lived pi extension asks once per endpoint; a hook process pays one fd scan.
 */
const answers = new Map<string, string | undefined>();

/**
 * Why process `pid` (started at `startTime`) is not the one listening on 127.0.0.1:`port`, or
 * undefined when it is the only listener there.
 */
export function notListener(pid: number, port: number, startTime: string | undefined, procDir = "/proc"): string | undefined {
  const inodes = listeningInodes(port, procDir);
  if (inodes instanceof Error) return inodes.message;
  if (inodes.length === 0) return `nothing listens on 127.0.0.1:${port}`;
  const key = `${procDir}:${pid}:${startTime ?? "?"}:${port}:${inodes.join(",")}`;
  if (answers.has(key)) return answers.get(key);
  const held = socketsOf(pid, procDir);
  let answer: string | undefined;
  if (!held) answer = `the sockets of pid ${pid} cannot be read (${procDir}/${pid}/fd), so it cannot be shown to listen on port ${port}`;
  else {
    const foreign = inodes.find((i) => !held.has(i));
    if (foreign !== undefined) {
      const other = holderOf(foreign, procDir);
      answer = `port ${port} is listened on by ${other ? `pid ${other}` : "a process this user cannot see"}, not by the registered pid ${pid}`;
    }
  }
  if (answers.size > 64) answers.clear();
  answers.set(key, answer);
  return answer;
}
