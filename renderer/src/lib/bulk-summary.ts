import type { CallOutput } from '../../../common/ipc.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';

type Reprocess = CallOutput<'documents.reprocess'>;

/** The lines of a bulk reprocess summary: every non-empty bucket, always naming the three the spec asks for. */
export function reprocessSummary(result: Reprocess): Array<{ key: MessageKey; count: number; ids: string[] }> {
  const rows: Array<{ key: MessageKey; count: number; ids: string[] }> = [
    { key: 'result.queued', count: result.queued.length, ids: result.queued },
    { key: 'result.alreadyProcessing', count: result.alreadyProcessing.length, ids: result.alreadyProcessing },
    { key: 'result.skippedPending', count: result.skippedPending.length, ids: result.skippedPending },
    { key: 'result.denied', count: result.denied.length, ids: result.denied },
    { key: 'result.notFound', count: result.notFound.length, ids: result.notFound },
  ];
  const always = new Set<MessageKey>([
    'result.queued',
    'result.alreadyProcessing',
    'result.skippedPending',
    'result.denied',
  ]);
  return rows.filter((r) => r.count > 0 || always.has(r.key));
}

/** Splits ids into chunks the contract accepts (at most 50 per call). */
export function chunks<T>(items: readonly T[], size = 50): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
