package dev.lnp.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartedComponentsTest {

    @Test
    void closesTheLastStartedFirstAndCarriesOnPastAFailure() {
        List<String> closed = new ArrayList<>();
        var started = new StartedComponents();
        started.pushStop("loaders", () -> closed.add("loaders"));
        AutoCloseable pool = () -> closed.add("pool");
        assertSame(pool, started.push("pool", pool), "push hands back what it was given");
        started.pushStop("plugin", () -> {
            closed.add("plugin");
            throw new IllegalStateException("the plugin failed to stop");
        });
        started.pushStop("server", () -> closed.add("server"));

        started.close();

        assertEquals(List.of("server", "plugin", "pool", "loaders"), closed);
    }

    @Test
    void aSecondCloseClosesNothingTwice() {
        List<String> closed = new ArrayList<>();
        var started = new StartedComponents();
        started.pushStop("pool", () -> closed.add("pool"));

        started.close();
        started.close();

        assertEquals(List.of("pool"), closed);
    }
}
