/**
 * Full-text search on PostgreSQL. The text search configuration archive_simple splits words with the simple parser and
 * strips accents (unaccent) before lowercasing, so "Grüße" finds "grusse" and "café" finds "cafe", in German, English
 * and any other language alike: no stemming, like SQLite's unicode61 tokenizer.
 *
 * documents_fts mirrors SQLite's FTS5 table of the same name (rowid = documents.rowid; title, content, sender, tags),
 * so the writer's portable statements are the same on both back ends; the tsvector is a generated column over them
 * with a GIN index. Weights follow SQLite's bm25 weights (title 10, sender and tags 5, content 1): A, B, B, D.
 */
export const TEXT_SEARCH_SQL = `
  CREATE EXTENSION IF NOT EXISTS unaccent;
  CREATE TEXT SEARCH CONFIGURATION archive_simple (COPY = pg_catalog.simple);
  ALTER TEXT SEARCH CONFIGURATION archive_simple
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
    WITH unaccent, simple;

  -- A tsvector holds at most 1 MB of lexemes; a huge text (a 5-million-character spreadsheet) keeps the words of as
  -- much of its content as fits, rather than failing the document's indexing.
  CREATE FUNCTION archive_fts_vector(title text, content text, sender text, tags text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
  DECLARE
    head tsvector := setweight(to_tsvector('archive_simple', coalesce(title, '')), 'A')
      || setweight(to_tsvector('archive_simple', coalesce(sender, '')), 'B')
      || setweight(to_tsvector('archive_simple', coalesce(tags, '')), 'B');
    kept text := coalesce(content, '');
  BEGIN
    -- Short texts cannot reach the limit: no subtransaction for them.
    IF length(kept) <= 100000 THEN
      RETURN head || setweight(to_tsvector('archive_simple', kept), 'D');
    END IF;
    LOOP
      BEGIN
        RETURN head || setweight(to_tsvector('archive_simple', kept), 'D');
      EXCEPTION WHEN program_limit_exceeded THEN
        IF kept = '' THEN RAISE; END IF;
        kept := left(kept, length(kept) / 2);
      END;
    END LOOP;
  END $$;

  CREATE TABLE documents_fts (
    rowid bigint PRIMARY KEY REFERENCES documents(rowid) ON DELETE CASCADE,
    title text, content text, sender text, tags text,
    search_vector tsvector GENERATED ALWAYS AS (archive_fts_vector(title, content, sender, tags)) STORED
  );
  CREATE INDEX documents_fts_search ON documents_fts USING gin (search_vector);
`;

/**
 * Each document's tsvector in its own row (STORAGE MAIN) rather than in the TOAST table. A search newest first checks
 * the vector of every row it passes (about 9,000 for two words in a million documents); out of line, each check also
 * looked up the TOAST index and read the chunks, twice the cost of the check itself. Catalog only: rows written from
 * now on (every reindex writes a new one) are stored so; `VACUUM FULL documents_fts` moves the older ones.
 */
export const SEARCH_VECTOR_INLINE_SQL = `
  ALTER TABLE documents_fts ALTER COLUMN search_vector SET STORAGE MAIN;
`;
