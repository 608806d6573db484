package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.LocalProcessRunner;
import io.rdmaffm.perftest.cluster.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster made of shell scripts, run as real processes on this machine, for the matrix command's tests. The
 * launcher fakes (in {@code bin/}) run each step here, as the node they were asked for ({@code FAKE_NODE}); the
 * tool stand-in ({@link #tool()}) answers {@code doctor --json} with {@code doctor.json}, and plays server and
 * client of any tool. What a node does is set by marker files: {@code bw-NODE} holds the bandwidth a pair with
 * that node gives (else 50 Gb/s), {@code stall-NODE} makes every tool on it or talking to it hang (its pid goes
 * to {@code stalled.pids}), {@code die-NODE} makes its worker's session end with ssh's 255 at its next order (once).
 * As {@code matrix-worker} it is the host's worker (docs/matrix.md's protocol, in shell), each start's pid in
 * {@code workers.pids}, each order logged as a tool call. Every call is logged to {@code calls.log}.
 */
final class FakeCluster {
    final Path dir;
    final Path log;

    FakeCluster(Path dir) throws IOException {
        this.dir = dir;
        this.log = dir.resolve("calls.log");
        Files.createDirectories(dir.resolve("bin"));
        script(tool(), """
                #!/bin/sh
                echo "$FAKE_NODE: $*" >> "@DIR@/calls.log"
                if [ "$1" = doctor ]; then cat "@DIR@/doctor.json"; exit 1; fi
                if [ "$1" = matrix-worker ]; then
                  # The worker: orders on stdin (plain words here, nothing to unescape), events on stdout.
                  echo $$ >> "@DIR@/workers.pids"
                  echo "{\\"event\\":\\"ready\\",\\"pid\\":$$}"
                  while read -r cmd id mode rest; do
                    [ "$cmd" = run ] || exit 0
                    echo "$FAKE_NODE: $rest" >> "@DIR@/calls.log"
                    set -- $rest
                    tool=$1; shift
                    port=; last=
                    while [ $# -gt 0 ]; do
                      case "$1" in -p) port=$2; shift 2 ;; *) last=$1; shift ;; esac
                    done
                    [ "$mode" = json ] || last=
                    for n in "$FAKE_NODE" $last; do
                      if [ -e "@DIR@/stall-$n" ]; then
                        echo $$ >> "@DIR@/stalled.pids"
                        [ "$mode" = json ] || echo "{\\"event\\":\\"line\\",\\"id\\":$id,\\"text\\":\\"Waiting for client to connect...\\"}"
                        exec sleep 60
                      fi
                    done
                    if [ -e "@DIR@/die-$FAKE_NODE" ]; then
                      rm -f "@DIR@/die-$FAKE_NODE"
                      echo "Connection to $FAKE_NODE closed by remote host." >&2
                      exit 255
                    fi
                    if [ "$mode" = plain ]; then
                      echo "{\\"event\\":\\"line\\",\\"id\\":$id,\\"text\\":\\"Waiting for client to connect...\\"}"
                      i=0
                      while [ ! -e "@DIR@/done-$port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
                      rm -f "@DIR@/done-$port"
                      echo "{\\"event\\":\\"done\\",\\"id\\":$id,\\"rc\\":0}"
                      continue
                    fi
                    bw=50.0
                    for n in "$FAKE_NODE" $last; do [ -e "@DIR@/bw-$n" ] && bw=$(cat "@DIR@/bw-$n"); done
                    case "$tool" in
                      *_bw) doc="{\\\\\\\"results\\\\\\\": {\\\\\\\"BW_average\\\\\\\": $bw, \\\\\\\"BW_unit\\\\\\\": \\\\\\\"Gb/sec\\\\\\\"}}" ;;
                      *) doc="{\\\\\\\"results\\\\\\\": {\\\\\\\"t_typical\\\\\\\": 2.5}}" ;;
                    esac
                    echo "{\\"event\\":\\"line\\",\\"id\\":$id,\\"text\\":\\"fake $tool: $bw Gb/s\\"}"
                    touch "@DIR@/done-$port"
                    echo "{\\"event\\":\\"done\\",\\"id\\":$id,\\"rc\\":0,\\"json\\":\\"$doc\\"}"
                  done
                  exit 0
                fi
                tool=$1; shift
                port=; json=; last=
                while [ $# -gt 0 ]; do
                  case "$1" in
                    -p) port=$2; shift 2 ;;
                    --out_json_file) json=$2; shift 2 ;;
                    *) last=$1; shift ;;
                  esac
                done
                [ -n "$json" ] || last=
                for n in "$FAKE_NODE" $last; do
                  if [ -e "@DIR@/stall-$n" ]; then
                    echo $$ >> "@DIR@/stalled.pids"
                    [ -n "$json" ] || echo "Waiting for client to connect..."
                    exec sleep 60
                  fi
                done
                if [ -z "$json" ]; then
                  echo "Waiting for client to connect..."
                  i=0
                  while [ ! -e "@DIR@/done-$port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
                  rm -f "@DIR@/done-$port"
                  exit 0
                fi
                bw=50.0
                for n in "$FAKE_NODE" $last; do [ -e "@DIR@/bw-$n" ] && bw=$(cat "@DIR@/bw-$n"); done
                case "$tool" in
                  *_bw) echo "{\\"results\\": {\\"BW_average\\": $bw, \\"BW_unit\\": \\"Gb/sec\\"}}" > "$json" ;;
                  *) echo '{"results": {"t_typical": 2.5}}' > "$json" ;;
                esac
                echo "fake $tool: $bw Gb/s"
                touch "@DIR@/done-$port"
                """);
    }

    /** The perftest-java stand-in, for {@code --tool-path}. */
    Path tool() {
        return dir.resolve("rdma-perftest");
    }

    /** Writes an executable script, {@code @DIR@} replaced by this cluster's directory. */
    void script(Path file, String text) throws IOException {
        Files.writeString(file, text.replace("@DIR@", dir.toString()));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Writes {@code bin/NAME}. */
    void bin(String name, String text) throws IOException {
        script(dir.resolve("bin").resolve(name), text);
    }

    /** Creates (or fills) a marker file. */
    void mark(String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content);
    }

    List<String> calls() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /**
     * Real processes, with the fake bin directory first on the search path. (ProcessBuilder looks programs up
     * in this JVM's PATH, which a test cannot change: names found in the fake bin directory are given as paths.)
     */
    ProcessRunner firstOnPath() {
        ProcessRunner real = new LocalProcessRunner();
        return new ProcessRunner() {
            @Override
            public Running start(List<String> command) throws IOException {
                return real.start(onPath(command));
            }

            @Override
            public Conversation converse(List<String> command) throws IOException {
                return real.converse(onPath(command));
            }
        };
    }

    private List<String> onPath(List<String> command) {
        List<String> c = new ArrayList<>(command);
        Path fake = dir.resolve("bin").resolve(c.getFirst());
        if (Files.isExecutable(fake)) {
            c.set(0, fake.toString());
        }
        return c;
    }

    /** How many workers were started. */
    int workerStarts() throws IOException {
        Path p = dir.resolve("workers.pids");
        return Files.exists(p) ? Files.readAllLines(p).size() : 0;
    }
}
