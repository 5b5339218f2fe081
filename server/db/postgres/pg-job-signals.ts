import pg from 'pg';
import { errorMessage } from '../../../common/errors.ts';
import type { JobSignals } from '../../pipeline/job-queue.ts';
import type { Sql } from '../sql.ts';
import { describeConnectionError, parsePostgresUrl } from './pg-connection.ts';

/** The channel on which a queued job is announced. */
export const JOBS_QUEUED_CHANNEL = 'archive_jobs_queued';
/** After the listening connection is lost: the first try again, doubled up to the last (polling covers the gap). */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Jobs announced with NOTIFY, heard with LISTEN on a connection of its own (a pooled one would drop the LISTEN when
 * it goes back to the pool): a worker starts a job queued by any instance at once instead of at its next poll.
 * PostgreSQL delivers a notification when the transaction that queued the job commits, never for one rolled back.
 */
export function pgJobSignals(url: string): JobSignals {
  return {
    announce: (tx: Sql) => tx.exec(`NOTIFY ${JOBS_QUEUED_CHANNEL}`),
    listen: (onQueued, log) => listenForQueuedJobs(url, onQueued, log),
  };
}

async function listenForQueuedJobs(
  url: string,
  onQueued: () => void,
  log: (line: string) => void,
): Promise<() => Promise<void>> {
  const target = parsePostgresUrl(url);
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = RECONNECT_FIRST_MS;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      application_name: 'archive-job-listener',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A connection that dies without a word (a failover, a dropped route) is found by TCP keepalive, not left deaf.
      keepAlive: true,
    });
    // A lost connection shows as 'error' and/or 'end'; either way this one is done and another is made.
    const lost = (error?: Error): void => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      if (closed) return;
      log(`listening for queued jobs stopped (${error ? errorMessage(error) : 'connection ended'}); polling meanwhile`);
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', () => onQueued());
    try {
      await next.connect();
      await next.query(`LISTEN ${JOBS_QUEUED_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners();
      next.on('error', () => {});
      await next.end().catch(() => {});
      throw describeConnectionError(error, target);
    }
    client = next;
    retryMs = RECONNECT_FIRST_MS;
  };

  const scheduleReconnect = (): void => {
    retryTimer = setTimeout(() => {
      connect()
        .then(() => {
          log('listening for queued jobs again');
          // Whatever was queued while no one listened.
          onQueued();
        })
        .catch((error: unknown) => {
          if (closed) return;
          retryMs = Math.min(RECONNECT_MAX_MS, retryMs * 2);
          log(`listening for queued jobs: ${errorMessage(error)}; trying again in ${retryMs} ms`);
          scheduleReconnect();
        });
    }, retryMs);
    retryTimer.unref();
  };

  await connect();
  return async () => {
    closed = true;
    clearTimeout(retryTimer);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
}
