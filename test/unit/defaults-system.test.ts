// Issue 36, family 3: the system — the kernel's and the init system's controls, every process
// signalled, process bombs, the firewall flushed, scheduled jobs or accounts removed, system
// packages removed, system logs vacuumed, recursive permission changes of system roots
// (src/engine/remote/system.ts; system-control: ask, system-everything: block). Everyday first.
import { assertAllowed, assertFamily } from "./defaults-helpers";

describe("defaults: the system (issue 36)", () => {
  it("passes status, help, user services, listing and simulations", () => {
    assertAllowed([
      "systemctl status nginx",
      "systemctl --user restart myapp",
      "systemctl list-units --failed",
      "systemctl restart nginx",
      "journalctl -u nginx --since today",
      "crontab -l",
      "shutdown -c",
      "reboot --help",
      "apt-get install -y jq",
      "apt-get remove -s nginx",
      "apt list --installed",
      "kill 12345",
      "kill -9 $(cat app.pid)",
      "kill -1 4242",
      "pkill -f 'node server.js'",
      "iptables -L -n",
      "ufw status",
      "sysctl net.ipv4.ip_forward",
      "chmod -R 755 build/",
      "chown -R me:me ./data",
      "for f in *; do wc -l \"$f\"; done",
    ]);
  });

  it("asks before the machine or its services go down, the firewall, jobs, accounts, packages, logs or the kernel change", () => {
    assertFamily("system-control", "ask", [
      "reboot",
      "shutdown -h now",
      "systemctl reboot",
      "systemctl --no-block stop nginx",
      "systemctl -H prod.example.com poweroff",
      "systemctl disable --now sshd",
      "service postgresql stop",
      "init 6",
      "iptables -F",
      "nft flush ruleset",
      "ufw disable",
      "crontab -r",
      "userdel -r bob",
      "apt-get purge -y openssh-server",
      "dnf remove -y kernel",
      "pacman -Rns systemd",
      "journalctl --vacuum-time=1s",
      "sysctl -w kernel.panic=1",
      "modprobe -r e1000",
      "swapoff -a",
      "chmod -R 700 /usr",
      "chown -R nobody /etc",
      "ssh prod reboot",
      "bash -c 'systemctl stop docker'",
    ]);
  });

  it("refuses signalling every process and process bombs", () => {
    assertFamily("system-everything", "block", ["kill -9 -1", "kill -KILL -- -1", "kill -s KILL -1", "killall5 -9", ":(){ :|:& };:", "bomb() { bomb | bomb & }; bomb"]);
  });
});
