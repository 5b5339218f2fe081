/**
 * documents.title_key on PostgreSQL: common/sort-key.ts's titleSortKey as an SQL function, kept by a trigger as on
 * SQLite, so every writer (upload, processing, hand edits, the CLI, another instance) keeps the key exact without
 * computing it. Each step mirrors one line of titleSortKey; its test compares the two on the same titles.
 *
 * JavaScript's \p{M} has no equal in PostgreSQL's regular expressions: the combining marks removed here are the
 * blocks that the decomposition of Latin, Greek, Cyrillic, Hebrew, Arabic and kana letters produces.
 * JavaScript's \s is spelled out for the same reason.
 */
const COMBINING_MARKS =
  '[\\u0300-\\u036f\\u0483-\\u0489\\u0591-\\u05c7\\u0610-\\u061a\\u064b-\\u065f\\u0670\\u06d6-\\u06ed' +
  '\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\u3099\\u309a\\ufe20-\\ufe2f]';
const JS_WHITESPACE = '[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+';

export const TITLE_KEY_SQL = `
  CREATE FUNCTION title_sort_key(title text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
  DECLARE
    folded text;
    pieces text[];
    numbers text[];
    significant text;
    result text;
  BEGIN
    folded := lower(regexp_replace(normalize(coalesce(title, ''), NFKD), '${COMBINING_MARKS}', '', 'g'));
    folded := replace(replace(replace(replace(folded, 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'þ', 'th');
    folded := translate(folded, 'øđłı', 'odli');
    folded := btrim(regexp_replace(folded, '${JS_WHITESPACE}', ' ', 'g'), ' ');
    -- Each number is written after its digit count, so a shorter number sorts first: "2" → "012", "10" → "0210".
    pieces := regexp_split_to_array(folded, '[0-9]+');
    numbers := ARRAY(SELECT m[1] FROM regexp_matches(folded, '([0-9]+)', 'g') AS m);
    result := pieces[1];
    FOR i IN 1 .. coalesce(array_length(numbers, 1), 0) LOOP
      significant := left(regexp_replace(numbers[i], '^0+(?=[0-9])', ''), 99);
      result := result || lpad(length(significant)::text, 2, '0') || significant || pieces[i + 1];
    END LOOP;
    RETURN result;
  END $$;

  CREATE FUNCTION documents_title_key_keep() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.title_key := title_sort_key(NEW.title);
    RETURN NEW;
  END $$;
  CREATE TRIGGER documents_title_key_insert BEFORE INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION documents_title_key_keep();
  CREATE TRIGGER documents_title_key_update BEFORE UPDATE OF title ON documents
    FOR EACH ROW WHEN (NEW.title IS DISTINCT FROM OLD.title) EXECUTE FUNCTION documents_title_key_keep();
`;

/**
 * title_sort_key lowercases with the database's locale and decomposes with normalize(), which needs UTF-8. A database
 * made with LC_CTYPE=C would sort "Ärger" after "Zoo"; it is refused with a clear message instead.
 */
export const TITLE_KEY_PREREQUISITES_SQL = `
  DO $$
  BEGIN
    IF pg_encoding_to_char((SELECT encoding FROM pg_database WHERE datname = current_database())) <> 'UTF8' THEN
      RAISE EXCEPTION 'The archive database must use the UTF8 encoding (CREATE DATABASE … ENCODING ''UTF8'')';
    END IF;
    IF lower('Ä') <> 'ä' THEN
      RAISE EXCEPTION 'The archive database''s LC_CTYPE (%) lowercases ASCII letters only; create it with a UTF-8 locale such as C.UTF-8 or en_US.UTF-8 (CREATE DATABASE … LC_CTYPE ''C.UTF-8'' TEMPLATE template0)',
        (SELECT datctype FROM pg_database WHERE datname = current_database());
    END IF;
  END $$;
`;
