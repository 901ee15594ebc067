#!/usr/bin/env bash
# post-comment.sh COMMENT.md: post review-pr.sh's comment on the pull
# request, or update the one an earlier run of the workflow posted (the
# comment that starts with review-pr.sh's marker, by the same bot), so a
# pull request has one irqsim comment, the latest. Uses the GitHub CLI
# (`gh api`, on GitHub's runners) with GH_TOKEN; GITHUB_REPOSITORY and
# PR_NUMBER name the pull request, GITHUB_API_LOGIN the commenter
# (default github-actions[bot], the GITHUB_TOKEN's). Exit 1 when GitHub
# refuses (a pull request from another fork gets a read-only token: the
# workflow's step goes on, the report is in the job summary and artifact).
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail
if [ $# != 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 COMMENT.md (a file)" >&2
    exit 2
fi
: "${GITHUB_REPOSITORY:?owner/name of the repository}" "${PR_NUMBER:?the pull request number}"
body=$1
marker=$(head -1 "$body")
login=${GITHUB_API_LOGIN:-github-actions[bot]}
id=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
    --jq ".[] | select(.user.login == \"$login\" and (.body | startswith(\"$marker\"))) | .id" | tail -1)
if [ -n "$id" ]; then
    gh api --silent -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body"
    echo "post-comment: updated comment $id on #$PR_NUMBER"
else
    gh api --silent -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -F "body=@$body"
    echo "post-comment: commented on #$PR_NUMBER"
fi
