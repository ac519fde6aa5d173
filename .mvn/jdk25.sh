# Sourced by ./mvnw and ./jrxe: makes JAVA_HOME point at a JDK 25, or says in one sentence why it cannot.
# A JDK's "release" file names its version, so no JVM has to be started to find one.

jrxe_is_jdk25() {
  [ -n "$1" ] && [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] && [ -f "$1/release" ] \
    && grep -q '^JAVA_VERSION="25' "$1/release"
}

jrxe_use_jdk25() {
  if jrxe_is_jdk25 "${JAVA_HOME:-}"; then
    return 0
  fi
  # Linux distributions install JDKs under /usr/lib/jvm, macOS under /Library/Java/JavaVirtualMachines.
  for candidate in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if jrxe_is_jdk25 "$candidate"; then
      JAVA_HOME="$candidate"
      export JAVA_HOME
      return 0
    fi
  done
  echo "jrxe needs a JDK 25: none at JAVA_HOME (${JAVA_HOME:-unset}), under /usr/lib/jvm or under /Library/Java/JavaVirtualMachines; install one there or point JAVA_HOME at one: Temurin 25 (https://adoptium.net), or Debian 13's openjdk-25-jdk-headless (Debian 12 can take it from trixie, as .ci/run does)." >&2
  return 1
}
