# Sourced by the launchers (bin/rdma-perftest and the package's, packaging/launcher/rdma-perftest): the JVM
# options of perftest-java, declared once. Defines arrays only: no process is started (each costs tens of
# milliseconds on an emulated CPU, and a server must be listening soon after its start).

# No machine code in the AOT cache (JDK 25 can keep adapters and stubs there): code built on the build machine's
# CPU died with SIGILL on an older one (the Soft-RoCE VM's emulated CPU); classes and profiles are portable.
# shellcheck disable=SC2034 # used by the launchers that source this file
PERFTEST_NO_AOT_CODE=(-XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching -XX:-AOTStubCaching)

# Making the AOT cache (AOTMode=create): without AOT class linking. With it (JDK 25's default) the JVM loads and
# links every class of the cache before main (~1,770 here, those the run uses after the listen too); a JVM that
# only maps that cache and prints its version took 2.3x a trivial JVM's time in the Soft-RoCE VM. Without it the
# classes still come from the cache, parsed and verified, but each when first used: the server's listen needs
# ~620 (docs/startup.md).
# shellcheck disable=SC2034
PERFTEST_AOT_CREATE=(-XX:-AOTClassLinking)

# The JVM's own warnings (an AOT cache refused, ...) go to stderr: stdout is perftest's table. That clears
# any -Xlog in JDK_JAVA_OPTIONS: the launchers put RDMA_PERFTEST_JAVA_OPTS (word-split) after these.
# No uncommon traps: C2 otherwise leaves out branches the warm-up never took (the empty poll: on a QP connected
# to itself the completion is there at the first poll) and the first empty poll of the real run deoptimizes
# the loop, which then runs interpreted while the compiler rebuilds it on the same CPU (seen in the Soft-RoCE
# VM with -Xlog:deoptimization: unstable_if in the poll and in ibv_post_recv's chain, at the run's start).
# The measured path (the engine's loops and verbs-ffm) compiles at a fiftieth of the JIT's usual thresholds, so
# the warm-up's few thousand round trips on a QP connected to itself reach C2 on a slow or emulated CPU too, and so
# do the helpers a loop calls once per completion (at a tenth, BwLoops.completedBySignal and Completions.wrId
# reached C2's threshold only inside write_bw's windows, and their compiles took 18-79 ms of the loop's CPU; so
# did the JDK's Unsafe.put/getIntUnaligned under the memory segments' accessors, hence the same scale); the
# rest of the program compiles as usual (quiet: the commands are not echoed on stdout). The warm-up's clock
# exercise stays interpreted, so that each of its calls counts towards compiling the clock (WarmupLoops).
# The launchers run the program on the class path, not the module path: with a module path the JVM resolves the
# module graph afresh at every start (the JDK's archived boot layer serves the class path only), which took
# ~2.7 s of the emulated CPU's start-up in the Soft-RoCE VM. The module boundaries are checked when the modules
# are built and in their tests.
# jdk.includeInExceptions as a system property, with the value of the runtime's java.security (JDK 25's default):
# the server's bind initialises InetAddress, whose jdk.internal.util.Exceptions reads this property; given as a
# system property it is found without loading the security properties file (72 KB, parsed by the interpreter
# before the listen: 60 classes and ~18 million instructions of the start to the listen, docs/startup.md).
# shellcheck disable=SC2034
PERFTEST_JVM_OPTS=(--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xss8m -Djdk.includeInExceptions=hostInfoExclSocket
	-XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0 -XX:CompileCommand=quiet
	'-XX:CompileCommand=CompileThresholdScaling,io.rdmaffm.perftest.engine.*::*,0.02'
	'-XX:CompileCommand=CompileThresholdScaling,io.rdmaffm.verbs.*::*,0.02'
	'-XX:CompileCommand=CompileThresholdScaling,jdk.internal.misc.Unsafe::*Unaligned,0.02'
	'-XX:CompileCommand=exclude,io.rdmaffm.perftest.engine.WarmupLoops::exerciseClock'
	-Xlog:disable -Xlog:all=warning:stderr)

# The program's entry point, after the options and the class path: cli.EarlyListen, which binds a server's port
# before cli.Main (and with it picocli) is linked, then runs cli.Main (docs/startup.md).
# shellcheck disable=SC2034
PERFTEST_MAIN=io.rdmaffm.perftest.cli.EarlyListen
