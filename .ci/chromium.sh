#!/usr/bin/env bash
# Debian's Chromium for the browser tests (tests/browser): Playwright drives it through its
# executable path, so no Playwright browser is downloaded. Needs root (apt).
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
fi
chromium --version
