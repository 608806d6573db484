package io.rdmaffm.verbs.topology;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code "%d: %s"} attribute: port {@code state} ({@code "4: ACTIVE"}), {@code phys_state}
 * ({@code "5: LinkUp"}) and {@code node_type} ({@code "1: CA"}).
 *
 * @param code the number
 * @param name the name as printed
 */
public record CodedState(int code, String name) {

    private static final Pattern FORMAT = Pattern.compile("^(\\d{1,4}): ?(\\S.{0,40})$");

    /**
     * @param text the attribute text
     * @return the state, or why it is not one
     */
    public static Reading<CodedState> parse(String text) {
        Matcher m = FORMAT.matcher(text.strip());
        if (!m.matches()) {
            return Reading.unknown("unparseable state " + Sysfs.quote(text.strip()));
        }
        return Reading.of(new CodedState(Integer.parseInt(m.group(1)), m.group(2).strip()));
    }

    @Override
    public String toString() {
        return code + ": " + name;
    }
}
