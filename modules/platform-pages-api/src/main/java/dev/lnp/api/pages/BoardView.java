package dev.lnp.api.pages;

import java.util.List;
import java.util.Objects;

/**
 * Cards in columns (a deal pipeline by stage, tasks by status). Moving a card posts {@code field=<column key>} to
 * the card's {@code move} action: by drag and drop with JavaScript, by a "Move to" choice on each card without it.
 * The action applies the same rules as the API (a refused move answers its problem, shown as a message) and the
 * board is shown again.
 *
 * @param field the form field a move posts, e.g. {@code status}
 */
public record BoardView(String title, String field, List<Lane> lanes, List<Card> cards, List<Link> actions)
        implements PageView {

    /**
     * A column of the board.
     *
     * @param summary what its heading says beside the label, e.g. the whole stage's count and value when the
     *                lane shows only its most recent cards; {@code null} shows the number of cards
     */
    public record Lane(String key, String label, String summary) {
        public Lane {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(label, "label");
        }

        public Lane(String key, String label) {
            this(key, label, null);
        }
    }

    /**
     * @param lane the key of the lane it is in
     * @param link the card's own page, or {@code null}
     * @param move the action a move posts to, or {@code null} when this person may not move it
     */
    public record Card(String id, String lane, String title, String subtitle, String link, String move) {
        public Card {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(lane, "lane");
            Objects.requireNonNull(title, "title");
        }
    }

    public BoardView {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(field, "field");
        lanes = List.copyOf(lanes);
        cards = List.copyOf(cards);
        actions = List.copyOf(actions);
        for (Card card : cards) {
            if (lanes.stream().noneMatch(l -> l.key().equals(card.lane()))) {
                throw new IllegalArgumentException("card " + card.id() + " is in no lane: " + card.lane());
            }
        }
    }
}
