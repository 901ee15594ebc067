#!/bin/sh
# Every command reads its options through one parser (tools/cli.c): each
# takes --help (exit 0, its usage on stdout), refuses an unknown option, a
# missing value, a number out of range and a bad name with exit 2 and a
# message naming the command and the option.
#
#   cli_options.sh IRQSIM
set -u
irqsim=$1
fail() { echo "cli_options: FAIL: $*"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# expect STATUS PATTERN ARGS...: the exit status and a line of stderr
expect() {
    want=$1 pat=$2
    shift 2
    "$irqsim" "$@" >/dev/null 2>"$err"
    rc=$?
    [ "$rc" = "$want" ] || fail "irqsim $*: exit $rc, expected $want ($(head -1 "$err"))"
    grep -q -- "$pat" "$err" || fail "irqsim $*: no '$pat' in: $(head -1 "$err")"
}

for cmd in check run minimize gen ratio fuzz sim exhaust replay cost bench report; do
    "$irqsim" $cmd --help >/dev/null 2>"$err" || fail "irqsim $cmd --help exited $?"
    expect 2 "irqsim $cmd: unknown option '--frobnicate'" $cmd --frobnicate
done
for cmd in validate; do
    "$irqsim" $cmd --help >/dev/null 2>"$err" || fail "irqsim $cmd --help exited $?"
done
expect 2 "irqsim fuzz: --seed needs a value" fuzz --seed
expect 2 "irqsim fuzz: --jobs: expected a whole number from 1 to 64, got '0'" fuzz --jobs 0
expect 2 "irqsim fuzz: --jobs: expected a whole number from 1 to 64, got '1.5'" fuzz --jobs 1.5
expect 2 "irqsim fuzz: --seconds: expected a number from 0.1 to 86400, got 'x'" fuzz --seconds x
expect 2 "irqsim fuzz: --seed: expected a whole number from 0, got '-1'" fuzz --seed -1
expect 2 "irqsim gen: --target: expected irq or signal, got 'sig'" gen --target sig
expect 2 "irqsim exhaust: --kernel: expected base or master, got 'next'" exhaust --kernel next
expect 2 "irqsim cost: --board: unknown board 'pc99' (imx8mm " cost --board pc99
expect 2 "irqsim fuzz: --board: unknown board 'pc99' (imx8mm " fuzz --board pc99
expect 2 "irqsim run: --path: expected slow or fast, got 'both'" run --path both x.scen
expect 2 "irqsim bench: --axis: expected default, threads, prios, refills or domains, got 'x'" bench --axis x
expect 2 "irqsim replay: --fastpath: expected pr1227 or fixed, got 'merged'" replay --fastpath merged t.jsonl
expect 2 "irqsim fuzz: --fastpath: the signal target's fastpaths are merged|fixed, got 'pr1227'" \
    fuzz --target signal --fastpath pr1227
expect 2 "irqsim validate: --target: expected irq or signal, got 'x'" validate --real b --target x
expect 2 "irqsim report: one JSON file only (got 'a.json' and 'b.json')" report a.json b.json
expect 2 "irqsim exhaust: takes no files (got 'x.scen')" exhaust x.scen
echo "cli_options: every command's options read and refused alike"
