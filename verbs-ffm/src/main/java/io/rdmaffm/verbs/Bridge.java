package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.VerbsBridge;

import java.lang.foreign.MemorySegment;

/** The verbs side of {@link VerbsBridge}, installed by {@link NativeObject}. */
final class Bridge implements VerbsBridge {

    @Override
    public Context borrowedContext(MemorySegment ibvContext) {
        return Context.borrowed(ibvContext);
    }

    @Override
    public QueuePair createQueuePair(Object protectionDomain, Object init, String verb, QueuePairCreator creator,
                                     Runnable destroyer) {
        return QueuePair.createExternally((ProtectionDomain) protectionDomain, (QueuePairInit) init, verb, creator,
                destroyer);
    }

    @Override
    public QueuePairAttributes queuePairAttributes(MemorySegment ibvQpAttr, int mask) {
        return QueuePairAttributes.fromNative(ibvQpAttr, mask);
    }
}
