#!/usr/bin/env bash
# System packages the test tiers need (Debian, as root): Chromium for the VS Code UI tests,
# Kerberos headers and a C++ toolchain for code-server's native addons, bubblewrap for the sandbox
# runner's tests (issue 34). Skips what is present.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -e /usr/include/krb5.h ] || [ -e /usr/include/krb5/krb5.h ] || need+=(libkrb5-dev)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v git >/dev/null 2>&1 || need+=(git)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-system-deps: need root to install: ${need[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
