import io.rdmaffm.perftest.cli.Main;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.File;

/**
 * Writes the AsciiDoc man pages of rdma-perftest and each of its subcommands into the folder {@code args[0]},
 * from the same picocli model the launcher runs (so the pages cannot drift from the options). Run by
 * packaging/build-package.sh in the JDK's source-file mode; asciidoctor turns the pages into roff.
 */
public final class ManPages {
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ManPages OUTPUT_DIR");
            System.exit(2);
        }
        int status = ManPageGenerator.generateManPage(new File(args[0]), null, new boolean[0], true,
                Main.commandLine().getCommandSpec());
        System.exit(status);
    }
}
