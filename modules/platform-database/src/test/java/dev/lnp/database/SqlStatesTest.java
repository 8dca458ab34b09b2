package dev.lnp.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** The SQLSTATE is found however deep the wrappers put it; the outage check and the retry check read it alike. */
class SqlStatesTest {

    private static RuntimeException wrapped(Throwable cause) {
        return new IllegalStateException("pipeline", new RuntimeException("jdbi", cause));
    }

    @Test
    void theFirstAcceptedStateAlongTheCausesIsFound() {
        var deadlock = new SQLException("deadlock detected", "40P01");
        var outer = new SQLException("current transaction is aborted", "25P02", deadlock);
        assertEquals("40P01", SqlStates.find(wrapped(outer), "40P01"::equals));
        assertEquals("25P02", SqlStates.find(wrapped(outer), state -> state.startsWith("2")));
        assertNull(SqlStates.find(wrapped(outer), "40001"::equals));
        assertNull(SqlStates.find(wrapped(new SQLException("no state")), state -> true));
    }

    @Test
    void aLostConnectionAShutdownAndAnEmptyPoolAreUnreachableAndAConstraintIsNot() {
        assertTrue(Database.isUnreachable(wrapped(new SQLException("I/O error", "08006"))));
        assertTrue(Database.isUnreachable(wrapped(new SQLException("terminating connection", "57P01"))));
        assertTrue(Database.isUnreachable(wrapped(new SQLTransientConnectionException("pool timed out"))));
        assertFalse(Database.isUnreachable(wrapped(new SQLException("duplicate key", "23505"))));
        assertFalse(Database.isUnreachable(new IllegalStateException("no SQL at all")));
    }
}
