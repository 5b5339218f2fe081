import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Role, Scope } from '../../common/archive-types.ts';
import { nowIso, type Sql } from '../db/sql.ts';

/** What a verified key may do; `spaces` null means every space. */
export interface ApiKeyPrincipal {
  id: string;
  name: string;
  role: Role;
  scopes: Set<Scope>;
  spaces: Set<string> | null;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  role: Role;
  scopes: Scope[];
  spaces: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface KeyRow {
  id: string;
  name: string;
  secret_hash: string;
  role: string;
  scopes: string;
  spaces: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

// Format: das_<key id, 32 hex>_<secret, 43 chars base64url>. The id lets us find the row without scanning;
// only the SHA-256 of the 256-bit secret is stored (a slow hash adds nothing for a secret this random).
const KEY_PATTERN = /^das_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export async function createApiKey(
  db: Sql,
  options: { name: string; role: Role; scopes: readonly Scope[]; spaces: readonly string[] | null },
): Promise<{ record: ApiKeyRecord; key: string }> {
  const id = randomUUID().replaceAll('-', '');
  const secret = randomBytes(32).toString('base64url');
  const created = nowIso();
  const row = await db.get<KeyRow>(
    `INSERT INTO api_keys (id, name, secret_hash, role, scopes, spaces, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
    RETURNING *`,
    id,
    options.name,
    hashSecret(secret).toString('hex'),
    options.role,
    JSON.stringify(options.scopes),
    options.spaces ? JSON.stringify(options.spaces) : null,
    created,
  );
  return {
    record: toRecord(row!),
    key: `das_${id}_${secret}`,
  };
}

/** Returns the principal for a presented key, or null for a malformed, unknown or revoked one. */
export async function verifyApiKey(db: Sql, presented: string): Promise<ApiKeyPrincipal | null> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return null;
  const row = await db.get<KeyRow>('SELECT * FROM api_keys WHERE id = ?', match[1]!);
  if (!row || row.revoked_at) return null;
  const expected = Buffer.from(row.secret_hash, 'hex');
  if (!timingSafeEqual(expected, hashSecret(match[2]!))) return null;
  await noteUse(db, row.id);
  return principalOf(row);
}

// last_used_at is for people auditing keys; minute precision is plenty and spares a disk write per request.
const lastNoted = new Map<string, number>();
async function noteUse(db: Sql, id: string): Promise<void> {
  const now = Date.now();
  if (now - (lastNoted.get(id) ?? 0) < 60_000) return;
  lastNoted.set(id, now);
  await db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', new Date(now).toISOString(), id);
}

/** A key looked up by id (for signed download links, which carry the id, not the secret). */
export async function findActiveKey(db: Sql, id: string): Promise<ApiKeyPrincipal | null> {
  const row = await db.get<KeyRow>('SELECT * FROM api_keys WHERE id = ? AND revoked_at IS NULL', id);
  return row ? principalOf(row) : null;
}

export async function listApiKeys(db: Sql): Promise<ApiKeyRecord[]> {
  return (await db.all<KeyRow>('SELECT * FROM api_keys ORDER BY created_at')).map(toRecord);
}

/** Revokes a key; returns false when no such key exists. Revoking twice is harmless. */
export async function revokeApiKey(db: Sql, id: string): Promise<boolean> {
  const { changes } = await db.run(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?',
    nowIso(),
    id,
  );
  return changes > 0;
}

export async function countActiveKeys(db: Sql): Promise<number> {
  return Number((await db.get<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL'))!.n);
}

function principalOf(row: KeyRow): ApiKeyPrincipal {
  const record = toRecord(row);
  return {
    id: record.id,
    name: record.name,
    role: record.role,
    scopes: new Set(record.scopes),
    spaces: record.spaces ? new Set(record.spaces) : null,
  };
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    scopes: JSON.parse(row.scopes) as Scope[],
    spaces: row.spaces ? (JSON.parse(row.spaces) as string[]) : null,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}
