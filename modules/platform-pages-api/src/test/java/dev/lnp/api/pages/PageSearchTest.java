package dev.lnp.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PageSearchTest {

    @Test
    void aSourceNeedsAKindAScopeAndItsCode() {
        PageSearch.Source none = (call, text, limit) -> List.of();
        assertEquals("Notes", new PageSearch("Notes", "notes.read", none).kind());
        assertThrows(IllegalArgumentException.class, () -> new PageSearch(" ", "notes.read", none));
        assertThrows(NullPointerException.class, () -> new PageSearch("Notes", null, none));
        assertThrows(NullPointerException.class, () -> new PageSearch("Notes", "notes.read", null));
    }

    @Test
    void aHitLinksToAPageOfTheApplication() {
        assertEquals("/app/notes/items/1", new SearchHit("Note", null, "/app/notes/items/1").href());
        for (String elsewhere : new String[] {"https://example.com/app/x", "/console/members", "//evil.example/app/"}) {
            assertThrows(IllegalArgumentException.class, () -> new SearchHit("Note", null, elsewhere), elsewhere);
        }
        assertThrows(NullPointerException.class, () -> new SearchHit(null, null, "/app/notes"));
    }
}
