package dev.lnp.core.cli;

import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.core.db.Database;
import dev.lnp.core.db.DatabaseBootstrap;
import dev.lnp.core.db.Migrations;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tenancy.Workspaces;
import java.util.Map;

/**
 * What an operator command needs: the configured database (the embedded one too; a running server's embedded
 * PostgreSQL is reused) with the core migrated, and the scopes of the deployment's plugins.
 */
final class OperatorContext implements AutoCloseable {

    private final DatabaseBootstrap bootstrap;
    private final Database database;
    private final Plugins plugins;
    private final PluginRegistry registry;

    OperatorContext() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        this.plugins = new Plugins(config);
        this.bootstrap = DatabaseBootstrap.forOperatorCommand(config);
        try {
            this.registry = plugins.registry(config);
            this.database = bootstrap.connect();
            new Migrations(database.dataSource(), database.jdbi()).migrateCore();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    Workspaces workspaces() {
        return new Workspaces(database.jdbi());
    }

    Connections connections() {
        return new Connections(database.jdbi(), new ScopeCatalog(registry).all());
    }

    dev.lnp.core.mail.Mailbox mailbox() {
        return new dev.lnp.core.mail.Mailbox(database.jdbi());
    }

    /** Names of the tools the deployment's plugins register. */
    java.util.Set<String> toolNames() {
        var names = new java.util.TreeSet<String>();
        registry.tools().forEach(t -> names.add(t.descriptor().name()));
        return names;
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
        bootstrap.close();
        plugins.close();
    }
}
