-- Compatible: only how new rows' entities are compressed changes; every version reads them the same way.
-- A list tool names every row it read (50 rows: about 4 KB of JSON), so nearly every such audit row is compressed
-- and stored out of line. With lz4 that insert costs PostgreSQL less than half of what the default pglz costs
-- (docs/performance.md, "MCP tool calls, session 11"). A server built without lz4 keeps pglz.
DO $$
BEGIN
    ALTER TABLE tool_calls ALTER COLUMN entities SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: tool_calls.entities stays compressed with pglz';
END
$$;
