#!/bin/sh
# Installs Debian's Go toolchain and go-tfe 0.11.1 sources (golang-go,
# golang-github-hashicorp-go-tfe-dev) for test/dev-servers/tfc/go-tfe.test.ts, which builds
# go-tfe's own integration tests in GOPATH mode and runs them against the embedded TFC server.
# test/e2e/api-mtls-matrix.test.ts builds its Go reference server (crypto/tls) with the same Go.
# Idempotent: does nothing when both are already there.
set -eu
GO_TFE_DIR=/usr/share/gocode/src/github.com/hashicorp/go-tfe
if command -v go >/dev/null 2>&1 && [ -f "$GO_TFE_DIR/tfe.go" ]; then
  echo "go-tfe: already installed ($(go version))"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends golang-go golang-github-hashicorp-go-tfe-dev >/dev/null
echo "go-tfe: installed $(go version), sources in $GO_TFE_DIR"
