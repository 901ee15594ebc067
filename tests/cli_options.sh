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
expect 2 "irqsim gen: --target: expected irq, signal, call or reply_recv, got 'sig'" gen --target sig
expect 2 "irqsim exhaust: --kernel: expected base or master, got 'next'" exhaust --kernel next
expect 2 "irqsim cost: --board: unknown board 'pc99' (imx8mm " cost --board pc99
expect 2 "irqsim fuzz: --board: unknown board 'pc99' (imx8mm " fuzz --board pc99
expect 2 "irqsim run: --path: expected slow or fast, got 'both'" run --path both x.scen
expect 2 "irqsim bench: --axis: expected default, threads, prios, refills or domains, got 'x'" bench --axis x
expect 2 "irqsim replay: --fastpath: expected pr1227 or fixed, got 'merged'" replay --fastpath merged t.jsonl
expect 2 "irqsim fuzz: --fastpath: the signal target's fastpaths are merged|fixed, got 'pr1227'" \
    fuzz --target signal --fastpath pr1227
expect 2 "irqsim validate: --target: expected irq, signal, call or reply_recv, got 'x'" validate --real b --target x
expect 2 "irqsim report: one JSON file only (got 'a.json' and 'b.json')" report a.json b.json
expect 2 "irqsim exhaust: takes files only with --merge (got 'x.scen')" exhaust x.scen
expect 2 "irqsim kernel coverage: unknown option '--frobnicate'" kernel coverage --frobnicate
expect 2 "irqsim kernel coverage: --seconds: expected a number from 0.001 to 86400, got '0'" kernel coverage --seconds 0 b
expect 2 "irqsim kernel coverage: one BUILD only, got another: 'c'" kernel coverage b c
expect 2 "irqsim kernel coverage: BUILD is required" kernel coverage --all
"$irqsim" kernel coverage --help >/dev/null 2>"$err" || fail "irqsim kernel coverage --help exited $?"

# The help texts: what they list comes from the tables (tools/cli.c cli_usage).
help() { "$irqsim" "$@" --help 2>&1; }
# every board --board takes (the list an error gives, from sim/config.c) in
# every usage that offers --board, and in the overview
"$irqsim" cost --board pc99 2>"$err"
boards=$(sed -n "s/.*unknown board 'pc99' (\(.*\))$/\1/p" "$err")
[ "$(echo "$boards" | wc -w)" -ge 8 ] || fail "the board list is short: '$boards'"
for cmd in fuzz exhaust cost; do
    for b in $boards; do
        help $cmd | grep -q -- "--board NAME .*\b$b\b" || fail "irqsim $cmd --help does not list board $b"
    done
done
for b in $boards; do
    "$irqsim" --help | grep -q "\b$b\b" || fail "irqsim --help does not list board $b"
done
# exhaust --help names its other modes
help exhaust | grep -q -- '--executions' || fail "irqsim exhaust --help does not mention --executions"
help exhaust | grep -q -- '--merge STATE' || fail "irqsim exhaust --help does not mention --merge"
# fuzz --help is fuzz's, not the overview, and lists the defects of the tables
help fuzz | head -1 | grep -q '^usage: irqsim fuzz ' || fail "irqsim fuzz --help: $(help fuzz | head -1)"
help fuzz | grep -q '^  minimize\|^  exhaust' && fail "irqsim fuzz --help prints other commands' usage"
help fuzz | grep -q 'irq: F1-F8, F10-F12 on base' || fail "irqsim fuzz --help: the base kernel's defects"
help fuzz | tr -s ' \n' ' ' | grep -q 'F1-F12 on master; signal: S1-S6, S9-S11' ||
    fail "irqsim fuzz --help: master's and the signal target's defects"
help report | grep -q 'F1-F12 of the IRQ target, S1-S6, S9-S11 of the signal target' ||
    fail "irqsim report --help: the defects"
# no usage names a range the tables do not have
for cmd in check fuzz sim exhaust replay cost bench report validate review; do
    if help $cmd | grep -q 'F1-F9\|S1-S9\|F1-F8)'; then fail "irqsim $cmd --help names F1-F9, S1-S9 or F1-F8"; fi
done
echo "cli_options: every command's options read and refused alike"
