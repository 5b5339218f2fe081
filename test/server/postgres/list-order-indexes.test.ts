import { describe, expect, it } from 'vitest';
import { DOCUMENT_SORT_FIELDS } from '../../../common/archive-types.ts';
import { documentListOrder } from '../../../server/documents/document-rows.ts';
import { useArchiveDatabase } from '../../helpers/archive-database.ts';
import { postgresForTests } from '../../helpers/postgres.ts';

const postgres = postgresForTests();

/**
 * Every order of GET /v1/documents comes from an index on PostgreSQL, so a page of a million documents reads 50 index
 * entries instead of sorting every live row. Asked of the planner with sorting priced out (enable_sort off): a Sort
 * node left in the plan means no index yields the order. The filters are those of the list: live documents, and a
 * status or a space.
 */
describe.skipIf(!postgres.url)('PostgreSQL: the document list orders come from indexes', () => {
  const archive = useArchiveDatabase();

  const planOf = (query: string): Promise<string> =>
    archive.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off');
      const rows = await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  for (const sortBy of DOCUMENT_SORT_FIELDS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sort_by=${sortBy}&sort_order=${direction}`, async () => {
        const plan = await planOf(
          `SELECT d.id FROM documents d WHERE d.deleted_at IS NULL ORDER BY ${documentListOrder(sortBy, direction)} LIMIT 50`,
        );
        expect(plan).not.toMatch(/\bSort\b/);
      });
    }
  }

  for (const filter of ["d.status = 'failed'", "d.space_id = 'x'"]) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`${filter}, created_at ${direction}`, async () => {
        const plan = await planOf(
          `SELECT d.id FROM documents d WHERE d.deleted_at IS NULL AND ${filter}
          ORDER BY ${documentListOrder('created_at', direction)} LIMIT 50`,
        );
        expect(plan).not.toMatch(/\bSort\b/);
      });
    }
  }
});
