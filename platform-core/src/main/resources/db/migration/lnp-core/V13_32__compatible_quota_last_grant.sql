-- Compatible: a column the previous version neither reads nor writes (its inserts take the default).
-- The admission statement may take a block of quota units for a node's reserve (QuotaReserve); near the limit it
-- takes only what is left, and RETURNING sees only the new row, so the statement records how many it took here.
ALTER TABLE quota_usage ADD COLUMN last_grant bigint NOT NULL DEFAULT 0;
