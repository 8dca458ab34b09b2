package dev.lnp.plugins.chatbot;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** A passage of a knowledge source: the source's title, the heading it sits under, that heading's anchor, text. */
record Passage(String title, String heading, String anchor, String text) {

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");

    /** What the embedding model reads: the title and heading give a short passage its subject. */
    String embeddingText() {
        return subject() + text;
    }

    private String subject() {
        return heading.isEmpty() || heading.equals(title) ? title + ". " : title + ". " + heading + ". ";
    }

    /**
     * What the model reads of each sentence, two texts a sentence: the sentence under the title and heading (its
     * subject, for ranking), then the sentence alone (for the floor). A passage's text cut between sentences as
     * {@link Chunker} cuts a long paragraph.
     */
    List<String> sentenceTexts() {
        List<String> out = new ArrayList<>();
        for (String sentence : SENTENCE_END.split(text.strip())) {
            if (!sentence.isBlank()) {
                out.add(subject() + sentence);
                out.add(sentence);
            }
        }
        return out;
    }

    /** The page address of the passage: the source's URL and the heading's anchor, or null without a URL. */
    String link(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        return anchor.isEmpty() || url.contains("#") ? url : url + "#" + anchor;
    }
}
