package dev.lnp.database.migrations;

import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

/**
 * Keeps PostgreSQL's NOTICEs off the connections Flyway opens. Notices such as {@code extension "pg_trgm" already
 * exists, skipping} (an idempotent {@code CREATE EXTENSION IF NOT EXISTS} that another plugin's migration ran
 * first) reach Flyway as statement warnings, which it logs as WARNING lines, though they say that things are as
 * wanted. Warnings and errors still come through. The setting stays on the pooled connection afterwards, which
 * only keeps notices (that nothing reads) from its later clients.
 */
final class NoticesOff implements Callback {

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.AFTER_CONNECT;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        try (Statement statement = context.getConnection().createStatement()) {
            statement.execute("SET client_min_messages = warning");
        } catch (SQLException e) {
            throw new FlywayException("Could not set client_min_messages for the migrations: " + e.getMessage(), e);
        }
    }

    @Override
    public String getCallbackName() {
        return "lnp-notices-off";
    }
}
