import { beforeAll, describe, expect, it } from 'vitest';
import { useArchiveDatabase } from '../../helpers/archive-database.ts';
import { postgresForTests } from '../../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

describe.skipIf(!postgres.url)('PostgreSQL full-text search (archive_simple)', () => {
  const archive = useArchiveDatabase();
  let spaceId: string;
  let nextId = 0;

  /** A document and its index row, written as the service writes them on SQLite. */
  const index = async (text: { title: string; content?: string; sender?: string; tags?: string }) => {
    const id = `doc-${++nextId}`;
    const { rowid } = (await archive.sql.get<{ rowid: number }>(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
        sha256, created_at, updated_at) VALUES (?, ?, 'ready', ?, 'a.pdf', 'application/pdf', 'pdf', 1, 'x', 'now', 'now')
       RETURNING rowid`,
      id,
      spaceId,
      text.title,
    ))!;
    await archive.sql.run(
      'INSERT INTO documents_fts (rowid, title, content, sender, tags) VALUES (?, ?, ?, ?, ?)',
      rowid,
      text.title,
      text.content ?? '',
      text.sender ?? '',
      text.tags ?? '',
    );
    return rowid;
  };
  const matches = async (query: string) =>
    (
      await archive.sql.all<{ rowid: number }>(
        "SELECT rowid FROM documents_fts WHERE search_vector @@ plainto_tsquery('archive_simple', ?) ORDER BY rowid",
        query,
      )
    ).map((r) => r.rowid);

  beforeAll(async () => {
    spaceId = (await archive.sql.get<{ id: string }>('SELECT id FROM spaces'))!.id;
  });

  it('matches German and English words with and without accents, in either direction', async () => {
    const greeting = await index({ title: 'Brief', content: 'Mit freundlichen Grüße aus München' });
    const cafe = await index({ title: 'Receipt', content: 'One café au lait, one crème brûlée' });
    const plain = await index({ title: 'Note', content: 'grusse from the cafe in Munchen' });

    expect(await matches('grusse')).toEqual([greeting, plain]);
    expect(await matches('Grüße')).toEqual([greeting, plain]);
    expect(await matches('GRÜSSE')).toEqual([greeting, plain]);
    expect(await matches('cafe')).toEqual([cafe, plain]);
    expect(await matches('Café')).toEqual([cafe, plain]);
    expect(await matches('creme brulee')).toEqual([cafe]);
    expect(await matches('münchen')).toEqual([greeting, plain]);
    expect(await matches('receipts')).toEqual([]); // no stemming, like SQLite's unicode61
  });

  it('indexes title, sender and tags too, title weighted above content', async () => {
    const inTitle = await index({ title: 'Stromrechnung Oktober' });
    const inContent = await index({ title: 'Brief', content: 'anbei die Stromrechnung' });
    const bySender = await index({ title: 'Mahnung', sender: 'Stadtwerke Köln' });
    const byTag = await index({ title: 'Beleg', tags: 'steuer 2026' });
    expect(await matches('stromrechnung')).toEqual([inTitle, inContent]);
    expect(await matches('koln')).toEqual([bySender]);
    expect(await matches('steuer')).toEqual([byTag]);
    const ranked = await archive.sql.all<{ rowid: number }>(
      `SELECT rowid FROM documents_fts WHERE search_vector @@ plainto_tsquery('archive_simple', ?)
       ORDER BY ts_rank(search_vector, plainto_tsquery('archive_simple', ?)) DESC`,
      'stromrechnung',
      'stromrechnung',
    );
    expect(ranked.map((r) => r.rowid)).toEqual([inTitle, inContent]);
  });

  it('keeps the vector current when the indexed text changes, and drops the row with its document', async () => {
    const rowid = await index({ title: 'Entwurf' });
    await archive.sql.run('UPDATE documents_fts SET content = ? WHERE rowid = ?', 'Kündigung zum Jahresende', rowid);
    expect(await matches('kundigung')).toEqual([rowid]);
    await archive.sql.run('DELETE FROM documents WHERE rowid = ?', rowid);
    expect(await matches('kundigung')).toEqual([]);
  });

  it('indexes a text too large for one tsvector by as much of its content as fits, instead of failing', async () => {
    // Distinct words enough to pass the 1 MB a tsvector may hold.
    const words = Array.from({ length: 250_000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
    const rowid = await index({ title: 'Riesige Tabelle', content: words.join(' ') });
    expect(await matches('riesige')).toEqual([rowid]);
    expect(await matches(words[0]!)).toEqual([rowid]);
  });

  it("keeps a document's vector in its row, so a search checking it reads no TOAST chunks", async () => {
    const toast = (await archive.sql.get<{ name: string }>(
      "SELECT reltoastrelid::regclass::text AS name FROM pg_class WHERE relname = 'documents_fts'",
    ))!.name;
    const chunkedValues = async () =>
      (await archive.sql.get<{ n: number }>(`SELECT count(DISTINCT chunk_id) AS n FROM ${toast}`))!.n;
    const before = await chunkedValues();
    // 300 distinct words: a text that goes out of line even compressed, and a vector (about 4 kB) that fits a page.
    const words = Array.from({ length: 300 }, (_, i) => `k${((i + 1) * 2_654_435_761).toString(36)}q${i}`);
    const rowid = await index({ title: 'Lange Liste', content: words.join(' ') });
    expect(await matches(words[299]!)).toEqual([rowid]);
    // The text alone went to the TOAST table; out of line, the vector would have been a second value there.
    expect(await chunkedValues()).toBe(before + 1);
  });
});
