package dev.lnp.web.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.api.pages.Chart;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartDrawingTest {

    @Test
    void barsStandOnTheAxisInProportionWithTheirNumbersAndLinks() {
        Chart chart = Chart.of(Chart.Kind.BAR, "Open deals", List.of("Discovery", "Proposal")).unit("deals")
                .series(Chart.Series.of("Deals", List.of(4.0, 2.0))
                        .linkedTo(Arrays.asList("/app/crm/deals?stage=discovery", null)));
        var picture = ChartDrawing.draw("chart-1", chart);
        assertFalse(picture.empty());
        var tall = picture.bars().get(0);
        var short_ = picture.bars().get(1);
        assertEquals(tall.y() + tall.height(), short_.y() + short_.height(), 0.1, "one baseline");
        assertEquals(2 * short_.height(), tall.height(), 0.2);
        assertEquals("/app/crm/deals?stage=discovery", tall.href());
        assertNull(short_.href());
        assertEquals(List.of("4", "2"), picture.valueLabels().stream().map(DashboardPage.Label::text).toList());
        assertEquals("Deals (deals)", picture.table().headings().get(0));
        assertEquals("deals, Deals, Discovery", picture.table().rows().get(0).cells().get(0).context());
    }

    @Test
    void stacksAreLabelledWithTheirTotal() {
        Chart chart = Chart.of(Chart.Kind.STACKED_BAR, "Chats", List.of("W1"))
                .series(Chart.Series.of("Assistant", List.of(3.0)), Chart.Series.of("Person", List.of(1.5)));
        var picture = ChartDrawing.draw("c", chart);
        assertEquals(List.of("4.5"), picture.valueLabels().stream().map(DashboardPage.Label::text).toList());
        var lower = picture.bars().get(0);
        var upper = picture.bars().get(1);
        assertEquals(lower.y(), upper.y() + upper.height(), 0.2, "the second series sits on the first");
    }

    @Test
    void linesEndWithTheirNameAndLastNumber() {
        Chart chart = Chart.of(Chart.Kind.LINE, "Burn-up", List.of("1 Jun", "2 Jun", "3 Jun"))
                .series(Chart.Series.of("Scope", List.of(5.0, 6.0, 6.0)), Chart.Series.of("Done", List.of(0.0, 1.0, 4.0)));
        var picture = ChartDrawing.draw("c", chart);
        assertEquals(2, picture.lines().size());
        assertEquals(3, picture.lines().get(0).markers().size());
        assertEquals(List.of("Scope 6", "Done 4"), picture.valueLabels().stream().map(DashboardPage.Label::text).toList());
    }

    @Test
    void nothingButZerosIsTheEmptyText() {
        Chart chart = Chart.of(Chart.Kind.BAR, "Won", List.of("Jan")).emptyText("No deals closed yet.")
                .series(Chart.Series.of("Won", List.of(0.0)));
        var picture = ChartDrawing.draw("c", chart);
        assertTrue(picture.empty());
        assertEquals("No deals closed yet.", picture.emptyText());
        assertTrue(picture.bars().isEmpty());
    }

    @Test
    void linksLeavingThePlatformAreRefusedOrDropped() {
        assertThrows(IllegalArgumentException.class, () -> Chart.Series.of("x", List.of(1.0))
                .linkedTo(List.of("https://elsewhere.example")));
        var picture = ChartDrawing.draw("c", Chart.of(Chart.Kind.BAR, "t", List.of("a"))
                .series(Chart.Series.of("x", List.of(1.0)).linkedTo(List.of("//elsewhere.example/x"))));
        assertNull(picture.bars().get(0).href());
        assertThrows(IllegalArgumentException.class, () -> Chart.Series.of("x", List.of(-1.0)));
        assertThrows(IllegalArgumentException.class, () -> Chart.of(Chart.Kind.BAR, "t", List.of("a", "b"))
                .series(Chart.Series.of("x", List.of(1.0))));
    }

    @Test
    void gridStepsAreRoundNumbers() {
        assertEquals(1, ChartDrawing.step(3));
        assertEquals(5, ChartDrawing.step(17));
        assertEquals(25_000, ChartDrawing.step(90_000));
        assertEquals("12,500.5", ChartDrawing.number(12_500.5));
    }
}
