#!/usr/bin/env bash
# review-pr.sh HEAD_DIR BASE_DIR OUT_DIR [REVIEW_ARG...]: `irqsim review` of
# a pull request's head against its base, as irqsim-review.yml runs it in a
# seL4 fork's CI (docs/REVIEW.md, "In your CI"); the workflow's steps call
# this script, so the same commands run here on local clones (CTest
# real_review_pr). Writes into OUT_DIR:
#   review.md, review.json, review-repro/   irqsim review's -o, --json, --out
#   review.log                              its stderr (progress, errors)
#   status                                  "RC OUTCOME": review's exit status and pass|warn|fail
#   comment.md                              the pull-request comment: the outcome, then review.md
# and, on a GitHub runner, appends comment.md to the job summary. The last
# line of stdout says where the Markdown is.
# REVIEW_ARG...: irqsim review's options of scope and build (default below:
# DEFAULT_ARGS); they replace the default, not add to it.
# Environment: IRQSIM, the binary (default build-release/irqsim of this
# checkout, built when missing); IRQSIM_PYFDT, passed as --pyfdt;
# IRQSIM_KERNEL_CACHE, where the kernel builds are cached.
# Exit status: 0 when the job should pass (nothing new; or warn, below),
# else review's own exit status (1 something new, 2-5 ...: the table in
# outcome()).
#
# review-pr.sh --build: build irqsim (release, without the tests) in this
# checkout, print the binary's path.
# SPDX-License-Identifier: BSD-2-Clause
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# the issue's matrix (irqsim review's default) at a quarter of its states:
# a bug on a domain or two-core path shows only in its configuration
DEFAULT_ARGS=(--checks 50000)
# the comment starts with this line, so that post-comment.sh finds and
# updates its own comment instead of adding one per push
MARKER='<!-- irqsim-review -->'
# GitHub refuses a comment body past 65,536 characters
MAX_MD=60000

build() {
    local b=$root/build-release
    if ! cmake -S "$root" -B "$b" -DCMAKE_BUILD_TYPE=Release -DIRQSIM_TESTS=OFF >/dev/null ||
        ! cmake --build "$b" -j"${IRQSIM_BUILD_JOBS:-$(nproc)}" --target irqsim >/dev/null; then
        echo "review-pr: cannot build irqsim in $b" >&2
        return 1
    fi
    echo "$b/irqsim"
}
if [ "${1-}" = --build ]; then
    build || exit 1
    exit 0
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 HEAD_DIR BASE_DIR OUT_DIR [REVIEW_ARG...] | $0 --build" >&2
    exit 2
fi
head=$1 base=$2 out=$3
shift 3
[ $# -gt 0 ] || set -- "${DEFAULT_ARGS[@]}"
[ -n "${IRQSIM_PYFDT-}" ] && set -- "$@" --pyfdt "$IRQSIM_PYFDT"
irqsim=${IRQSIM:-$root/build-release/irqsim}
[ -x "$irqsim" ] || irqsim=$(build) || exit 2
mkdir -p "$out" || exit 4

# outcome RC: what the job does with review's exit status RC (docs/REVIEW.md)
# and the line the comment opens with. A new status is one line here.
outcome() {
    case $1 in
        0) echo "pass :white_check_mark: **Nothing new** against the base." ;;
        1) echo "fail :x: **Something new** against the base: below, reproducers in the artifact." ;;
        2) echo "fail :x: review refused its input (an option, a tree, a board, or the base does not build): review.log." ;;
        3) echo "fail :x: the kernel cannot be built on this runner (a missing tool or Python module): review.log." ;;
        4) echo "fail :x: an output could not be written: review.log." ;;
        5) echo "fail :x: **Incomplete**: a configuration ran no state, or a target was not reviewed: below." ;;
        # 6: nothing new, but changed lines of the head never ran on the
        # review's states (irqsim review's exit 6, docs/REVIEW.md): a warning,
        # the job passes
        6) echo "warn :warning: **Nothing new, but changed lines never ran** on the review's states: below." ;;
        *) echo "fail :x: irqsim review ended with status $1 (a signal, or a status this script does not know): review.log." ;;
    esac
}

# commit DIR: the checkout's commit, if it is a git one
commit() { git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || echo "$1"; }

rm -rf "$out/review-repro" "$out/review.md" "$out/review.json"
t0=$(date +%s)
"$irqsim" review --sel4 "$head" --baseline "$base" -o "$out/review.md" --json "$out/review.json" \
    --out "$out/review-repro" "$@" 2> >(tee "$out/review.log" >&2)
rc=$?
wait # for tee
secs=$(($(date +%s) - t0))
o=$(outcome $rc)
verdict=${o%% *} line=${o#* }
echo "$rc $verdict" >"$out/status"

{
    echo "$MARKER"
    echo "### irqsim review: \`$(commit "$head")\` against its base \`$(commit "$base")\`"
    echo
    echo "$line (\`irqsim review\` exit $rc, ${secs} s)"
    echo
    if [ -s "$out/review.md" ]; then
        if [ "$(wc -c <"$out/review.md")" -le $MAX_MD ]; then
            cat "$out/review.md"
        else
            head -c $MAX_MD "$out/review.md" | sed '$d'
            echo
            echo "*(cut at $MAX_MD bytes: review.md in the artifact has the rest)*"
        fi
    else
        echo '```'
        tail -n 20 "$out/review.log"
        echo '```'
    fi
    if [ -n "${GITHUB_RUN_ID-}" ]; then
        echo
        echo "<sub>review.md, review.json, the reproducers and the log: artifact irqsim-review of" \
            "[this run](${GITHUB_SERVER_URL-https://github.com}/${GITHUB_REPOSITORY-}/actions/runs/$GITHUB_RUN_ID).</sub>"
    fi
} >"$out/comment.md" || exit 4

if [ -n "${GITHUB_STEP_SUMMARY-}" ]; then
    cat "$out/comment.md" >>"$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_ACTIONS-}" ] && [ "$verdict" != pass ]; then
    [ "$verdict" = warn ] && echo "::warning::irqsim review: ${line//\*/}" || echo "::error::irqsim review: ${line//\*/}"
fi
echo "review-pr: exit $rc ($verdict) in ${secs} s; the Markdown: $out/review.md; the comment: $out/comment.md"
case $verdict in
    pass | warn) exit 0 ;;
    *) exit $((rc == 0 ? 1 : rc)) ;;
esac
