#!/bin/sh
# Installs Debian's python3-consul (python-consul 0.7.1) for the conformance test
# test/dev-servers/consul/python-consul.test.ts. Idempotent: does nothing when the system
# interpreter (/usr/bin/python3, not pyenv's) can already import it.
set -eu
if /usr/bin/python3 -c "import consul" 2>/dev/null; then
  echo "python3-consul: already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq python3-consul >/dev/null
/usr/bin/python3 -c "import consul; print('python3-consul: installed', consul.__file__)"
