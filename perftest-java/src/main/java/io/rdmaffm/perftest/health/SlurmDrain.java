package io.rdmaffm.perftest.health;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code --drain}: asks Slurm to drain this node with the health reason, as NHC does, through {@code scontrol update
 * NodeName=N State=DRAIN Reason=...}. Only a failing node is touched; returning a drained node to service is left
 * to the operator ({@code scontrol update NodeName=N State=RESUME}), since the drain may be someone else's too.
 */
public final class SlurmDrain {
    /** Slurm keeps reasons short in its listings; longer ones are cut here rather than by scontrol. */
    static final int MAX_REASON = 200;
    private static final long TIMEOUT_S = 30;

    private final String scontrol;

    /** @param scontrol the scontrol program (a name looked up in PATH, or a path) */
    public SlurmDrain(String scontrol) {
        this.scontrol = scontrol;
    }

    /**
     * @param node   the Slurm node name
     * @param reason the reason to record
     * @return null when scontrol drained the node, else one line saying why not
     */
    public String drain(String node, String reason) {
        String r = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON - 3) + "..." : reason;
        List<String> cmd = List.of(scontrol, "update", "NodeName=" + node, "State=DRAIN", "Reason=" + r);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return scontrol + " did not finish within " + TIMEOUT_S + " s";
            }
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.exitValue() == 0 ? null : scontrol + " exited " + p.exitValue() + (out.isEmpty() ? "" : ": "
                    + out.lines().findFirst().orElse(""));
        } catch (IOException e) {
            return "cannot run " + scontrol + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted waiting for " + scontrol;
        }
    }
}
