# Sourced by the launchers in bin/ and by scripts/common.sh: the one place that finds a JDK 25.
# jdk25_home prints the first JDK 25 among $JAVA_HOME, Temurin's Debian path and /usr/lib/jvm/*25*;
# it prints nothing and fails where there is none.
JDK25_DEFAULT=/usr/lib/jvm/temurin-25-jdk-amd64

# The version from the JDK's `release` file: asking `java -version` would start a JVM, seconds on an emulated
# CPU before the launcher's own JVM even starts. Only a JDK without that file is asked.
jdk25_is_25() {
	local release="$1/release"
	if [[ -r "$release" ]]; then
		grep -Eq '^JAVA_VERSION="25(\.|")' "$release"
	else
		"$1/bin/java" -version 2>&1 | grep -Eq 'version "25'
	fi
}

jdk25_home() {
	local candidate
	for candidate in "${JAVA_HOME:-}" "$JDK25_DEFAULT" /usr/lib/jvm/*25*; do
		if [[ -n "$candidate" && -x "$candidate/bin/java" ]] && jdk25_is_25 "$candidate"; then
			echo "$candidate"
			return 0
		fi
	done
	return 1
}
