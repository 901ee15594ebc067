#!/bin/sh
# `irqsim replay` on bad traces (issue 20, item 1; docs/inputs.md): every
# one is refused with "FILE:LINE: problem" and exit 2, in bounded time and
# memory, without a sanitizer report; a captured entry state that breaks
# an entry invariant is refused, never run through the model. The inputs
# are made here from a valid one-record trace (tests/traces).
#
#   replay_bad.sh IRQSIM TRACE.jsonl.gz
set -u
irqsim=$1
base=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
good=$tmp/good.jsonl
gzip -dc "$base" > "$good" || { echo "replay_bad: cannot read $base" >&2; exit 1; }

# expect NAME FILE STATUS PATTERN: replay FILE (30 s at most), want STATUS
# and a line of its output matching the extended regex PATTERN
expect() {
  name=$1 file=$2 want=$3 pattern=$4
  timeout 30 "$irqsim" replay "$file" > "$tmp/out" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
    echo "FAIL $name: exit $rc (want $want), output:"
    head -c 2000 "$tmp/out"
    echo "(wanted a line matching: $pattern)"
    fails=$((fails + 1))
  else
    echo "ok   $name: $(grep -E -m1 -- "$pattern" "$tmp/out")"
  fi
}

# variant NAME SED-SCRIPT: the good trace edited
variant() {
  sed -e "$2" "$good" > "$tmp/$1.jsonl"
  if cmp -s "$good" "$tmp/$1.jsonl"; then
    echo "FAIL $1: the edit changed nothing (the base trace changed?)"
    fails=$((fails + 1))
  fi
}

expect good "$good" 0 "1 entries: 1 agree"

# a record's IRQ table as an array: its members have no key (segfault)
variant irqs_array 's/"irqs":{"27":{"state":"Timer","captype":0},"30":{[^}]*}}/"irqs":[1,2]/'
expect irqs_array "$tmp/irqs_array.jsonl" 2 "irqs_array.jsonl:2: \"irqs\" is not an object"
# a key that is not a number was read as IRQ 0
variant irqs_key 's/"irqs":{"27":/"irqs":{"x27":/'
expect irqs_key "$tmp/irqs_key.jsonl" 2 "irqs_key.jsonl:2: IRQ \"x27\" is not a number in the table"

# an SC's head past its refill_max, in the exit state (print_refills ran
# off the heap) and in the entry state (the model indexed past the ring)
variant head_exit 's/\("refill_max":2,"head":\)0\(,"tail":1,"refills":\[\[8765044,47435\]\)/\15\2/2'
expect head_exit "$tmp/head_exit.jsonl" 2 "head_exit.jsonl:2: SC refills: 2 slots for refill_max 2, head 5, tail 1"
variant head_entry 's/\("refill_max":2,"head":\)0\(,"tail":1,"refills":\[\[8765044,47435\]\)/\12\2/'
expect head_entry "$tmp/head_entry.jsonl" 2 "head_entry.jsonl:2: SC refills: 2 slots for refill_max 2, head 2, tail 1"

# an entry state the invariants refuse (the current thread is blocked):
# reported as refused and not replayed, exit 1 (a checker finding)
variant blocked_cur 's/"ksCurThread":"0xffffff8040039800"/"ksCurThread":"0xffffff807ff80c00"/'
expect blocked_cur "$tmp/blocked_cur.jsonl" 1 "blocked_cur.jsonl:2, seq 0: refused, not replayed"
expect blocked_cur_counts "$tmp/blocked_cur.jsonl" 1 "1 entries: 0 agree, 0 differ, 0 unreadable; 1 break an entry invariant"

# trace format -1 was read as 1; a format other than 1 is refused
variant version_neg 's/"irqsim_trace": 1,/"irqsim_trace": -1,/'
expect version_neg "$tmp/version_neg.jsonl" 2 "version_neg.jsonl:1: trace format -1; this irqsim reads 0 and 1"
variant version_str 's/"irqsim_trace": 1,/"irqsim_trace": "1",/'
expect version_str "$tmp/version_str.jsonl" 2 "version_str.jsonl:1: trace format of another type"

# malformed clock_reads were ignored (the entry counter stood in)
variant clock_reads 's/"clock_reads":\[\["0xffffff8040010e98",8912698\]\]/"clock_reads":[[8912698]]/'
expect clock_reads "$tmp/clock_reads.jsonl" 2 "clock_reads.jsonl:2: clock_reads entry 0 is not"
variant clock_obj 's/"clock_reads":\[\["0xffffff8040010e98",8912698\]\]/"clock_reads":{"a":1}/'
expect clock_obj "$tmp/clock_obj.jsonl" 2 "clock_obj.jsonl:2: \"clock_reads\" is not an array"

# issue 32 item 9: an empty clock_reads on an entry whose ksCurTime moved
# (the kernel read the clock) read as a false difference; a three-number
# dom_schedule entry was read as [domain, length]
variant clock_empty 's/"clock_reads":\[\["0xffffff8040010e98",8912698\]\]/"clock_reads":[]/'
expect clock_empty "$tmp/clock_empty.jsonl" 2 "clock_empty.jsonl:2: clock_reads lists no read but ksCurTime moved from 8765044 to 8912698"
variant dom3 's/"dom_schedule":\[\[0,1\]\]/"dom_schedule":[[0,1,7]]/'
expect dom3 "$tmp/dom3.jsonl" 2 "dom3.jsonl:2: dom_schedule entry 0 is not \[domain, length\]"

# JSON strings that would write their own scenario lines
variant board_nl 's/"board": "imx8mm"/"board": "imx8mm\\nirq 27"/'
expect board_nl "$tmp/board_nl.jsonl" 2 "board_nl.jsonl:1: header needs \"board\" and \"config\" strings"
variant state_word 's/"state":"Timer"/"state":"Timer masked=1"/'
expect state_word "$tmp/state_word.jsonl" 2 "state_word.jsonl:2: \"state\" is not a name"
variant addr_nl 's/"ksCurThread":"0xffffff8040039800"/"ksCurThread":"0xff\\nirq 27"/'
expect addr_nl "$tmp/addr_nl.jsonl" 2 "addr_nl.jsonl:2: \"ksCurThread\" is not an address"

# a NUL byte in a record: the record was dropped silently
{ head -n 1 "$good"; printf '{"seq":\0001}\n'; tail -n 1 "$good"; } > "$tmp/nul.jsonl"
expect nul "$tmp/nul.jsonl" 2 "nul.jsonl:2: a NUL byte in the line"
# /dev/zero: an endless line of NULs (the reader looped forever)
expect dev_zero /dev/zero 2 "/dev/zero:1: a NUL byte in the line"

# a line past the limit, from a small gzip (the reader held it whole)
head -c 3000000 /dev/zero | tr '\000' 'x' | gzip -c > "$tmp/long.jsonl.gz"
expect long_line "$tmp/long.jsonl.gz" 2 "long.jsonl.gz:1: line longer than 1048576 bytes"

# a gzip cut short in its trailer (every line intact: read with exit 0),
# one with a wrong CRC, one cut in the middle of its data
gzip -c "$good" > "$tmp/whole.gz"
size=$(wc -c < "$tmp/whole.gz")
head -c $((size - 4)) "$tmp/whole.gz" > "$tmp/cut_trailer.gz"
expect cut_trailer "$tmp/cut_trailer.gz" 2 "cut_trailer.gz:[0-9]+: corrupt or truncated gzip"
head -c $((size - 8)) "$tmp/whole.gz" > "$tmp/bad_crc.gz"
printf '\001\002\003\004' >> "$tmp/bad_crc.gz"
tail -c 4 "$tmp/whole.gz" >> "$tmp/bad_crc.gz"
expect bad_crc "$tmp/bad_crc.gz" 2 "bad_crc.gz:[0-9]+: corrupt or truncated gzip"
head -c $((size / 2)) "$tmp/whole.gz" > "$tmp/cut_data.gz"
expect cut_data "$tmp/cut_data.gz" 2 "cut_data.gz:[0-9]+: corrupt or truncated gzip"

# an empty line and a line that is not a record
{ cat "$good"; echo; } > "$tmp/empty_line.jsonl"
expect empty_line "$tmp/empty_line.jsonl" 2 "empty_line.jsonl:3: not a JSON object"

if [ "$fails" -ne 0 ]; then
  echo "replay_bad: $fails failed"
  exit 1
fi
echo "replay_bad: all passed"
