package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.MatrixInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * A size sweep as nccl-tests runs one ({@code -b MIN -e MAX -f FACTOR}: minbytes, maxbytes, stepfactor): from MIN,
 * times FACTOR while not above MAX, each size then rounded as the pattern needs. nccl-tests' factor is a whole
 * multiplier (its {@code -f 1} means "add {@code -i} bytes", which fabric does not offer), so FACTOR is an integer of at
 * least 2. Ring patterns round each size down to a multiple of 4n (whole float32 elements in n equal chunks), as
 * nccl-tests rounds its counts; a size that rounds to nothing, or that another rule refuses, is refused before
 * anything is launched.
 *
 * @param min    {@code -b}
 * @param max    {@code -e}
 * @param factor {@code -f}
 */
public record Sweep(long min, long max, long factor) {

    /** Checks the three against each other; one line naming the options when they do not fit. */
    public Sweep {
        if (min < 1) {
            throw new MatrixInputException("-b must be at least 1 byte, got " + min);
        }
        if (min > max) {
            throw new MatrixInputException("-b " + min + " is above -e " + max + " (minbytes above maxbytes)");
        }
        if (factor < 2) {
            throw new MatrixInputException("-f must be a whole factor of at least 2 (nccl-tests' stepfactor), got "
                    + factor);
        }
    }

    /** The sizes before rounding: MIN, MIN·F, ... not above MAX. */
    public List<Long> raw() {
        List<Long> out = new ArrayList<>();
        for (long s = min; s <= max; ) {
            out.add(s);
            if (s > max / factor) {
                break;
            }
            s *= factor;
        }
        return out;
    }

    /**
     * The sizes the pattern runs on {@code n} hosts, ascending and each once.
     *
     * @throws MatrixInputException naming the first size the pattern cannot run
     */
    public List<Long> sizes(Pattern p, int n) {
        List<Long> out = new ArrayList<>();
        for (long s : raw()) {
            long r = p.ring() ? s / (4L * n) * (4L * n) : s;
            if (r < 1) {
                throw new MatrixInputException("-b/-e: size " + s + " rounds to 0 for " + p.cli() + " on " + n
                        + " hosts (at least 4n = " + 4L * n + " bytes: one float32 element per chunk)");
            }
            if (out.isEmpty() || out.getLast() != r) {
                out.add(r);
            }
        }
        return out;
    }

    /** "-b MIN -e MAX -f F" for plan lines. */
    public String cli() {
        return "-b " + min + " -e " + max + " -f " + factor;
    }
}
