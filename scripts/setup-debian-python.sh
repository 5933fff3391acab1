#!/bin/sh
# Installs a Python client from Debian for a conformance test, when the system interpreter
# (/usr/bin/python3, not pyenv's) cannot import it yet. Idempotent.
#   sh scripts/setup-debian-python.sh <python module> <Debian package>
# python3-consul (python-consul 0.7.1): test/dev-servers/consul/python-consul.test.ts
# python3-hvac (hvac 0.11.2, a Vault client): test/dev-servers/vault/hvac.test.ts
set -eu
module="$1"
package="$2"
if /usr/bin/python3 -c "import $module" 2>/dev/null; then
  echo "$package: already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "$package" >/dev/null
/usr/bin/python3 -c "import $module; print('$package: installed', $module.__file__)"
