#!/usr/bin/env bash
# Wall times of a user's rebuilds with the plugin: the README's project (one module, pom.xml and the Java files of
# the README's marked blocks, written by .ci/ReadmeProject.java, with the sample models arm7 and fourbar) and the
# same files in the layout maven-plugin/README.md recommends (the models in a module of their own, robots-model,
# the code in robots-app, under an aggregator). Each is built with `mvn verify`:
#   1. first build (generates both classes), 2. no change, 3. after an unrelated source edit (a comment line
#   appended to FourBarExample.java), 4. after a comment-only model edit (a comment appended to arm7.urdf);
# and the single module once more with maven-compiler-plugin's stale-file mode
# (-Dmaven.compiler.useIncrementalCompilation=false: only changed sources are handed to javac).
# Prints one line per build: wall seconds, what symdyn did, what javac compiled. Logs stay in WORKDIR.
#
#   maven-plugin/user-project-times.sh [WORKDIR]     default WORKDIR: a new temporary folder, kept
#
# As .ci/user-project: the plugin is this repository's HEAD (a clone), installed with its runtime and generator
# into Maven's repository WORKDIR/m2, never ~/.m2. Environment:
#   SEED_M2=DIR     copy the repository DIR into WORKDIR/m2 first (without org/symdyn), for a machine without network
#   MAVEN_ARGS=...  added to every mvn call, e.g. -o with SEED_M2
#   GOALS=...       the goals of each timed build (default: verify)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-$(mktemp -d -t symdyn-times.XXXXXX)}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
M2="$WORK/m2"
GOALS="${GOALS:-verify}"
say() { echo "times: $*"; }
fail() { echo "times: FAILED: $*" >&2; exit 1; }
# shellcheck disable=SC2086
mvn_() { mvn -B -Dmaven.repo.local="$M2" ${MAVEN_ARGS:-} "$@"; }

if [ -n "${SEED_M2:-}" ] && [ ! -d "$M2" ]; then
  say "seeding $M2 from $SEED_M2 (without org/symdyn)"
  mkdir -p "$M2"
  (cd "$SEED_M2" && tar --exclude=./org/symdyn -cf - .) | (cd "$M2" && tar -xf -)
fi
mkdir -p "$M2"

say "cloning $REPO at $(git -C "$REPO" rev-parse --short HEAD) into $WORK/symdyn"
rm -rf "$WORK/symdyn"
git clone -q "$REPO" "$WORK/symdyn"
git -C "$WORK/symdyn" checkout -q "$(git -C "$REPO" rev-parse HEAD)"
say "installing the plugin, runtime and generator into $M2"
(cd "$WORK/symdyn" && mvn_ -q install -DskipTests -Dinvoker.skip=true -pl maven-plugin -am) > "$WORK/install.log" 2>&1 \
  || { tail -40 "$WORK/install.log"; fail "install, see $WORK/install.log"; }

# The README's project.
SINGLE="$WORK/single"
rm -rf "$SINGLE"
mkdir -p "$SINGLE/src/main/symdyn"
cp "$WORK/symdyn"/samples/src/main/symdyn/{arm7,fourbar}.urdf "$SINGLE/src/main/symdyn/"
java "$REPO/.ci/ReadmeProject.java" "$WORK/symdyn/README.md" "$SINGLE" > /dev/null
SYMDYN_VERSION="$(sed -n 's:.*<symdyn.version>\(.*\)</symdyn.version>.*:\1:p' "$SINGLE/pom.xml")"

# The same files, split: robots-model (the models, the plugin, the runtime) and robots-app (the code and tests).
SPLIT="$WORK/split"
rm -rf "$SPLIT"
mkdir -p "$SPLIT/robots-model/src/main" "$SPLIT/robots-app/src/main"
cp -r "$SINGLE/src/main/symdyn" "$SPLIT/robots-model/src/main/"
cp -r "$SINGLE/src/main/java" "$SPLIT/robots-app/src/main/"
cp -r "$SINGLE/src/test" "$SPLIT/robots-app/src/"
cat > "$SPLIT/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>robots-parent</artifactId>
  <version>1.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
    <module>robots-model</module>
    <module>robots-app</module>
  </modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <symdyn.version>$SYMDYN_VERSION</symdyn.version>
  </properties>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
        <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
EOF
# module_pom NAME DEPENDENCIES [BUILD]: a module of the aggregator
module_pom() {
  cat > "$SPLIT/$1/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.example</groupId>
    <artifactId>robots-parent</artifactId>
    <version>1.0-SNAPSHOT</version>
  </parent>
  <artifactId>$1</artifactId>
  <dependencies>
$2
  </dependencies>
${3:-}
</project>
EOF
}
module_pom robots-model '    <dependency>
      <groupId>org.symdyn</groupId>
      <artifactId>symdyn-runtime</artifactId>
      <version>${symdyn.version}</version>
    </dependency>' '  <build>
    <plugins>
      <plugin>
        <groupId>org.symdyn</groupId>
        <artifactId>symdyn-maven-plugin</artifactId>
        <version>${symdyn.version}</version>
        <executions>
          <execution>
            <goals><goal>generate</goal></goals>
            <configuration>
              <packageName>com.example.robots</packageName>
            </configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>'
module_pom robots-app '    <dependency>
      <groupId>com.example</groupId>
      <artifactId>robots-model</artifactId>
      <version>${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>' '  <build>
    <plugins>
      <!-- GenericExample (run by ExamplesTest) reads src/main/symdyn/arm7.urdf from the working directory -->
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration><workingDirectory>${project.basedir}/../robots-model</workingDirectory></configuration>
      </plugin>
    </plugins>
  </build>'

RESULTS="$WORK/times.txt"
: > "$RESULTS"
# build LAYOUT DIR STEP [MVN ARGS...]: one timed build, its log WORK/LAYOUT-STEP.log, one line of results.
build() {
  local layout="$1" dir="$2" step="$3"
  shift 3
  local log="$WORK/$layout-$step.log" start end
  start="$(date +%s.%N)"
  # shellcheck disable=SC2086
  (cd "$dir" && mvn_ "$@" $GOALS) > "$log" 2>&1 || { tail -60 "$log"; fail "$layout $step, see $log"; }
  end="$(date +%s.%N)"
  local symdyn javac
  symdyn="$(grep -o 'symdyn: [0-9]* regenerated ([0-9]* written), [0-9]* up to date' "$log" | sed 's/symdyn: //' \
    | paste -sd ';' -)"
  javac="$(grep -oE 'Compiling [0-9]+ source files?|Nothing to compile[^[]*' "$log" | sed 's/ - all classes are up to date//' \
    | paste -sd ';' -)"
  printf '%-13s %-28s %7.1f s   symdyn: %s   javac: %s\n' "$layout" "$step" "$(awk "BEGIN { print $end - $start }")" \
    "${symdyn:-none}" "${javac:-none}" | tee -a "$RESULTS"
}
# sequence LAYOUT DIR APP-SOURCE MODEL [MVN ARGS...]
sequence() {
  local layout="$1" dir="$2" source="$3" model="$4"
  shift 4
  build "$layout" "$dir" 1-first "$@"
  build "$layout" "$dir" 2-no-change "$@"
  echo "// an unrelated edit $(date +%s%N)" >> "$source"
  build "$layout" "$dir" 3-unrelated-source-edit "$@"
  echo "<!-- a comment-only edit $(date +%s%N) -->" >> "$model"
  build "$layout" "$dir" 4-comment-only-model-edit "$@"
}

say "timed builds (mvn $GOALS), logs in $WORK"
sequence single "$SINGLE" "$SINGLE/src/main/java/com/example/FourBarExample.java" "$SINGLE/src/main/symdyn/arm7.urdf"
sequence split "$SPLIT" "$SPLIT/robots-app/src/main/java/com/example/FourBarExample.java" \
  "$SPLIT/robots-model/src/main/symdyn/arm7.urdf"
rm -rf "$SINGLE/target"
sequence single-stale "$SINGLE" "$SINGLE/src/main/java/com/example/FourBarExample.java" \
  "$SINGLE/src/main/symdyn/arm7.urdf" -Dmaven.compiler.useIncrementalCompilation=false
say "results in $RESULTS"
