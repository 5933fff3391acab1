#!/bin/sh
# Installs Debian's python3-hvac (hvac 0.11.2, a Vault client) for the conformance test
# test/dev-servers/vault/hvac.test.ts. Idempotent: does nothing when the system interpreter
# (/usr/bin/python3, not pyenv's) can already import it.
set -eu
if /usr/bin/python3 -c "import hvac" 2>/dev/null; then
  echo "python3-hvac: already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq python3-hvac >/dev/null
/usr/bin/python3 -c "import hvac; print('python3-hvac: installed', hvac.__file__)"
