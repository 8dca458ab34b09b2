-- Compatible: the previous version runs beside it. It reads and writes `entities` as before and never reads the
-- new column, so the only thing it misses while both run is the entities of the calls a newer node recorded: its
-- audit listing shows those calls with an empty `entities` (a newer node lists them in full; nothing is lost).
--
-- A list call names every row it read: fifty refs of one type and action. Stored one object per ref, about 4 KB
-- of JSON, they cost PostgreSQL about 41 µs a row to parse into jsonb and compress, the largest part of what a
-- list call costs the database beyond the same REST page. Grouped, consecutive refs of one type and action
-- sharing one object ({"type", "action", "ids": [...]}), the same refs are half the text and cost 14 µs
-- (docs/performance.md, "MCP: the audit's entities grouped, session 26"). Newer nodes write every call's refs
-- here and leave `entities` at its default; a row with this column NULL was written by an older version.
ALTER TABLE tool_calls ADD COLUMN entity_groups jsonb;

DO $$
BEGIN
    ALTER TABLE tool_calls ALTER COLUMN entity_groups SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: tool_calls.entity_groups is compressed with pglz';
END
$$;
