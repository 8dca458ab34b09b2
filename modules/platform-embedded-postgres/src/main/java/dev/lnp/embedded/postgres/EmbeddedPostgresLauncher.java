package dev.lnp.embedded.postgres;

import dev.lnp.database.EmbeddedDatabase;
import java.nio.file.Path;

/** What the kernel finds through {@code ServiceLoader} when no database URL is configured. */
public final class EmbeddedPostgresLauncher implements EmbeddedDatabase.Launcher {

    @Override
    public EmbeddedDatabase start(Path dataDir, String runAsUser) {
        return EmbeddedPostgres.start(dataDir, runAsUser);
    }
}
