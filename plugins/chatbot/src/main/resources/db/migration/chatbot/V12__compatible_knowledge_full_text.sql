-- Why this function exists: under row-level security PostgreSQL uses a condition as an index condition only when
-- its operator is LEAKPROOF, and tsvector @@ tsquery (ts_match_vq) is not. The knowledge's full-text query run as
-- the request role therefore never used knowledge_passages_search and read every passage of the workspace (over
-- 20,000 passages, most of a retrieval's time).
--
-- This function runs the full-text part of a retrieval as its owner (the migration user), applying the very same
-- workspace predicate as the policies itself, and returns only ids with their rank; the retriever reads the
-- passages under row-level security and its own workspace filter. If the owner is itself subject to row-level
-- security the results are the same, only found without the index.
--
-- lang: the passages' language; query: websearch_to_tsquery syntax; ranked: matches ranked at most (taken as the
-- index yields them); lim: rows returned, best first.
CREATE FUNCTION chatbot.knowledge_full_text(lang text, query text, ranked int, lim int)
    RETURNS TABLE (id uuid, rank real)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- Executed with the words as parameters, so each execution is planned for its own words: a plan for any words
    -- scans the workspace's passages where the index would find the few that match.
    RETURN QUERY EXECUTE
        'SELECT m.id, ts_rank_cd(m.search, m.q, 1) FROM (
             SELECT p.id, p.search, q.q FROM chatbot.knowledge_passages p,
                    websearch_to_tsquery(chatbot.ts_config($1), $2) q(q)
              WHERE p.workspace_id = lnp_core.current_workspace() AND p.language = $1 AND p.search @@ q.q
              LIMIT $3) m
          ORDER BY 2 DESC, m.id LIMIT $4'
        USING lang, query, ranked, lim;
END
$$;

REVOKE ALL ON FUNCTION chatbot.knowledge_full_text(text, text, int, int) FROM PUBLIC;
