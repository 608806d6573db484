package io.rdmaffm.perftest.cli;

import java.util.ListResourceBundle;

/**
 * A command's own help text for options it shares with another command through a mixin ({@link HostOptions},
 * {@link OutputFiles}): one setting, declared once, told in each command's terms. Picocli reads an option's text
 * from its command's resource bundle, keyed by the option's name without its dashes ({@code "tool-path"}); the
 * command installs its wording when picocli hands it its spec.
 */
final class OptionWording extends ListResourceBundle {
    private final Object[][] texts;

    /** {@code keyAndText}: an option's name without dashes, then its text, for each option worded. */
    OptionWording(String... keyAndText) {
        if (keyAndText.length % 2 != 0) {
            throw new IllegalArgumentException("option wording needs a text for every name");
        }
        texts = new Object[keyAndText.length / 2][];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = new Object[] {keyAndText[2 * i], keyAndText[2 * i + 1]};
        }
    }

    @Override
    protected Object[][] getContents() {
        return texts;
    }
}
