package dev.lnp.plugins.chatbot;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The sections of an HTML page, read with jsoup: headings ({@code h1}–{@code h6}) start sections, their anchor is the
 * heading's {@code id} (or one made from its words); paragraphs, list items, quotes, preformatted text and table
 * cells are the paragraphs. Scripts, styles, navigation, headers, footers and asides are not the page's content and
 * are left out. The page's {@code <title>} (else its first {@code h1}) is its title.
 */
final class HtmlText {

    private static final String BLOCKS = "h1, h2, h3, h4, h5, h6, p, li, pre, blockquote, dd, dt, td, th";

    private HtmlText() {
    }

    static MarkdownText.Document parse(String html) {
        Document doc = Jsoup.parse(html);
        doc.select("script, style, noscript, template, nav, header, footer, aside, form, svg, iframe").remove();
        String title = doc.title().isBlank() ? null : doc.title().strip();
        Element root = doc.selectFirst("main, article, [role=main]");
        if (root == null) {
            root = doc.body();
        }
        List<Section> sections = new ArrayList<>();
        String heading = "";
        String anchor = "";
        List<String> paragraphs = new ArrayList<>();
        for (Element e : root.select(BLOCKS)) {
            if (!e.select(BLOCKS).stream().allMatch(d -> d == e)) {
                continue;               // its inner blocks are read one by one
            }
            String text = e.text().strip();
            if (e.normalName().matches("h[1-6]")) {
                if (title == null && e.normalName().equals("h1")) {
                    title = text;
                }
                if (!paragraphs.isEmpty()) {
                    sections.add(new Section(heading, anchor, paragraphs));
                }
                paragraphs = new ArrayList<>();
                heading = text;
                anchor = e.id().isBlank() ? Chunker.slug(text) : e.id();
            } else if (!text.isEmpty()) {
                paragraphs.add(e.normalName().equals("pre") ? e.wholeText().strip() : text);
            }
        }
        if (!paragraphs.isEmpty()) {
            sections.add(new Section(heading, anchor, paragraphs));
        }
        return new MarkdownText.Document(title, sections);
    }
}
