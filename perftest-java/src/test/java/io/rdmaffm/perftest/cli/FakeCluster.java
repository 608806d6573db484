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
 * to {@code stalled.pids}). Every call is logged to {@code calls.log}.
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
        return command -> {
            List<String> c = new ArrayList<>(command);
            Path fake = dir.resolve("bin").resolve(c.getFirst());
            if (Files.isExecutable(fake)) {
                c.set(0, fake.toString());
            }
            return real.start(c);
        };
    }
}
