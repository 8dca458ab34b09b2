package dev.lnp.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PageOutcomeTest {

    @Test
    void anOutcomeKeepsItsValueShownOnceAndItsActivity() {
        var outcome = PageOutcome.goTo("/console/hooks/1", "Created.").showingOnce("Secret", "s3cret", null)
                .recorded("hooks.created", "https://example.com (1)", "events a.b");
        assertEquals("s3cret", outcome.shownOnce().value());
        assertNull(outcome.shownOnce().note());
        assertEquals("hooks.created", outcome.activity().action());
        assertEquals("Created.", outcome.notice());
    }

    @Test
    void anActivityIsNamedModuleDotWhatHappened() {
        var outcome = PageOutcome.goTo("/app/notes/items");
        for (String bad : new String[] {"deleted", "Notes.deleted", "notes.", "notes.item deleted"}) {
            assertThrows(IllegalArgumentException.class, () -> outcome.recorded(bad, "x", null), bad);
        }
        assertThrows(NullPointerException.class, () -> outcome.showingOnce("Key", null, null));
    }
}
