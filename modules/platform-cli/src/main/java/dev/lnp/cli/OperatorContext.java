package dev.lnp.cli;

import dev.lnp.core.CorePlugin;
import dev.lnp.core.auth.Connections;
import dev.lnp.core.auth.ScopeCatalog;
import dev.lnp.core.config.PlatformConfig;
import dev.lnp.database.Database;
import dev.lnp.database.DatabaseBootstrap;
import dev.lnp.database.migrations.Migrations;
import dev.lnp.core.plugins.PluginRegistry;
import dev.lnp.core.tenancy.WorkspaceModules;
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
    private final PlatformConfig config;

    OperatorContext() {
        PlatformConfig config = PlatformConfig.fromEnvironment(Map.of());
        this.config = config;
        QuietLogging.install();
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

    /** The plugins the deployment loads are the modules a workspace can switch off (the core cannot be). */
    WorkspaceModules workspaceModules() {
        var installed = registry.plugins().stream().map(PluginRegistry.Contributions::pluginId)
                .filter(id -> !id.equals(CorePlugin.ID)).toList();
        return new WorkspaceModules(database.jdbi(), installed);
    }

    /**
     * One-time console sign-in links into a workspace, pointing at the deployment's base URL, and who has an
     * account (the workspace users sharing an e-mail address).
     */
    dev.lnp.api.internal.console.SignInInvitations signIn() {
        return consoleSignIn().orElseThrow(() -> missing("console (platform-web)"));
    }

    /** As {@link #signIn()}; empty when this installation has no console. */
    java.util.Optional<dev.lnp.api.internal.console.SignInInvitations> consoleSignIn() {
        return subsystemService(dev.lnp.api.internal.console.SignInInvitations.class);
    }

    java.util.UUID ownerId(java.util.UUID workspaceId) {
        return database.jdbi().withHandle(h -> h.createQuery(
                        "SELECT id FROM lnp_core.users WHERE workspace_id = :ws AND role = 'owner'")
                .bind("ws", workspaceId).mapTo(java.util.UUID.class).one());
    }

    Connections connections() {
        return new Connections(database.jdbi(), new ScopeCatalog(registry).all());
    }

    dev.lnp.api.internal.mail.Mailbox mailbox() {
        return subsystemService(dev.lnp.api.internal.mail.Mailbox.class)
                .orElseThrow(() -> missing("mail module (platform-mail)"));
    }

    private static IllegalStateException missing(String module) {
        return new IllegalStateException("this installation has no " + module + " in lib/");
    }

    /** A service the installation's subsystems offer operator commands, if one does. */
    private <T> java.util.Optional<T> subsystemService(Class<T> type) {
        var operator = new dev.lnp.api.internal.subsystem.Subsystem.Operator() {
            @Override
            public dev.lnp.api.internal.platform.ConfigValues config() {
                return config;
            }

            @Override
            public org.jdbi.v3.core.Jdbi jdbi() {
                return database.jdbi();
            }
        };
        return dev.lnp.api.internal.subsystem.Subsystem.load().stream()
                .map(subsystem -> subsystem.operatorServices(operator).get(type)).filter(type::isInstance)
                .map(type::cast).findFirst();
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
