// The system (issue 36, family 3): the kernel's and the init system's controls, every process
// signalled, the firewall flushed, scheduled jobs or accounts removed, system packages removed,
// system logs vacuumed. DATA in the remote table's row format (program → subcommand → effect),
// target `system`: `destroy` is a human's call (reboot, a service stopped); `destroy-all` leaves
// nothing running (every process killed). Options before a subcommand change nothing: rows match
// among the first command words (`systemctl --no-block -H host stop nginx`). Help and dry runs pass.
import type { RemoteProgram, RemoteRow } from "./row";

const HELP = ["help", "version"];
const SIMULATE = ["s", "simulate", "dry-run", "just-print", "no-act", "recon", "assumeno", "n", "help"];
const sys = (sub: string, more: Partial<RemoteRow> = {}): RemoteRow => ({ sub: sub === "" ? [] : sub.split(" "), effect: "destroy", target: "system", unless: HELP, ...more });
const always = (more: Partial<RemoteRow> = {}): RemoteProgram => ({ rows: [sys("", more)] });

/** Power: the machine goes down, every session with it. `shutdown -c` cancels one; `-k` only warns. */
const POWER = always({ unless: ["help", "version", "c", "k", "w", "wtmp-only"] });
/** Init-system verbs that stop the machine or a service (`--user` services are the user's own). */
const SYSTEMCTL_POWER = "reboot|poweroff|halt|kexec|suspend|hibernate|hybrid-sleep|suspend-then-hibernate|rescue|emergency|soft-reboot|isolate|default|switch-root";
const SYSTEMCTL_SERVICE = "stop|disable|mask|kill|freeze|clean";

export const SYSTEM_ENTRIES: Record<string, RemoteProgram> = {
  reboot: POWER,
  poweroff: POWER,
  halt: POWER,
  shutdown: POWER,
  kexec: always({ when: ["e", "exec"] }),
  systemctl: { rows: [sys(SYSTEMCTL_POWER), sys(SYSTEMCTL_SERVICE, { unless: [...HELP, "user", "dry-run"] })] },
  loginctl: { rows: [sys("terminate-session|terminate-user|kill-session|kill-user|poweroff|reboot")] },
  service: { rows: [sys("* stop"), sys("* disable")] },
  "rc-service": { rows: [sys("* stop")] },
  "rc-update": { rows: [sys("del|delete")] },
  "update-rc.d": { rows: [sys("* remove|disable")] },
  chkconfig: { rows: [sys("* off")] },
  sv: { rows: [sys("stop|down|kill|force-stop|exit")] },
  init: { rows: [sys("0|1|6|s|S|single|halt|reboot|poweroff")] },
  telinit: { rows: [sys("0|1|6|s|S|single")] },
  launchctl: { rows: [sys("unload|bootout|remove|disable|kill|reboot|stop")] },
  // Every process: `killall5`; a whole user's processes.
  killall5: always({ effect: "destroy-all" }),
  kill: { special: "signal" },
  pkill: always({ when: ["u", "euid", "U", "uid"] }),
  killall: always({ when: ["u", "user"] }),
  // The firewall: rules flushed or chains deleted leave the machine open, or cut off.
  iptables: always({ when: ["F", "flush", "X", "delete-chain"] }),
  ip6tables: always({ when: ["F", "flush", "X", "delete-chain"] }),
  "iptables-legacy": always({ when: ["F", "flush", "X", "delete-chain"] }),
  "iptables-nft": always({ when: ["F", "flush", "X", "delete-chain"] }),
  "iptables-restore": always({ unless: [...HELP, "t", "test", "n", "noflush"] }),
  nft: { rows: [sys("flush ruleset|table|chain"), sys("delete table|chain|rule")] },
  ufw: { rows: [sys("disable|reset|delete")] },
  // Windows' firewall from cmd or a Bash tool: every profile switched off, or its rules reset.
  netsh: { rows: [sys("advfirewall set * state off"), sys("advfirewall reset"), sys("firewall set opmode disable|mode=disable")] },
  // Windows services: stopped or deleted.
  sc: { rows: [sys("stop|delete")] },
  "firewall-cmd": always({ when: ["panic-on", "remove-service", "remove-port", "remove-rich-rule", "remove-interface", "remove-source", "set-default-zone=trusted|drop"] }),
  // Scheduled jobs and accounts.
  // `crontab -r`, or the whole table replaced by an empty file.
  crontab: { rows: [sys("", { when: ["r"] }), sys("*", { match: /^\/dev\/null$/ })] },
  atrm: always(),
  userdel: always(),
  deluser: always(),
  groupdel: always(),
  delgroup: always(),
  passwd: always({ when: ["d", "delete", "l", "lock", "e", "expire"] }),
  gpasswd: always({ when: ["d", "delete"] }),
  usermod: always({ when: ["L", "lock", "e", "expiredate"] }),
  // System packages removed.
  apt: { rows: [sys("remove|purge|autoremove|autopurge", { unless: SIMULATE })] },
  "apt-get": { rows: [sys("remove|purge|autoremove|autopurge|dselect-upgrade", { unless: SIMULATE })] },
  aptitude: { rows: [sys("remove|purge", { unless: SIMULATE })] },
  dnf: { rows: [sys("remove|erase|autoremove", { unless: SIMULATE })] },
  yum: { rows: [sys("remove|erase|autoremove", { unless: SIMULATE })] },
  microdnf: { rows: [sys("remove", { unless: SIMULATE })] },
  zypper: { rows: [sys("rm|remove", { unless: SIMULATE })] },
  apk: { rows: [sys("del", { unless: [...SIMULATE, "simulate"] })] },
  pacman: always({ when: ["R", "remove"], unless: [...HELP, "p", "print"] }),
  dpkg: always({ when: ["r", "P", "remove", "purge"], unless: [...HELP, "no-act", "dry-run", "simulate"] }),
  rpm: always({ when: ["e", "erase"], unless: [...HELP, "test"] }),
  snap: { rows: [sys("remove")] },
  // System logs: a vacuum deletes the journal's archived entries.
  journalctl: always({ when: ["vacuum-time", "vacuum-size", "vacuum-files", "flush", "rotate"], unless: HELP }),
  // The kernel: parameters written, modules removed, swap turned off.
  sysctl: always({ when: ["w", "write"] }),
  rmmod: always(),
  modprobe: always({ when: ["r", "remove"] }),
  swapoff: always(),
};

/**
 * `kill -9 -1` (every process the user may signal), `kill 1` (init: the machine). The first word
 * starting with `-` is the signal (`kill -1 1234` sends SIGHUP to 1234); a PID of -1 or 1 after
 * it, or after `--`, is everything.
 */
export function signalsEverything(args: readonly (string | undefined)[]): boolean {
  let i = 0;
  if (args[0] === "-s" || args[0] === "-n" || args[0] === "--signal") i = 2;
  else if (args[0] !== undefined && args[0].startsWith("-") && args[0] !== "--" && !/^-l|^-L|^--list|^--table/.test(args[0])) i = 1;
  if (args[i] === "--") i++;
  return args.slice(i).some((a) => a === "-1" || a === "1");
}

/** The roots of the system: a recursive change of their permissions or owner breaks every program below. */
const SYSTEM_ROOTS = new Set(["/", "/etc", "/usr", "/var", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/opt", "/home", "/root", "/sys", "/proc", "/dev", "/run", "/srv", "/usr/bin", "/usr/lib", "/usr/local", "/usr/sbin", "/usr/share", "/var/lib", "/var/log", "/etc/ssh", "/etc/sudoers.d", "/Library", "/System", "/Applications", "/Users", "/private"]);

export function isSystemRoot(abs: string): boolean {
  return SYSTEM_ROOTS.has(abs.replace(/\/+$/, "") || "/");
}
