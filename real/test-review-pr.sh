#!/bin/bash
# test-review-pr.sh IRQSIM KERNELS_DIR CACHE: issue 30 item 4, irqsim review
# in a seL4 developer's CI. The commands examples/github/irqsim-review.yml
# runs, run here on local clones: the PR head's tarball made a git
# repository (its commit the base), a pull request's commit on it, both
# cloned and checked out as the workflow's two checkouts, and
# examples/github/review-pr.sh HEAD BASE OUT on them.
#   1. a comment-only change in fastpath.c: exit 0 (review's 0, pass: a
#      comment is no code left unrun), review.md opens with the verdict
#      **Nothing new**, the JSON parses, the comment names both commits and
#      holds review.md, the job summary gets it
#   2. fastpath_irq's priority check `>=` made `>`: review's exit 1, the
#      script's exit 1 (the job fails), the comment says Something new,
#      reproducers written
#   3. review's other statuses, from a stand-in for irqsim: 6 passes with a
#      warning, 2, 3, 5 and a signal fail with review's status; without
#      review.md the comment shows the log; a long review.md is cut to what
#      GitHub takes
#   4. post-comment.sh with a stand-in for gh: posts a new comment, or
#      updates the one with the marker
#   5. the workflow parses as YAML (python3-yaml; else said and skipped),
#      runs on pull_request, checks out the head and the base commits, and
#      calls scripts that exist
# One configuration (imx8mm-evk, release), 200 states. Exit 77 (CTest:
# skipped) without the tarball or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
here=$(cd "$(dirname "$0")" && pwd)
gh_dir=$here/../examples/github
tarball=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$tarball"
# no GitHub runner's variables but the ones a case sets
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY GITHUB_RUN_ID GITHUB_SERVER_URL GITHUB_REPOSITORY IRQSIM_PYFDT
git() { command git -c user.name=irqsim -c user.email=irqsim@invalid -c init.defaultBranch=master \
    -c advice.detachedHead=false "$@"; }

# ---- the fork: the tarball's tree as its base commit, two pull requests ----
mkdir "$tmp/x" && tar -xzf "$tarball" -C "$tmp/x" || exit 1
repo=$tmp/x/seL4
f=src/fastpath/fastpath.c
grep -q 'tcbPriority >= dest->tcbPriority' "$repo/$f" || { echo "FAIL: no priority check in fastpath_irq"; exit 1; }
{ git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" commit -qm base; } || exit 1
base_sha=$(git -C "$repo" rev-parse HEAD)
echo "/* a pull request that changes a comment only */" >>"$repo/$f"
git -C "$repo" commit -qam "comment only" || exit 1
comment_sha=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" checkout -q "$base_sha" &&
    sed -i 's/tcbPriority >= dest->tcbPriority/tcbPriority > dest->tcbPriority/' "$repo/$f" &&
    git -C "$repo" commit -qam "fastpath_irq: > for >=" || exit 1
bug_sha=$(git -C "$repo" rev-parse HEAD)
# the workflow's checkouts: the head's commit and the base's, each a clone
clone() { git clone -q "$repo" "$tmp/$1" && git -C "$tmp/$1" checkout -q "$2"; }
clone base "$base_sha" && clone comment "$comment_sha" && clone bug "$bug_sha" || exit 1

# pr NAME [REVIEW_ARG...]: review-pr.sh on clone NAME against the base;
# rc its exit status, out its output folder
pr() {
    name=$1 out=$tmp/out-$1
    shift
    "$gh_dir/review-pr.sh" "$tmp/$name" "$tmp/base" "$out" "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
    rc=$?
    st=$(cat "$out/status" 2>/dev/null)
    [ "${st%% *}" = 3 ] && [ "$IRQSIM" = "$irqsim" ] && { echo "SKIP: $(grep -m1 build-kernel "$out/review.log")"; exit 77; }
}
real=(--configs imx8mm-evk:release --checks 200 --cache "$cache")

# 1. a comment change: nothing new, and a comment is no code left unrun
# (review's change measure: not 6): the job passes
export IRQSIM=$irqsim
t0=$(date +%s)
GITHUB_STEP_SUMMARY=$tmp/summary GITHUB_RUN_ID=42 GITHUB_REPOSITORY=me/seL4 pr comment "${real[@]}"
echo "     (comment: review-pr.sh ran $(($(date +%s) - t0)) s)"
out=$tmp/out-comment
if [ "$rc:$st" = "0:0 pass" ]; then ok "comment: exit $rc, status $st"
else bad "comment: exit $rc, status '$st', expected 0 and '0 pass'"; tail -5 "$tmp/comment.stderr"; fi
v=$(grep -m1 '^\*\*' "$out/review.md" 2>/dev/null)
[ "$v" = "**Nothing new**" ] && [ "$(grep -n -m1 '^\*\*' "$out/review.md" | cut -d: -f1)" -le 5 ] &&
    ok "comment: review.md opens with the verdict $v" || bad "comment: review.md's verdict: '$v'"
python3 -m json.tool "$out/review.json" >/dev/null && ok "comment: review.json parses" || bad "comment: review.json"
c=$out/comment.md
{ [ "$(head -1 "$c")" = "<!-- irqsim-review -->" ] && grep -q "\`${comment_sha:0:12}\` against its base \`${base_sha:0:12}\`" "$c" &&
    grep -q '^:\(white_check_mark\|warning\): \*\*Nothing new.* (`irqsim review` exit [06],' "$c" &&
    grep -qxF "## irqsim review" "$c" && grep -qxF "$v" "$c" && grep -q "me/seL4/actions/runs/42" "$c"; } &&
    ok "comment: comment.md has the marker, both commits, the outcome, review.md and the run's link" ||
    { bad "comment: comment.md"; head -6 "$c"; }
cmp -s "$c" "$tmp/summary" && ok "comment: the job summary is the comment" || bad "comment: the job summary"
grep -q "the Markdown: $out/review.md" "$tmp/comment.stdout" && ok "comment: stdout says where the Markdown is" ||
    bad "comment: stdout: $(tail -1 "$tmp/comment.stdout")"

# 2. a bug in fastpath_irq: something new, the job fails with review's 1
pr bug "${real[@]}"
out=$tmp/out-bug
[ "$rc:$st" = "1:1 fail" ] && ok "bug: exit 1, status $st" || { bad "bug: exit $rc, status '$st'"; tail -5 "$tmp/bug.stderr"; }
grep -q '^:x: \*\*Something new\*\*' "$out/comment.md" && grep -qxF "**Something new**" "$out/review.md" &&
    ls "$out"/review-repro/*.scen >/dev/null 2>&1 && ok "bug: the comment says Something new, reproducers written" ||
    bad "bug: comment, verdict or reproducers"

# 3. review's other exit statuses, from a stand-in that writes a review.md
# of BIG bytes (none when 0) and exits RC
cat >"$tmp/fake-irqsim" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && md=$2; shift; done
echo "irqsim review: progress" >&2
if [ "$BIG" != 0 ]; then
    { printf '## irqsim review\n\n**Nothing new**\n\n'; yes 'a line of a long report, kinds and counts' | head -c "$BIG"; } >"$md"
fi
[ "$RC" -lt 128 ] || kill -TERM $$
exit "$RC"
EOF
chmod +x "$tmp/fake-irqsim"
# fake RC BIG WANT STATUS TEXT: the script's exit WANT, status STATUS, TEXT in the comment
fake() {
    GITHUB_ACTIONS=true RC=$1 BIG=$2 IRQSIM=$tmp/fake-irqsim pr "fake$1" --checks 1
    [ "$rc:$st" = "$3:$4" ] && grep -qF "$5" "$out/comment.md" && ok "review exit $1: script exit $3, '$4', comment: $5" ||
        { bad "review exit $1: script exit $rc, '$st' (expected $3, '$4'), or no '$5' in the comment"; sed -n 1,5p "$out/comment.md"; }
}
fake 6 100 0 "6 warn" ":warning: **Nothing new, but changed lines never ran**"
grep -q '^::warning::irqsim review: ' "$tmp/fake6.stdout" && ok "review exit 6: a warning annotation" || bad "review exit 6: no ::warning::"
fake 5 100 5 "5 fail" "**Incomplete**"
fake 2 0 2 "2 fail" "irqsim review: progress"   # no review.md: the log's tail
grep -q '^::error::' "$tmp/fake2.stdout" && ok "review exit 2: an error annotation" || bad "review exit 2: no ::error::"
fake 3 0 3 "3 fail" "cannot be built on this runner"
fake 143 0 143 "143 fail" "a status this script does not know"
fake 1 200000 1 "1 fail" "cut at 60000 bytes"
n=$(wc -c <"$tmp/out-fake1/comment.md")
[ "$n" -le 65536 ] && ok "a 200 kB review.md: a comment of $n characters" || bad "a 200 kB review.md: a comment of $n characters"

# 4. post-comment.sh, with a stand-in gh that logs its calls and lists
# comment $FAKE_ID (none if empty) as the marker's
mkdir "$tmp/bin"
cat >"$tmp/bin/gh" <<'EOF'
#!/bin/sh
echo "$*" >>"$GH_LOG"
case "$*" in *--paginate*) [ -z "$FAKE_ID" ] || echo "$FAKE_ID" ;; esac
EOF
chmod +x "$tmp/bin/gh"
post() { PATH=$tmp/bin:$PATH GH_LOG=$tmp/gh-$1.log FAKE_ID=$1 GITHUB_REPOSITORY=me/seL4 PR_NUMBER=7 \
    "$gh_dir/post-comment.sh" "$tmp/out-comment/comment.md" >/dev/null; }
post "" && grep -q '<!-- irqsim-review -->' "$tmp/gh-.log" &&
    grep -qxF "api --silent -X POST repos/me/seL4/issues/7/comments -F body=@$tmp/out-comment/comment.md" "$tmp/gh-.log" &&
    ok "post-comment: no comment of its own yet: posts one" || { bad "post-comment: new"; cat "$tmp/gh-.log"; }
post 99 && grep -qxF "api --silent -X PATCH repos/me/seL4/issues/comments/99 -F body=@$tmp/out-comment/comment.md" "$tmp/gh-99.log" &&
    ! grep -q POST "$tmp/gh-99.log" && ok "post-comment: its comment 99 there: updates it" ||
    { bad "post-comment: update"; cat "$tmp/gh-99.log"; }

# 5. the workflow
wf=$gh_dir/irqsim-review.yml
if python3 -c "import yaml" 2>/dev/null; then
    python3 - "$wf" "$gh_dir" <<'EOF' && ok "workflow: parses; pull_request; head and base checked out; its scripts exist" || bad "workflow"
import os, re, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
on = w.get("on", w.get(True))          # YAML 1.1 reads the key on as true
assert "pull_request" in on, "not on pull_request"
assert w["permissions"]["pull-requests"] == "write"
steps = w["jobs"]["review"]["steps"]
refs = [s["with"]["ref"] for s in steps if s.get("uses", "").startswith("actions/checkout")]
assert refs == ["${{ github.event.pull_request.head.sha }}", "${{ github.event.pull_request.base.sha }}"], refs
assert "CHANGE-ME" in w["env"]["IRQSIM_URL"]
runs = "\n".join(s.get("run", "") for s in steps)
scripts = set(re.findall(r"irqsim/examples/github/([\w.-]+)", runs))
assert scripts == {"install-deps.sh", "review-pr.sh", "post-comment.sh"}, scripts
for s in scripts:
    assert os.access(os.path.join(sys.argv[2], s), os.X_OK), s
assert "review-pr.sh head base review" in runs
EOF
else
    echo "skip workflow: python3 has no yaml module (Debian: python3-yaml), the YAML is not checked"
fi
exit $fail
