#!/usr/bin/env bash
# The benchmark lab's one entry point: runs one experiment of lab/experiments/ with the remaining arguments.
# Experiments are measurements, not tests: most boot the Soft-RoCE VM for minutes to hours (lab/README.md).
#
# usage: lab/run.sh EXPERIMENT [ARGS...]     lab/run.sh --list     lab/run.sh --help
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Each experiment's description is the first comment line of its script, so it is written once.
list() {
	local f name
	for f in "$LAB"/experiments/*.sh; do
		name="$(basename "$f" .sh)"
		printf '  %-13s %s\n' "$name" "$(sed -n 's/^# lab: //p' "$f")"
	done
}

usage() {
	echo "usage: lab/run.sh EXPERIMENT [ARGS...]   (settings as VAR=value in the environment; lab/README.md)"
	echo "experiments:"
	list
}

case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
-l | --list)
	list
	exit 0
	;;
"")
	usage >&2
	exit 2
	;;
esac
experiment="$1"
shift
script="$LAB/experiments/$experiment.sh"
if [[ "$experiment" == */* || ! -f "$script" ]]; then
	echo "lab/run.sh: error: no experiment '$experiment' (lab/run.sh --list names them)" >&2
	exit 2
fi
exec bash "$script" "$@"
