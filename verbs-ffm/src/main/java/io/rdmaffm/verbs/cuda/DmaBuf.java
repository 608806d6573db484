package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.LibC;

/**
 * A dma-buf file descriptor exported from GPU memory, for {@code ProtectionDomain.registerDmabuf(offset,
 * length, iova, fd, access)}: the buffer starts at {@link #offset()} in it and is {@link #length()} bytes long.
 * {@link #close()} closes the fd (idempotent); a region registered from it keeps its own reference.
 */
public final class DmaBuf implements AutoCloseable {
    private final int fd;
    private final long offset;
    private final long length;
    private boolean closed;

    DmaBuf(int fd, long offset, long length) {
        this.fd = fd;
        this.offset = offset;
        this.length = length;
    }

    public int fd() {
        return fd;
    }

    public long offset() {
        return offset;
    }

    public long length() {
        return length;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int rc = (int) LibC.close.handle().invokeExact(Downcalls.errnoState(), fd);
            if (rc != 0) {
                throw new IllegalStateException("close(" + fd + ") of a dma-buf failed: errno " + Downcalls.errno());
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
