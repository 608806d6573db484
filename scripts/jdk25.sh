# Sourced by the launchers in bin/ and by scripts/common.sh: the one place that finds a JDK 25.
# jdk25_home prints the first JDK 25 among $JAVA_HOME, Temurin's Debian path and /usr/lib/jvm/*25*;
# it prints nothing and fails where there is none.
JDK25_DEFAULT=/usr/lib/jvm/temurin-25-jdk-amd64

jdk25_home() {
	local candidate
	for candidate in "${JAVA_HOME:-}" "$JDK25_DEFAULT" /usr/lib/jvm/*25*; do
		if [[ -n "$candidate" && -x "$candidate/bin/java" ]] && "$candidate/bin/java" -version 2>&1 | grep -Eq 'version "25'; then
			echo "$candidate"
			return 0
		fi
	done
	return 1
}
