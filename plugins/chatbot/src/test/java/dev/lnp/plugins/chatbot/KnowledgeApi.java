package dev.lnp.plugins.chatbot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.testkit.TestPlatform;
import dev.lnp.testkit.TestResponse;
import java.util.concurrent.TimeUnit;

/** The knowledge routes as the tests use them: wait for the indexer, ask the search what the chat would answer from. */
final class KnowledgeApi {

    private KnowledgeApi() {
    }

    /** The progress once nothing waits and at least one passage exists, or a failure after 60 s. */
    static JsonNode awaitIndexed(TestPlatform platform, String key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode progress = null;
        while (System.nanoTime() < deadline) {
            progress = platform.get("/api/v1/chatbot/knowledge", key).data();
            if (progress.get("pending").asInt() == 0 && progress.get("passages").asInt() > 0) {
                return progress;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never indexed: " + progress);
    }

    /** The passages the chat would answer {@code question} from (none: nothing relevant). */
    static JsonNode ask(TestPlatform platform, String key, String question) {
        TestResponse r = platform.post("/api/v1/chatbot/knowledge/search", key,
                Json.object().put("question", question).toString());
        if (r.status() != 200) {
            throw new AssertionError(r.toString());
        }
        return r.data().get("passages");
    }
}
