import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeds a workspace through the public API, the way a client would: a fixed number of concurrent workers
 * (virtual threads over keep-alive HTTP/1.1 connections) POST generated records and keep the created ids.
 * A failed request is retried a few times (a 5xx or a connection reset); a 4xx stops the seed, because it
 * means the generated data or the harness is wrong.
 */
final class Seeder {

    private static final Pattern ID = Pattern.compile("[{,]\\s*\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final int workers;

    Seeder(String base, int workers) {
        this.base = base;
        this.workers = workers;
    }

    /** The seeded ids the scenarios use. */
    record Seeded(List<UUID> contacts, List<UUID> deals, List<UUID> projects, List<UUID> tasks, List<UUID> tickets) {
    }

    record Sizes(int contacts, int deals, int projects, int tasks, int tickets) {
        Sizes scaled(double f) {
            return new Sizes(Math.max(100, (int) (contacts * f)), Math.max(50, (int) (deals * f)),
                    Math.max(5, Math.min(projects, (int) Math.ceil(projects * f))), Math.max(500, (int) (tasks * f)),
                    Math.max(50, (int) (tickets * f)));
        }

        int total() {
            return contacts + deals + projects + tasks + tickets;
        }
    }

    Seeded seed(String key, Sizes sizes, String label) throws InterruptedException {
        List<UUID> assignees = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            assignees.add(UUID.nameUUIDFromBytes(("rep-" + i).getBytes()));
        }
        List<UUID> projects = post(key, "/api/v1/projects", sizes.projects(), Data::project, label + " projects");
        List<UUID> contacts = post(key, "/api/v1/crm/contacts", sizes.contacts(), Data::contact,
                label + " contacts");
        List<UUID> deals = post(key, "/api/v1/crm/deals", sizes.deals(),
                i -> Data.deal(i, i % 5 == 4 ? null : contacts.get((i * 7) % contacts.size()), assignees),
                label + " deals");
        List<UUID> tasks = post(key, "/api/v1/issues", sizes.tasks(),
                i -> Data.task(i, projects.get(i % projects.size())), label + " tasks");
        List<UUID> tickets = post(key, "/api/v1/issues", sizes.tickets(), Data::ticket, label + " tickets");
        return new Seeded(contacts, deals, projects, tasks, tickets);
    }

    /** POSTs {@code count} bodies with {@link #workers} concurrent workers; the ids in the bodies' order. */
    List<UUID> post(String key, String path, int count, IntFunction<String> body, String what)
            throws InterruptedException {
        long started = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        AtomicReferenceArray<UUID> ids = new AtomicReferenceArray<>(count);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < workers; w++) {
                pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count && failures.isEmpty(); i = next.getAndIncrement()) {
                        try {
                            ids.set(i, create(key, path, body.apply(i)));
                        } catch (Exception e) {
                            failures.add(what + " #" + i + ": " + e.getMessage());
                        }
                    }
                    return null;
                });
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("seeding failed: " + failures.peek());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Bench.log(String.format("seeded %,d %s in %.1f s (%,.0f/s)", count, what, seconds, count / seconds));
        List<UUID> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(ids.get(i));
        }
        return list;
    }

    private UUID create(String key, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException e) {
                if (attempt < 5) {
                    Thread.sleep(100L * attempt);
                    continue;
                }
                throw e;
            }
            if (response.statusCode() == 201) {
                Matcher m = ID.matcher(response.body());
                if (!m.find()) {
                    throw new IllegalStateException("no id in " + response.body());
                }
                return UUID.fromString(m.group(1));
            }
            if (response.statusCode() < 500 || attempt >= 5) {
                throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": "
                        + response.body() + " for " + body);
            }
            Thread.sleep(100L * attempt);
        }
    }
}
