-- Additive only (a nullable column): nodes of the previous version keep working, hence "compatible" in the name.
ALTER TABLE items ADD COLUMN note text;
