/**
 * verbs-ffm: libibverbs and librdmacm through Java's Foreign Function and Memory API. Needs native access:
 * run with {@code --enable-native-access=io.rdmaffm.verbs} (or ALL-UNNAMED on the class path).
 */
module io.rdmaffm.verbs {
    exports io.rdmaffm.verbs;
    exports io.rdmaffm.verbs.cm;
    exports io.rdmaffm.verbs.connect;
    exports io.rdmaffm.verbs.cuda;
    exports io.rdmaffm.verbs.topology;
}
