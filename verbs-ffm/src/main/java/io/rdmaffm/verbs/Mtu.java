package io.rdmaffm.verbs;

/** enum ibv_mtu: the path MTU of RC/UC QPs and the port's MTU. */
public enum Mtu {
    MTU_256(1, 256), MTU_512(2, 512), MTU_1024(3, 1024), MTU_2048(4, 2048), MTU_4096(5, 4096);

    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** The IBV_MTU_* value. */
    public int value() {
        return value;
    }

    public int bytes() {
        return bytes;
    }

    /** From an IBV_MTU_* value; throws for values outside 1..5. */
    public static Mtu of(int value) {
        for (Mtu m : values()) {
            if (m.value == value) {
                return m;
            }
        }
        throw new IllegalArgumentException("not an ibv_mtu value: " + value);
    }

    /** From a size in bytes (256, 512, 1024, 2048 or 4096). */
    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("MTU must be 256, 512, 1024, 2048 or 4096 bytes, not " + bytes);
    }
}
