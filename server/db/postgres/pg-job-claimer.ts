import type { Job, JobClaimer } from '../../pipeline/job-queue.ts';

/**
 * Claiming on PostgreSQL, where many instances and workers take jobs from one table: the oldest queued job, or the
 * oldest running one whose lease has run out (its worker died: kill -9, a lost machine; or it came running from a
 * SQLite archive, with no lease), locked with FOR UPDATE SKIP
 * LOCKED so concurrent claimers each get a different row without waiting on one another. The claim leases the job to
 * `owner` for `leaseMs`; the owner renews the lease while it works (JobQueue.renewLease) and its writes count only
 * while it still holds the lease, so a job is never done twice at once.
 */
export function leasedJobClaimer(owner: string, leaseMs: number, now: () => number = Date.now): JobClaimer {
  return (tx, startedAt) => {
    const at = now();
    return tx.get<Job>(
      `UPDATE jobs SET state = 'running', started_at = ?, attempts = attempts + 1, lease_owner = ?, lease_until = ?
      WHERE id = (
        SELECT id FROM jobs WHERE state = 'queued' OR (state = 'running' AND coalesce(lease_until, 0) < ?)
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      RETURNING id, document_id, kind, attempts`,
      startedAt,
      owner,
      at + leaseMs,
      at,
    );
  };
}
