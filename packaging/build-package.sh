#!/usr/bin/env bash
# Builds the rdma-perftest package for linux-x86_64, a node's install without JDK or Maven:
#   OUT/rdma-perftest-VERSION-linux-x86_64.tar.gz   (unpack anywhere; run bin/rdma-perftest)
#   OUT/rdma-perftest_DEBVERSION_amd64.deb          (/opt/rdma-perftest, /usr/bin/rdma-perftest)
# Each holds a Java runtime made by jlink (only the JDK modules the jars need), the jars, the launchers
# (rdma-perftest and the ib_* names), an AOT cache made against that runtime, bash completion and man pages made
# from the picocli model. Run by packaging/pom.xml (mvn -Pdist package), which resolves the jars.
#
# usage: packaging/build-package.sh VERSION APP_JAR_DIR CODEGEN_JAR OUT_DIR
#   APP_JAR_DIR: perftest-java's jar and its runtime dependencies; CODEGEN_JAR: picocli-codegen (man pages).
# Needs a JDK 25 (jlink; JAVA_HOME or scripts/jdk25.sh's places), asciidoctor and dpkg-deb.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=../scripts/common.sh
source "$ROOT/scripts/common.sh"
[[ $# -eq 4 ]] || die "usage: packaging/build-package.sh VERSION APP_JAR_DIR CODEGEN_JAR OUT_DIR"
version="$1" app_dir="$2" codegen="$3" out="$4"
find_jdk25
for tool in asciidoctor dpkg-deb; do
	command -v "$tool" > /dev/null || die "$tool not found: install Debian's $tool package (scripts/common.sh PACKAGING_PACKAGES)"
done

# The JDK modules the program needs, beyond java.base: the jars' own (jdeps: java.management, jdk.jfr).
# jdeps would ask the same of the jars at every build, but perftest-java's module names HdrHistogram, an
# automatic module, which jdeps cannot resolve from a module path of plain jars without this list anyway.
JDK_MODULES=java.base,java.management,jdk.jfr
name="rdma-perftest-$version"
stage="$out/stage/$name"
rm -rf "$out/stage" "$out/adoc"
mkdir -p "$stage"/{bin,lib/app,lib/aot,share/man/man1,share/bash-completion/completions} "$out/adoc"

# perftest-java's jar first, its dependencies after, by name: the AOT cache holds this order.
main_jar=""
for jar in "$app_dir"/perftest-java-*.jar; do main_jar="${jar##*/}"; done
[[ -n "$main_jar" ]] || die "no perftest-java jar in $app_dir"
jars=("$main_jar")
for jar in "$app_dir"/*.jar; do
	[[ "${jar##*/}" == "$main_jar" ]] || jars+=("${jar##*/}")
done
cp "${jars[@]/#/$app_dir/}" "$stage/lib/app/"

# --strip-debug etc.: a runtime, not a JDK. Not compressed: the classes the AOT cache misses load faster.
# The default CDS archive serves a run without the AOT cache (RDMAFFM_AOT_MODE=off).
"$JAVA_HOME/bin/jlink" --add-modules "$JDK_MODULES" --output "$stage/runtime" --strip-debug --no-header-files \
	--no-man-pages --generate-cds-archive > "$out/jlink.out" 2>&1 || { cat "$out/jlink.out" >&2; die "jlink failed"; }
sed "s|@APP_JARS@|${jars[*]}|" "$HERE/launcher/rdma-perftest" > "$stage/bin/rdma-perftest"
chmod 0755 "$stage/bin/rdma-perftest"
cp "$ROOT/scripts/perftest-jvm.sh" "$stage/lib/"
# The ib_* names: the checkout's own wrappers, which run the rdma-perftest beside them.
cp "$ROOT"/bin/ib_* "$stage/bin/"

# The AOT cache: the training run of perftest-java/pom.xml (the launcher up to its listen; it then fails on a
# device that does not exist, exit 2), here with the package's launcher and runtime.
RDMAFFM_AOT_MODE=record "$stage/bin/rdma-perftest" ib_write_bw --ib-dev rdma-ffm-aot-training -p 65535 \
	> "$out/aot-training.out" 2>&1 || [[ $? -eq 2 ]] || die "the AOT training run failed: $out/aot-training.out"
RDMAFFM_AOT_MODE=create "$stage/bin/rdma-perftest" > "$out/aot-create.out" 2>&1 \
	|| die "making the AOT cache failed: $out/aot-create.out"
rm -f "$stage/lib/aot/perftest.aotconf"

# Completion and man pages from the picocli model the launcher runs.
"$stage/bin/rdma-perftest" generate-completion > "$stage/share/bash-completion/completions/rdma-perftest"
"$JAVA_HOME/bin/java" -cp "$(printf '%s:' "${jars[@]/#/$stage/lib/app/}")$codegen" "$HERE/src/ManPages.java" "$out/adoc"
asciidoctor -b manpage -a reproducible -D "$stage/share/man/man1" "$out/adoc"/*.adoc

mkdir -p "$out"
tarball="$out/$name-linux-x86_64.tar.gz"
tar -C "$out/stage" --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"

# The .deb: the same tree under /opt/rdma-perftest, the launcher in /usr/bin (a relative link, so the package
# also runs from a scratch root), man pages and completion where Debian's tools look. Only rdma-perftest goes
# to /usr/bin: Debian's perftest package owns /usr/bin/ib_*; the package's ib_* stay in /opt/rdma-perftest/bin.
deb_root="$out/deb"
rm -rf "$deb_root"
mkdir -p "$deb_root/opt" "$deb_root/usr/bin" "$deb_root/usr/share/man/man1" \
	"$deb_root/usr/share/bash-completion/completions" "$deb_root/DEBIAN"
cp -a "$stage" "$deb_root/opt/rdma-perftest"
ln -s ../../opt/rdma-perftest/bin/rdma-perftest "$deb_root/usr/bin/rdma-perftest"
for page in "$stage"/share/man/man1/*.1; do
	gzip -9nc "$page" > "$deb_root/usr/share/man/man1/${page##*/}.gz"
done
cp "$stage/share/bash-completion/completions/rdma-perftest" "$deb_root/usr/share/bash-completion/completions/"
# Debian versions sort ~ before anything: 0.1.0~SNAPSHOT comes before 0.1.0.
deb_version="${version//-/\~}"
sed -e "s|@VERSION@|$deb_version|" -e "s|@INSTALLED_SIZE@|$(du -sk "$deb_root" | cut -f1)|" \
	"$HERE/deb/control" > "$deb_root/DEBIAN/control"
deb="$out/rdma-perftest_${deb_version}_amd64.deb"
# gzip, not dpkg-deb's default xz: a third of the time on a busy 2-CPU builder, for ~15% more bytes.
dpkg-deb --root-owner-group -Zgzip -z6 --build "$deb_root" "$deb" > /dev/null
echo "built $tarball ($(du -h "$tarball" | cut -f1)) and $deb ($(du -h "$deb" | cut -f1))"
