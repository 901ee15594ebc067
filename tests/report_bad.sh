#!/bin/sh
# irqsim report on bad input (issue 20): every case exits 2 with a message
# naming the JSON file (and its line, or the defect and the reproducer) and
# the reason, and no byte of a file that is not a reproducer reaches the
# review.
#
#   report_bad.sh IRQSIM WORKDIR
set -u
irqsim=$1
work=$2
fail() { echo "report_bad: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

"$irqsim" fuzz --fastpath pr1227 --seed 1 --checks 3000 --quiet --out out --json run.json > /dev/null
[ $? = 1 ] || fail "the fuzz run found no divergence"
"$irqsim" report run.json > good.md || fail "report of a good run exited $?"
first=$(sed -n 's|.*"reproducer": "\(out/[^"]*\)".*"reproducer_class".*|\1|p' run.json | head -n 1)
[ -n "$first" ] || fail "no defect reproducer in run.json"

# expect NAME PATTERN: irqsim report NAME.json exits 2, stderr matches PATTERN
expect() {
  "$irqsim" report "$1.json" > "$1.md" 2> "$1.err"
  rc=$?
  [ $rc = 2 ] || { cat "$1.err"; fail "$1: exit $rc, expected 2"; }
  grep -q -e "$2" "$1.err" || { cat "$1.err"; fail "$1: the message does not match '$2'"; }
  [ ! -s "$1.md" ] || fail "$1: a review was written"
}
# repro NAME PATH: run.json with the first defect's reproducer replaced by PATH
repro() {
  sed "s|\"reproducer\": \"$first\"|\"reproducer\": \"$2\"|" run.json > "$1.json"
}

# reproducers that are not what the run wrote
repro passwd /etc/passwd
expect passwd "^passwd.json: reproducer of F[0-9]: /etc/passwd: not a scenario file (line 1 does not parse)"
repro environ /proc/self/environ
expect environ "^environ.json: reproducer of F[0-9]: /proc/self/environ: "
repro zero /dev/zero
expect zero "^zero.json: reproducer of F[0-9]: /dev/zero: not a regular file"
repro dir out
expect dir "^dir.json: reproducer of F[0-9]: out: not a regular file"
mkfifo fifo
repro fifo fifo
expect fifo "^fifo.json: reproducer of F[0-9]: fifo: not a regular file"
head -c 1048577 /dev/zero | tr '\0' '#' > big.scen
repro big big.scen
expect big "^big.json: reproducer of F[0-9]: big.scen: larger than 1048576 bytes"
{ cat "$first"; printf 'tcb x\0\n'; } > nul.scen
repro nul nul.scen
expect nul "^nul.json: reproducer of F[0-9]: nul.scen: holds a NUL byte"
"$irqsim" gen --target signal --seed 1 > signal.scen || fail "irqsim gen --target signal"
repro other signal.scen
expect other "^other.json: reproducer of F[0-9]: signal.scen: a scenario of another entry than target irq's"
# a scenario reproducer beside the JSON file is found there
mkdir -p sub && cp -r out sub/out && cp run.json sub/run.json
(cd / && "$irqsim" report "$work/sub/run.json" > "$work/beside.md") || fail "the reproducer beside the JSON was not read"
cmp -s good.md beside.md || fail "the review from beside the JSON differs"

# a reproducer whose comment holds a code fence stays inside its block
{ cat "$first"; echo '# ```'; echo '# ````'; } > fenced.scen
repro fenced fenced.scen
"$irqsim" report fenced.json > fenced.md || fail "fenced: report exited $?"
grep -q '^`````$' fenced.md || fail "fenced: the block is not fenced with five backticks"

# JSON of other commands
"$irqsim" exhaust --threads 1 --quiet --json exhaust.json > /dev/null
expect exhaust '^exhaust.json: no .*"checks".*not the JSON of `irqsim fuzz --json`'
"$irqsim" fuzz --mode workload --checks 3 --seed 1 --quiet --json wl.json > /dev/null
expect wl '^wl.json: "mode": "workload"'
printf '[1, 2]\n' > array.json
expect array "^array.json:1: not a JSON object"
sed 's|"checks": [0-9]*|"checks": "many"|' run.json > typed.json
expect typed '^typed.json: no "checks" (of another type)'
sed 's|"defects": \[|"defects": [3, |' run.json > elem.json
expect elem '^elem.json: "defects"\[0\] is not an object'

# the JSON reader's limits
awk 'BEGIN { for (i = 0; i < 70; i++) printf "["; print "" }' > deep.json
expect deep "^deep.json:1: not valid JSON: column 65: nested too deeply"
awk 'BEGIN { printf "{\"fastpath\": \""; for (i = 0; i < 4097; i++) printf "a"; print "\"}" }' > longstr.json
expect longstr "^longstr.json:1: not valid JSON: column [0-9]*: string too long"
awk 'BEGIN { printf "{\"x\": [0"; for (i = 0; i < 300000; i++) printf ",0"; print "]}" }' > many.json
expect many "^many.json:1: not valid JSON: column [0-9]*: too many values"
head -c 4194305 /dev/zero | tr '\0' ' ' > huge.json
"$irqsim" report huge.json > huge.md 2> huge.err
[ $? = 2 ] || fail "a JSON over 4 MiB did not exit 2"
grep -q "huge.json: larger than 4194304 bytes" huge.err || { cat huge.err; fail "huge: no size message"; }
printf '{\n"fastpath": "pr1227",\n\n"classes": [}\n' > line4.json
expect line4 "^line4.json:4: not valid JSON: column 13: expected a value"
# names and paths the review pastes: one that would break its Markdown
# (a backtick ends a code span, < starts HTML) is refused, naming where
cls=$(sed -n 's|.*"reproducer_class": "\([^"]*\)".*|\1|p' run.json | head -n 1)
sed "0,/\"reproducer_class\": \"$(echo "$cls" | sed 's|/|\\/|g')\"/s||\"reproducer_class\": \"x\`<b>\"|" run.json > tick.json
grep -q 'x`<b>' tick.json || fail "tick.json was not made"
expect tick "^tick.json: defects\[[0-9]*\]\.reproducer_class: the string holds character 0x60"
# strings of a JSON reach the review as text (issue 32 item 8): no HTML,
# image, link, @mention or autolinked URL of theirs comes out as markup
# (inside a code span nothing is markup: the spans are taken out first)
# nomarkup NAME: NAME.md holds none of those, and NAME.md was written
nomarkup() {
  [ -s "$1.md" ] || fail "$1: no review written"
  perl -pe 's/(`+)(.*?[^`])\1(?!`)//g' "$1.md" > "$1.text"
  for bad in '<img' '<b>' '!\[' '](' '@octocat' 'http://'; do
    ! grep -q -e "$bad" "$1.text" || { grep -e "$bad" "$1.text"; fail "$1: '$bad' reaches the review as markup"; }
  done
}
mark='![i](http://e.invalid/x.png) [l](http://e.invalid) @octocat <img src=x>'
cat > real.json <<EOF2
{"command": "validate", "build": "b<b>", "board": "<img src=b>", "commit": "@octocat", "checks": 1, "seconds": 1,
 "diverged": 1, "halts": 0, "known_halts": 0, "defects": {"<img src=k>": 1},
 "kinds": [{"path": "<img src=p>", "fields": "$mark", "model_cause": "<img src=m>", "count": 1, "seed": 1,
            "reproducer": "a\`b<b>"}]}
EOF2
"$irqsim" report real.json > real.md 2> real.err || { cat real.err; fail "real: report exited $?"; }
nomarkup real
grep -q '``a`b<b>``' real.md || fail "real: a reproducer with a backtick is not one code span"
cat > review.json <<EOF2
{"command": "review", "tree": "t", "baseline": "@octocat", "new": 1, "gone": 0, "seed": 1,
 "configs": [{"config": "<img src=c>", "ran": true, "states": 1, "new": 1, "gone": 0, "tree": {}, "baseline": {},
              "kinds": [{"check": "<img src=k>", "new": true, "halt": false, "fields": "$mark",
                         "model_cause": "x<b>", "defects": "<img src=d> @octocat", "change": "[l](http://e.invalid)",
                         "tree": 1, "baseline": 0}]},
             {"config": "c2", "ran": false, "why": "$mark", "kinds": [], "tree": {}}]}
EOF2
"$irqsim" report review.json > review.md 2> review.err || { cat review.err; fail "review: report exited $?"; }
nomarkup review
sed '0,/"fields": \[/s||"fields": ["![i](http://e.invalid/x.png) [l](http://e.invalid) @octocat", |' run.json > fields.json
grep -q '@octocat' fields.json || fail "fields.json was not made"
"$irqsim" report fields.json > fields.md 2> fields.err || { cat fields.err; fail "fields: report exited $?"; }
nomarkup fields
echo "report_bad: every bad reproducer and JSON refused with exit 2"
