package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
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
            return pd.life.create(h -> {
                MemorySegment ah = (MemorySegment) Ibv.ibv_create_ah.handle().invokeExact(Downcalls.errnoState(), h, a);
                if (ah.equals(MemorySegment.NULL)) {
                    throw Errors.of("ibv_create_ah", Downcalls.errno(), "device " + pd.context().name());
                }
                return new AddressHandle(pd, ah.reinterpret(Structs.ibv_ah.byteSize()));
            });
        }
    }

    static AddressHandle fromCompletion(ProtectionDomain pd, Completions wc, int index, MemorySegment grh, int port) {
        MemorySegment entry = wc.entry(index);
        return pd.life.create(h -> {
            MemorySegment ah = (MemorySegment) Ibv.ibv_create_ah_from_wc.handle().invokeExact(Downcalls.errnoState(), h,
                    entry, grh, (byte) port);
            if (ah.equals(MemorySegment.NULL)) {
                throw Errors.of("ibv_create_ah_from_wc", Downcalls.errno(), "device " + pd.context().name());
            }
            return new AddressHandle(pd, ah.reinterpret(Structs.ibv_ah.byteSize()));
        });
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_ah.handle(), "ibv_destroy_ah", handle, "device " + pd.context().name());
    }
}
