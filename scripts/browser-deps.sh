#!/bin/sh
# Installs Debian's headless Chromium and its WebDriver (chromium-driver), for the HTML
# report's layout test and the web page's browser tests, only when missing. Prints why when
# it cannot (no apt-get, no rights, no network); those tests then skip and say so.
set -u
missing=""
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing="chromium fonts-dejavu-core"
command -v chromedriver >/dev/null 2>&1 || [ -x /usr/lib/chromium/chromedriver ] || missing="$missing chromium-driver"
if [ -z "$missing" ]; then echo "browser-deps: chromium and chromedriver are installed"; exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser-deps: no apt-get here; install$missing by hand" >&2; exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "browser-deps: installing$missing (Debian packages)"
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
