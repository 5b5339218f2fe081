import type { Sql } from '../db/sql.ts';

/** A table of the target PostgreSQL schema, as far as copying rows into it needs to know. */
export interface TargetTable {
  name: string;
  columns: TargetColumn[];
  primaryKey: string[];
  /** Tables this one's foreign keys point at (itself excluded). */
  references: string[];
}

export interface TargetColumn {
  name: string;
  /** 'always': values come from the identity unless the insert overrides it; 'by default': an explicit value wins. */
  identity: 'always' | 'by default' | null;
  /** Computed from other columns (documents_fts.search_vector): never written. */
  generated: boolean;
}

/** Reads the tables of the connection's current schema from PostgreSQL's catalog. */
export async function readTargetCatalog(db: Sql): Promise<Map<string, TargetTable>> {
  const columns = await db.all<{
    table_name: string;
    column_name: string;
    identity_generation: string | null;
    is_generated: string;
  }>(
    `SELECT c.table_name, c.column_name, c.identity_generation, c.is_generated
     FROM information_schema.columns c JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const keys = await db.all<{ table_name: string; column_name: string }>(
    `SELECT tc.table_name, k.column_name
     FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k
       ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name
     WHERE tc.table_schema = current_schema() AND tc.constraint_type = 'PRIMARY KEY'
     ORDER BY tc.table_name, k.ordinal_position`,
  );
  const foreignKeys = await db.all<{ child: string; parent: string }>(
    `SELECT DISTINCT c.relname AS child, p.relname AS parent
     FROM pg_constraint f JOIN pg_class c ON c.oid = f.conrelid JOIN pg_class p ON p.oid = f.confrelid
     WHERE f.contype = 'f' AND f.connamespace = current_schema()::regnamespace`,
  );

  const tables = new Map<string, TargetTable>();
  const tableOf = (name: string): TargetTable => {
    let table = tables.get(name);
    if (!table) tables.set(name, (table = { name, columns: [], primaryKey: [], references: [] }));
    return table;
  };
  for (const column of columns) {
    tableOf(column.table_name).columns.push({
      name: column.column_name,
      identity: column.identity_generation === null ? null : identityOf(column.identity_generation),
      generated: column.is_generated === 'ALWAYS',
    });
  }
  for (const key of keys) tableOf(key.table_name).primaryKey.push(key.column_name);
  for (const { child, parent } of foreignKeys) if (child !== parent) tableOf(child).references.push(parent);
  return tables;
}

function identityOf(generation: string): TargetColumn['identity'] {
  return generation === 'ALWAYS' ? 'always' : 'by default';
}
