-- PostgreSQL; H2 already compares strings by their characters.
--
-- Every text column compares and sorts by its bytes (COLLATE "C"), whatever locale the database
-- was created with. Why:
--
-- * Cost. Nearly every key here is text: hashes and transaction ids as 0x-hex, principals,
--   contract ids, event kinds. Under a locale collation (the database default: C.UTF-8 on the
--   test machines, en_US.UTF-8 on many servers) each comparison in a B-tree descent, a sort or a
--   merge goes through the C library's strcoll (or ICU), and PostgreSQL 15 uses no abbreviated
--   keys for sorts under a libc locale; under "C" it is a memcmp. Replaying the
--   100,000-transaction mixed log, this migration against the build before it: the statements'
--   time 0.94 of it in a C.UTF-8 database, the PostgreSQL processes' CPU 0.83-0.91 of it in an ICU
--   en-US one (docs/performance.md, "Replay").
-- * One order everywhere. A page ordered by a text column (the mempool page breaks ties by tx_id)
--   follows the bytes of UTF-8, which is the order of the characters, as on H2: the same on every
--   PostgreSQL server and on both databases, instead of depending on how the server was set up.
--
-- Every text column, not only the indexed ones: a comparison between two columns of different
-- collations fails ("could not determine which collation to use"), so the whole schema has one.
-- TextCollationPostgresTest checks that later migrations keep it so. One ALTER TABLE per table, so
-- that each table's indexes are rebuilt once (a collation change does not rewrite the rows): on
-- the 100,000-transaction database (653 MB) the migration took 1.3 s; on a large one it takes
-- about as long as building its indexes, with the tables locked, so upgrade the writer in a quiet
-- moment (readers keep serving from their standbys).
--
-- ALTER COLUMN … TYPE also resets a column's compression to the server's default: the stored
-- payloads' lz4 (V101) is set again afterwards, or every payload would be compressed with pglz,
-- which made the 100,000-transaction replay's COPY of the payloads 2.6 times as slow.
DO $$
DECLARE
    t record;
    compressed record;
BEGIN
    CREATE TEMPORARY TABLE v204_compression ON COMMIT DROP AS
        SELECT c.relname AS table_name, a.attname AS column_name, a.attcompression AS method
        FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
        WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attcompression <> '';
    FOR t IN
        SELECT c.table_name,
               string_agg(format('ALTER COLUMN %I TYPE %s COLLATE "C"', c.column_name,
                   CASE
                       WHEN c.data_type = 'text' THEN 'text'
                       WHEN c.character_maximum_length IS NULL THEN c.data_type
                       ELSE format('%s(%s)', c.data_type, c.character_maximum_length)
                   END), ', ' ORDER BY c.ordinal_position) AS changes
        FROM information_schema.columns c
        JOIN information_schema.tables tb
          ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
        WHERE c.table_schema = current_schema()
          AND c.data_type IN ('character varying', 'character', 'text')
          AND c.table_name <> 'flyway_schema_history'
          AND c.collation_name IS DISTINCT FROM 'C'
        GROUP BY c.table_name
    LOOP
        EXECUTE format('ALTER TABLE %I %s', t.table_name, t.changes);
    END LOOP;
    FOR compressed IN SELECT * FROM v204_compression LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET COMPRESSION %s', compressed.table_name,
            compressed.column_name, CASE compressed.method WHEN 'l' THEN 'lz4' ELSE 'pglz' END);
    END LOOP;
END $$;
