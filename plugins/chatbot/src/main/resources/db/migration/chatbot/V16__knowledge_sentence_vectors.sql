-- Each passage's sentences embedded too (docs/chatbot.md, "Hybrid retrieval"): for every sentence, in order, two
-- vectors of 384 little-endian float32: the sentence under the passage's title and heading (a ranking of its own,
-- fused with the passage's), then the sentence alone (a passage whose own cosine is below the floor is kept when one
-- of its sentences alone reaches the sentence floor). NULL for a passage indexed before: it has no sentence vectors
-- until its source is indexed again, which the sources below are now.
ALTER TABLE knowledge_passages ADD COLUMN sentence_embeddings bytea;

UPDATE knowledge_sources SET status = 'pending', content_hash = NULL, updated_at = clock_timestamp()
 WHERE status = 'indexed' AND kind <> 'sitemap' AND passages > 0;
