package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** {@code struct ibv_ah}: the destination of UD sends. */
public final class AddressHandle extends NativeObject {
    private final ProtectionDomain pd;

    private AddressHandle(ProtectionDomain pd, MemorySegment handle) {
        super(pd, "address handle", handle);
        this.pd = pd;
    }

    static AddressHandle create(ProtectionDomain pd, AddressVector av) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_ah_attr);
            av.writeTo(a, 0);
            MemorySegment ah = (MemorySegment) Ibv.ibv_create_ah().invokeExact(Downcalls.errnoState(), pd.handle(), a);
            if (ah.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_ah", Downcalls.errno(), "device " + pd.context().name());
            }
            return new AddressHandle(pd, ah.reinterpret(Structs.ibv_ah.byteSize()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static AddressHandle fromCompletion(ProtectionDomain pd, Completions wc, int index, MemorySegment grh, int port) {
        try {
            MemorySegment ah = (MemorySegment) Ibv.ibv_create_ah_from_wc().invokeExact(Downcalls.errnoState(), pd.handle(),
                    wc.entry(index), grh, (byte) port);
            if (ah.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_ah_from_wc", Downcalls.errno(), "device " + pd.context().name());
            }
            return new AddressHandle(pd, ah.reinterpret(Structs.ibv_ah.byteSize()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_ah(), "ibv_destroy_ah", handle, "device " + pd.context().name());
    }
}
