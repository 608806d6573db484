package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the command line said, before any default or rule: the host argument and the {@link Flag}s given, each
 * with its typed value. Immutable; {@link #with} returns a copy. Read once by {@link ParameterRules#check},
 * which owns every default (declared in {@link Flag}) and every rule.
 */
public final class ToolOptions {
    private final String server;
    private final Map<Flag, Object> given;

    /** Nothing given: the server side with every default. */
    public ToolOptions() {
        this(null, new EnumMap<>(Flag.class));
    }

    private ToolOptions(String server, EnumMap<Flag, Object> given) {
        this.server = server;
        this.given = Collections.unmodifiableMap(given);
    }

    /** The same with the host argument {@code host} (null: this side is the server). */
    public ToolOptions server(String host) {
        return new ToolOptions(host, copy());
    }

    /** The same with the boolean flag {@code f} given. */
    public ToolOptions with(Flag f) {
        return with(f, Boolean.TRUE);
    }

    /**
     * The same with {@code f} given as {@code value} (null: not given).
     *
     * @throws IllegalArgumentException when {@code value} is not of the flag's {@link Flag.Kind}
     */
    public ToolOptions with(Flag f, Object value) {
        Object v = value;
        if (v instanceof Integer i && f.kind() == Flag.Kind.LONG) {
            v = i.longValue();
        }
        if (v != null && !f.kind().type().isInstance(v)) {
            throw new IllegalArgumentException(f.longName() + " takes a " + f.kind() + ", not " + v);
        }
        EnumMap<Flag, Object> m = copy();
        if (v == null || Boolean.FALSE.equals(v)) {
            m.remove(f);
        } else {
            m.put(f, v);
        }
        return new ToolOptions(server, m);
    }

    private EnumMap<Flag, Object> copy() {
        return given.isEmpty() ? new EnumMap<>(Flag.class) : new EnumMap<>(given);
    }

    /** The host argument; null: this side is the server. */
    public String server() {
        return server;
    }

    /** Whether the command line gave {@code f}. */
    public boolean given(Flag f) {
        return given.containsKey(f);
    }

    /** The value given for {@code f} (true for a boolean flag), or null when not given. */
    public Object value(Flag f) {
        return given.get(f);
    }

    /** The first flag of perftest's raw Ethernet tools given, or null. */
    public Flag firstRawEthernet() {
        for (Flag f : given.keySet()) {
            if (f.rawEthernet()) {
                return f;
            }
        }
        return null;
    }

    /** A boolean flag: given or not. */
    boolean on(Flag f) {
        return given.containsKey(f);
    }

    /** The value as typed, or null when not given. */
    Integer intGiven(Flag f) {
        return (Integer) given.get(f);
    }

    /** The value as typed, or null when not given. */
    String text(Flag f) {
        return (String) given.get(f);
    }

    /** The value as typed, or null when not given. */
    Path path(Flag f) {
        return (Path) given.get(f);
    }

    /** The value given, checked by the flag's rule, else {@code tool}'s default. */
    int intFor(Flag f, Tool tool) {
        return numberFor(f, tool).intValue();
    }

    /** The value given, checked by the flag's rule, else {@code tool}'s default. */
    long longFor(Flag f, Tool tool) {
        return numberFor(f, tool).longValue();
    }

    private Number numberFor(Flag f, Tool tool) {
        Number v = (Number) given.get(f);
        if (v == null) {
            return (Number) f.defaultFor(tool);
        }
        f.check(v.longValue());
        return v;
    }

    /** The value given, else {@code tool}'s default. */
    Object valueFor(Flag f, Tool tool) {
        Object v = given.get(f);
        return v != null ? v : f.defaultFor(tool);
    }
}
