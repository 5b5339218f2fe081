/**
 * Where a PostgreSQL URL points, for messages: host, port, database and user, never the password. A connection error
 * says which of several configured servers failed, so it names the target; the URL itself may hold a secret.
 */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** `user@host:port/database`, safe to log. */
  description: string;
}

const URL_SHAPE = 'postgres://user:password@host:port/database';

export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoed: a malformed URL may still carry a password.
    throw new Error(`The PostgreSQL URL is not a valid URL; expected ${URL_SHAPE}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`The PostgreSQL URL must start with postgres:// or postgresql://, not ${parsed.protocol}//`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!database) throw new Error(`The PostgreSQL URL names no database; expected ${URL_SHAPE}`);
  // libpq's form for a Unix socket: postgres:///db?host=/run/postgresql
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  const port = Number(parsed.port || parsed.searchParams.get('port') || 5432);
  const user = decodeURIComponent(parsed.username) || process.env.PGUSER || process.env.USER || '';
  return { host, port, database, user, description: `${user}@${host}:${port}/${database}` };
}

/** Refused, unreachable, wrong password, no such database: all become one clear message naming the target. */
export function describeConnectionError(error: unknown, target: PostgresTarget): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`Cannot connect to PostgreSQL ${target.description}: ${reason}`, { cause: error });
}
