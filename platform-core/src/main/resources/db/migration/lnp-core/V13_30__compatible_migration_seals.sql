-- Compatible: a new table and function that the previous version never reads.
-- A restart on an up-to-date database checks every migration history with one statement instead of Flyway per
-- schema (docs/architecture.md, "Migrations"). A seal says: Flyway found this schema's history, whose digest is
-- `history`, up to date for the scripts and Flyway configuration whose digest is `carried`. A start whose
-- binary carries the same and whose history has the same digest skips Flyway for that schema; anything else
-- (a changed, added or removed script, a newer, failed or missing entry, another Flyway) misses and runs Flyway.
CREATE TABLE migration_seals (
    history_schema text PRIMARY KEY,
    carried        text NOT NULL,
    history        text NOT NULL,
    current        text NOT NULL,
    sealed_at      timestamptz NOT NULL DEFAULT now()
);

-- The digest of one schema's Flyway history: every column Flyway's validation compares (rank, version,
-- description, type, script, checksum, success), every row in order. NULL when the schema has no history (yet),
-- which no seal equals.
CREATE FUNCTION migration_history_digest(history_schema text) RETURNS text
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    digest text;
BEGIN
    IF to_regclass(format('%I.flyway_history', history_schema)) IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT md5(string_agg(row(installed_rank, version, description, type, script, checksum, success)::text,'
                   ' E''\n'' ORDER BY installed_rank)) FROM %I.flyway_history', history_schema)
        INTO digest;
    RETURN digest;
END
$$;

REVOKE ALL ON FUNCTION migration_history_digest(text) FROM PUBLIC;
