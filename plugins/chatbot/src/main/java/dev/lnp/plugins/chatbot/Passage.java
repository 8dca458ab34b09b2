package dev.lnp.plugins.chatbot;

/** A passage of a knowledge source: the source's title, the heading it sits under, that heading's anchor, text. */
record Passage(String title, String heading, String anchor, String text) {

    /** What the embedding model reads: the title and heading give a short passage its subject. */
    String embeddingText() {
        return heading.isEmpty() || heading.equals(title) ? title + ". " + text : title + ". " + heading + ". " + text;
    }

    /** The page address of the passage: the source's URL and the heading's anchor, or null without a URL. */
    String link(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        return anchor.isEmpty() || url.contains("#") ? url : url + "#" + anchor;
    }
}
