-- Not compatible: the previous version still reads and writes "kind".
ALTER TABLE items RENAME COLUMN kind TO category;
