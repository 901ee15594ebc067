#!/usr/bin/env bash
# install-deps.sh PYDIR: what irqsim-review.yml's runner needs to build
# irqsim (release, no tests) and to run `irqsim kernel build` on two seL4
# trees (docs/REVIEW.md, "In your CI"). The Debian/Ubuntu packages are
# scripts/setup.sh's and docs/REAL-KERNEL.md's ("Running it on your own
# tree") without the test suite's (CMocka, lcov, Clang, Chromium);
# installed with apt-get (through sudo when not root) when any is missing.
# pyfdt, which the kernel's configure imports and Debian does not package,
# and any Python module of the list the distribution has no package for,
# are installed from PyPI with pip into PYDIR (pip --target: pure Python,
# no system site-packages touched), which then holds pyfdt/pyfdt.py as
# `irqsim review --pyfdt PYDIR` wants it. The workflow puts PYDIR on
# PYTHONPATH and in IRQSIM_PYFDT (review-pr.sh passes --pyfdt).
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 PYDIR" >&2; exit 2; }
pydir=$1

# the tools: compile irqsim and the host kernel, the kernel's own configure
tools=(cmake make gcc binutils zlib1g-dev ninja-build device-tree-compiler python3 python3-pip)
# the Python modules the kernel's configure imports, as Debian package:module
# (build-kernel.sh checks the same list; typing_extensions: master's tools/umm.py)
modules=(python3-ply:ply python3-lxml:lxml python3-future:future python3-pyelftools:elftools
         python3-jinja2:jinja2 python3-six:six python3-yaml:yaml python3-typing-extensions:typing_extensions)

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${tools[@]}" "${modules[@]%%:*}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    "${sudo[@]}" apt-get update -qq
    # a module the distribution does not package (python3-future left Debian
    # after bookworm) comes from pip below instead
    avail=()
    for p in "${missing[@]}"; do
        if [ -n "$(apt-cache show --no-all-versions "$p" 2>/dev/null | head -1)" ]; then avail+=("$p")
        else echo "install-deps: no package $p here" >&2; fi
    done
    [ ${#avail[@]} = 0 ] ||
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${avail[@]}"
fi

# /usr/bin/python3: build-kernel.sh puts /usr/bin first for the kernel's CMake
pip=(pyfdt)
for m in "${modules[@]}"; do
    /usr/bin/python3 -c "import ${m#*:}" 2>/dev/null || pip+=("${m#*:}")
done
pip=("${pip[@]/#elftools/pyelftools}")
pip=("${pip[@]/#yaml/pyyaml}")
pip=("${pip[@]/#typing_extensions/typing-extensions}")
mkdir -p "$pydir"
/usr/bin/python3 -m pip install --quiet --disable-pip-version-check --target "$pydir" "${pip[@]}"
[ -f "$pydir/pyfdt/pyfdt.py" ] || { echo "install-deps: no pyfdt/pyfdt.py in $pydir after pip" >&2; exit 1; }
echo "install-deps: from pip into $pydir: ${pip[*]}" >&2
echo "$pydir"
