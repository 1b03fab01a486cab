#!/bin/sh
# Installs Debian's headless Chromium for the HTML report layout test, only when missing.
# Prints why when it cannot (no apt-get, no rights, no network); the test then skips.
set -u
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then echo "browser-deps: $b is installed"; exit 0; fi
done
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser-deps: no apt-get here; install chromium by hand" >&2; exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "browser-deps: installing chromium (Debian package)"
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
