#!/bin/sh
# doc_links.sh ROOT: every relative link in the Markdown files under ROOT
# ([text](path), [text](path#anchor), [text](#anchor)) must name a file
# that exists and, with an anchor, a heading of that file (GitHub's rule:
# lower case, punctuation dropped, spaces to '-', a repeated heading gets
# -1, -2, ...). Every docs/<page>.md named in a Markdown, C, shell, Python or
# CMake file must exist too (a source comment citing a page that moved).
# Fenced code blocks and inline code are not read. Build trees, out/ and
# tests/fixtures/ (unless ROOT is inside it) are skipped.
# Exit 0 and "doc links: N links, M page names, all resolve", or 1 with
# one "FILE:LINE: ..." line per broken link.
root=${1:?usage: doc_links.sh ROOT}
cd "$root" || exit 2
LC_ALL=C
export LC_ALL
files=$(find . \( -path ./.git -o -path './build*' -o -path ./out -o -path ./tests/fixtures \) -prune -o \
        -type f -name '*.md' -print | sed 's|^\./||' | sort)
[ -n "$files" ] || { echo "doc links: no Markdown file under $root"; exit 2; }

# the anchors of a Markdown file, one a line
anchors() {
    awk '
    /^(```|~~~)/ { fence = !fence; next }
    fence { next }
    /^#+ / {
        h = $0; sub(/^#+ +/, "", h); sub(/ +#+ *$/, "", h)
        h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
        n = seen[h]++
        print (n ? h "-" n : h)
    }' "$1"
}

# every relative link: FILE<TAB>LINE<TAB>TARGET
links() {
    awk '
    /^(```|~~~)/ { fence = !fence; next }
    fence { next }
    {
        s = $0; gsub(/`[^`]*`/, "C", s)
        while (match(s, /\]\([^) ]+\)/)) {
            t = substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
            if (t ~ /^[a-z]+:/) continue
            print FILENAME "\t" FNR "\t" t
        }
    }' "$@"
}

bad=0
nlinks=0
tab=$(printf '\t')
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# shellcheck disable=SC2086
links $files > "$tmp"
while IFS="$tab" read -r f line t; do
    nlinks=$((nlinks + 1))
    path=${t%%#*}
    anchor=
    case $t in *'#'*) anchor=${t#*#} ;; esac
    if [ -z "$path" ]; then
        target=$f
    else
        target=$(dirname "$f")/$path
    fi
    if [ ! -e "$target" ]; then
        echo "$f:$line: $t: no such file"
        bad=1
        continue
    fi
    if [ -n "$anchor" ]; then
        case $target in *.md) ;; *) continue ;; esac
        if ! anchors "$target" | grep -qxF "$anchor"; then
            echo "$f:$line: $t: no heading with anchor #$anchor in $target"
            bad=1
        fi
    fi
done < "$tmp"

# docs/<page>.md named anywhere (prose and source comments)
npages=0
grep -rnoE --include='*.md' --include='*.c' --include='*.h' --include='*.sh' --include='*.py' \
     --include='*.txt' --include='*.cmake' --include=CMakeLists.txt --include=Dockerfile \
     --exclude-dir=.git --exclude-dir='build*' --exclude-dir=out --exclude-dir=fixtures \
     'docs/[A-Za-z0-9_./-]+\.md' . > "$tmp"
while IFS=: read -r f line p; do
    npages=$((npages + 1))
    if [ ! -e "$p" ]; then
        echo "${f#./}:$line: $p: no such page"
        bad=1
    fi
done < "$tmp"

[ $bad = 0 ] || exit 1
echo "doc links: $nlinks links, $npages page names, all resolve"
