#!/bin/sh
# Installs Debian's rsyslog for the syslog test, when rsyslogd is missing. The test runs its own
# rsyslogd on a private socket and file (never the system's /dev/log), so no service is started. Idempotent.
#   sh scripts/setup-rsyslog.sh
# test/e2e/syslog.test.ts
set -eu
if command -v rsyslogd >/dev/null 2>&1 || [ -x /usr/sbin/rsyslogd ]; then
  echo "rsyslog: already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends rsyslog >/dev/null
echo "rsyslog: installed at /usr/sbin/rsyslogd"
