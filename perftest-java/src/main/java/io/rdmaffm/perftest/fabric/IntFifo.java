package io.rdmaffm.perftest.fabric;

/** A bounded first-in first-out queue of ints (immediates as they arrived), without boxing. */
final class IntFifo {
    private final int[] items;
    private int head;
    private int size;

    IntFifo(int capacity) {
        items = new int[capacity];
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(int v) {
        if (size == items.length) {
            throw new IllegalStateException("more than " + items.length + " immediates unread");
        }
        items[(head + size) % items.length] = v;
        size++;
    }

    int take() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        int v = items[head];
        head = (head + 1) % items.length;
        size--;
        return v;
    }
}
