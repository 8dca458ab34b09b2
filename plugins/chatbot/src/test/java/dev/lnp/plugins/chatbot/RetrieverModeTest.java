package dev.lnp.plugins.chatbot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RetrieverModeTest {

    @Test
    void hybridIsFullTextAloneForALanguageTheModelDoesNotRead() {
        assertEquals(Retriever.Mode.HYBRID, Retriever.modeFor("en", Retriever.Mode.HYBRID));
        assertEquals(Retriever.Mode.FULL_TEXT, Retriever.modeFor("de", Retriever.Mode.HYBRID));
        assertEquals(Retriever.Mode.SEMANTIC, Retriever.modeFor("de", Retriever.Mode.SEMANTIC), "asked explicitly");
        assertEquals(Retriever.Mode.FULL_TEXT, Retriever.modeFor("en", Retriever.Mode.FULL_TEXT));
    }
}
