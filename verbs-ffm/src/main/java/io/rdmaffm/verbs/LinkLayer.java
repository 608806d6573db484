package io.rdmaffm.verbs;

/** IBV_LINK_LAYER_*: InfiniBand, or Ethernet for RoCE (and Soft-RoCE). */
public enum LinkLayer {
    UNSPECIFIED, INFINIBAND, ETHERNET;

    static LinkLayer of(int value) {
        return switch (value) {
            case 1 -> INFINIBAND;
            case 2 -> ETHERNET;
            default -> UNSPECIFIED;
        };
    }
}
