#!/bin/sh
# Installs Debian's Chromium for the status page's browser test, when /usr/bin/chromium is missing.
# puppeteer-core (a devDependency) drives it and never downloads a browser. Idempotent.
#   sh scripts/setup-chromium.sh
# test/plugins/status-page/status-page-browser.test.ts
set -eu
if [ -x /usr/bin/chromium ]; then
  echo "chromium: already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
echo "chromium: installed at /usr/bin/chromium"
