#!/usr/bin/env bash
# Writes the build's identity for `rdma-perftest --version` and the JSON documents (perftest-java's pom.xml runs
# this at generate-resources): the version, the git commit the tree was built from, and whether the tree differed
# from it. Built outside a git checkout (a source tarball) or without git, the commit is "unknown"; never fails.
# Usage: build-info.sh OUTPUT.properties VERSION
set -u
out=$1
version=$2
root=$(cd "$(dirname "$0")/.." && pwd)
commit=unknown
dirty=unknown
if command -v git >/dev/null 2>&1 && head=$(git -C "$root" rev-parse --verify -q HEAD 2>/dev/null); then
	commit=$head
	# Tracked changes and untracked files that are not ignored: either makes the build differ from the commit.
	if changes=$(git -C "$root" status --porcelain 2>/dev/null); then
		if [[ -n $changes ]]; then dirty=true; else dirty=false; fi
	fi
fi
mkdir -p "$(dirname "$out")"
printf 'version=%s\ncommit=%s\ndirty=%s\n' "$version" "$commit" "$dirty" >"$out.tmp" && mv "$out.tmp" "$out"
