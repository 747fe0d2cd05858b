// The system's tools read as well as change (issue 36, family 3): `iptables -L`, `ufw status`,
// `systemctl status` only show the machine's state. Run with sudo, such a listing is still a
// read; the system family judges the verb, not the program. DATA: program → the verbs (first
// word that is not an option) or the options that make the call a listing, and the options that
// change something whatever else is given (`iptables -L -Z` zeroes the counters it lists).

interface ReadForm {
  /** The first word that is not an option: one of these is a read. "" allows no word at all. */
  verbs?: readonly string[];
  /** Second word verbs (`service nginx status`). */
  secondVerbs?: readonly string[];
  /** One of these options (without dashes) makes it a listing. */
  listOptions?: readonly string[];
  /** Any of these options (without dashes) changes something: then it is not a read. */
  changeOptions?: readonly string[];
  /** Operands must not assign (`sysctl net.ipv4.ip_forward=1` writes). */
  noAssignment?: boolean;
}

const IPTABLES: ReadForm = {
  listOptions: ["L", "list", "S", "list-rules"],
  changeOptions: ["A", "append", "D", "delete", "I", "insert", "R", "replace", "F", "flush", "X", "delete-chain", "P", "policy", "N", "new-chain", "E", "rename-chain", "Z", "zero"],
};
const SYSTEMCTL_READS = ["status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies", "list-jobs", "list-machines", "list-automounts", "list-paths", "is-active", "is-enabled", "is-failed", "is-system-running", "get-default", "show-environment", "help"];

export const SYSTEM_READS: Record<string, ReadForm> = {
  iptables: IPTABLES,
  ip6tables: IPTABLES,
  "iptables-legacy": IPTABLES,
  "iptables-nft": IPTABLES,
  "iptables-save": { verbs: [""] },
  "ip6tables-save": { verbs: [""] },
  nft: { verbs: ["list"] },
  ufw: { verbs: ["status", "show", "version"] },
  "firewall-cmd": { listOptions: ["state", "list-all", "list-all-zones", "list-services", "list-ports", "list-rich-rules", "list-interfaces", "list-sources", "get-default-zone", "get-active-zones", "get-zones", "get-services", "query-service", "query-port"] },
  systemctl: { verbs: SYSTEMCTL_READS },
  service: { listOptions: ["status-all"], secondVerbs: ["status"] },
  loginctl: { verbs: ["list-sessions", "list-users", "list-seats", "show-session", "show-user", "show-seat", "session-status", "user-status", "seat-status"] },
  journalctl: { changeOptions: ["vacuum-time", "vacuum-size", "vacuum-files", "flush", "rotate", "relinquish-var", "smart-relinquish-var", "setup-keys", "sync"] },
  launchctl: { verbs: ["list", "print", "print-disabled", "blame", "dumpstate", "version", "help"] },
  // Mounts, sockets, kernel messages and parameters. (Raw devices are the device family's: `sudo
  // fdisk -l` reads partition tables, and stays sudo's.)
  mount: { verbs: [""], listOptions: ["l"], changeOptions: ["a", "all", "o", "options", "t", "types", "B", "bind", "M", "move", "rbind"] },
  findmnt: {},
  lsof: {},
  ss: { changeOptions: ["K", "kill"] },
  netstat: {},
  dmesg: { changeOptions: ["c", "read-clear", "C", "clear", "n", "console-level", "D", "console-off", "E", "console-on"] },
  sysctl: { changeOptions: ["w", "write", "p", "load", "system"], noAssignment: true },
  lshw: {},
  dmidecode: {},
  // Scheduled jobs and packages, listed.
  crontab: { listOptions: ["l"], changeOptions: ["r", "e"] },
  apt: { verbs: ["list", "show", "search", "policy", "depends", "rdepends"] },
  "apt-cache": {},
  dpkg: { listOptions: ["l", "list", "L", "listfiles", "s", "status", "S", "search", "get-selections", "print-architecture"] },
  rpm: { listOptions: ["q", "query"], changeOptions: ["e", "erase", "i", "install", "U", "upgrade", "F", "freshen"] },
};

/**
 * Does `program words…` only read the system's state? `words`: the arguments, undefined where a
 * word is not known before the command runs (then a listing cannot be vouched for).
 */
export function systemRead(program: string, words: readonly (string | undefined)[]): boolean {
  const form = Object.prototype.hasOwnProperty.call(SYSTEM_READS, program) ? SYSTEM_READS[program] : undefined;
  if (form === undefined || words.some((w) => w === undefined)) return false;
  const known = words as readonly string[];
  const options = known.filter((w) => w.startsWith("-") && w !== "-" && w !== "--").flatMap(optionNames);
  const operands = known.filter((w) => !w.startsWith("-"));
  if (form.changeOptions?.some((o) => options.includes(o))) return false;
  if (form.noAssignment && operands.some((w) => w.includes("="))) return false;
  const listed = form.listOptions?.some((o) => options.includes(o)) ?? false;
  if (form.listOptions && !form.verbs && !form.secondVerbs) return listed;
  if (listed) return true;
  if (form.secondVerbs) return form.secondVerbs.includes(operands[1] ?? "");
  if (form.verbs) return form.verbs.includes(operands[0] ?? "");
  return true;
}

/** `-Lnv` → L, n, v; `--list=x` → list. */
function optionNames(option: string): string[] {
  if (option.startsWith("--")) return [option.slice(2).split("=")[0]];
  return [...option.slice(1)];
}
