# Sourced by the launchers in bin/ and by scripts/common.sh: the one place that finds a JDK 25 or newer (the
# FFM API and the AOT cache need 25; a later JDK runs the same class files).
# jdk25_home prints the first JDK 25+ among $JAVA_HOME, Temurin's Debian path, /usr/lib/jvm/*25* and then any
# other /usr/lib/jvm/* (jdk25_find sets JDK25_HOME to it); both fail where there is none.
JDK25_DEFAULT=/usr/lib/jvm/temurin-25-jdk-amd64

# The version from the JDK's `release` file: asking `java -version` would start a JVM, seconds on an emulated
# CPU before the launcher's own JVM even starts. Only a JDK without that file is asked.
# Read with bash's own `read`: each process started costs tens of milliseconds on an emulated CPU.
jdk25_is_25() {
	local release="$1/release" line
	if [[ -r "$release" ]]; then
		while IFS= read -r line; do
			if [[ "$line" =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
				((BASH_REMATCH[1] >= 25)) && return 0
				return 1
			fi
		done < "$release"
		return 1
	else
		[[ "$("$1/bin/java" -version 2>&1)" =~ version\ \"([0-9]+) ]] && ((BASH_REMATCH[1] >= 25))
	fi
}

# Sets JDK25_HOME to the first JDK 25 or newer found (no subshell); fails where there is none.
jdk25_find() {
	local candidate
	for candidate in "${JAVA_HOME:-}" "$JDK25_DEFAULT" /usr/lib/jvm/*25* /usr/lib/jvm/*; do
		if [[ -n "$candidate" && -x "$candidate/bin/java" ]] && jdk25_is_25 "$candidate"; then
			JDK25_HOME="$candidate"
			return 0
		fi
	done
	return 1
}

jdk25_home() {
	jdk25_find && echo "$JDK25_HOME"
}
