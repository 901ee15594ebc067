#!/usr/bin/env bash
# Installs the Debian packages irqsim needs, or names the missing ones.
# Usage: scripts/setup.sh [extra-package...]
set -euo pipefail

# the real-kernel mode (real/build-kernel.sh) runs the kernel's own CMake
# configure: ninja, dtc and the Python modules its generators import
need=(cmake make gcc clang libcmocka-dev lcov zlib1g-dev
      ninja-build device-tree-compiler python3 python3-ply python3-lxml python3-future
      python3-pyelftools python3-jinja2 python3-six python3-yaml
      python3-typing-extensions  # master's tools/umm.py (seL4 1326364bc)
      libxml2-utils chromium "$@")  # the timeline picture: well-formed, rendered
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "irqsim: installing ${missing[*]}" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "irqsim: missing Debian packages: ${missing[*]}" >&2
echo "irqsim: install them with: sudo apt-get install ${missing[*]}" >&2
exit 1
