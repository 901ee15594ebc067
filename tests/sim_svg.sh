#!/bin/sh
# irqsim sim --svg: the timeline picture is well-formed XML (xmllint) and,
# when chromium is installed, renders in headless Chromium to a PNG of a
# plausible size. Usage: sim_svg.sh IRQSIM WORKLOAD OUTDIR
# Prints "SKIP: ..." (CTest SKIP_REGULAR_EXPRESSION) when a tool is missing.
irqsim=$1 workload=$2 out=$3
mkdir -p "$out" || exit 2
svg="$out/timeline.svg" png="$out/timeline.png"
"$irqsim" sim --svg "$svg" "$workload" > "$out/report.txt"
rc=$?
[ $rc -le 1 ] || { echo "irqsim sim failed ($rc)"; cat "$out/report.txt"; exit 1; }
[ -s "$svg" ] || { echo "no SVG written"; exit 1; }
if command -v xmllint > /dev/null; then
  xmllint --noout "$svg" || { echo "SVG is not well-formed XML"; exit 1; }
else
  python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$svg" || { echo "SVG is not well-formed XML"; exit 1; }
fi
grep -q "first divergence" "$svg" || { echo "SVG does not mark the first divergence"; exit 1; }
if ! command -v chromium > /dev/null; then
  echo "SKIP: chromium not installed (Debian package chromium): the SVG is well-formed, rendering not checked"
  exit 0
fi
rm -f "$png"
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,500 \
  --screenshot="$png" "file://$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")" > "$out/chromium.log" 2>&1
size=$(wc -c < "$png" 2>/dev/null || echo 0)
[ "$size" -gt 5000 ] || { echo "chromium did not render the SVG (PNG of $size bytes)"; cat "$out/chromium.log"; exit 1; }
echo "SVG well-formed and rendered by chromium ($size bytes of PNG)"
