#!/bin/sh
# The include graph of irqsim's own C files, checked for the layout rules of
# sim/README.md and check/README.md:
#   1. no circle between modules (a module is x.c with x.h; an edge A -> B
#      when A.c or A.h has #include "B.h"),
#   2. the kernel model (sim/) includes nothing from outside sim/,
#   3. every #include "..." names a header of the project, found once.
# Usage: include_graph.sh [ROOT] (default: the folder above this script).
# Prints each violation and exits 1; prints the module count and exits 0.
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
dirs="sim check tools tests fuzz real"
files=$(for d in $dirs; do [ -d "$d" ] && find "$d" -name '*.[ch]' -not -path '*/shim/*' -not -path '*/fixtures/*'; done | sort)
[ -n "$files" ] || { echo "include_graph: no C files under $root" >&2; exit 2; }
# one line per include: FILE HEADER
for f in $files; do
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | sed "s|^|$f |"
done | awk -v files="$files" '
function base(p) { sub(/.*\//, "", p); return p }
function mod(p) { p = base(p); sub(/\.[ch]$/, "", p); return p }
function dir(p) { return p ~ /\// ? substr(p, 1, index(p, "/") - 1) : "." }
BEGIN {
    n = split(files, all, "\n")
    for (i = 1; i <= n; i++) {
        h = base(all[i])
        if (all[i] !~ /\.h$/) continue
        if (h in where) { printf "include_graph: two headers named %s: %s and %s\n", h, where[h], all[i]; bad = 1 }
        where[h] = all[i]
    }
    for (i = 1; i <= n; i++) modules[mod(all[i])] = 1
}
{
    f = $1; h = base($2)
    if (!(h in where)) { printf "include_graph: %s includes \"%s\", not a header of the project\n", f, $2; bad = 1; next }
    if (dir(f) == "sim" && dir(where[h]) != "sim") {
        printf "include_graph: %s (kernel model) includes %s from outside sim/\n", f, where[h]; bad = 1
    }
    a = mod(f); b = mod(h)
    if (a != b && !((a, b) in edge)) { edge[a, b] = 1; out[a] = out[a] " " b }
}
# depth-first search; colour 1 = on the current path, 2 = done
function visit(m,    k, nb, i) {
    colour[m] = 1; path[++depth] = m
    k = split(out[m], nb, " ")
    for (i = 1; i <= k; i++) {
        if (colour[nb[i]] == 1) report(nb[i])
        else if (!colour[nb[i]]) visit(nb[i])
    }
    depth--; colour[m] = 2
}
function report(m,    i, s) {
    for (i = depth; i > 0 && path[i] != m; i--) ;
    s = path[i]
    for (i = i + 1; i <= depth; i++) s = s " -> " path[i]
    printf "include_graph: circle: %s -> %s\n", s, m
    bad = 1
}
END {
    for (m in modules) if (!colour[m]) visit(m)
    if (bad) exit 1
    c = 0; for (m in modules) c++
    printf "include_graph: %d modules, no circle, sim/ includes only sim/\n", c
}'
