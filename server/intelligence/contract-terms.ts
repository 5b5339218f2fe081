/**
 * The understanding fields of a contract's term, shared by the rules that read them and the event writer that turns
 * them into a notice deadline (server/events/notice-deadline.ts): `contract_start` and `contract_end` (YYYY-MM-DD) and
 * `notice_period` (a NoticePeriod), each an ExtractedField.
 */
export const CONTRACT_TERM_FIELDS = {
  start: 'contract_start',
  end: 'contract_end',
  noticePeriod: 'notice_period',
} as const;

/** "3 Monate", "one month", "30 jours": how long before the term's end notice must be given. */
export interface NoticePeriod {
  count: number;
  unit: 'day' | 'week' | 'month' | 'year';
}

export function isNoticePeriod(value: unknown): value is NoticePeriod {
  if (typeof value !== 'object' || value === null) return false;
  const { count, unit } = value as Record<string, unknown>;
  return (
    typeof count === 'number' &&
    Number.isInteger(count) &&
    count > 0 &&
    (unit === 'day' || unit === 'week' || unit === 'month' || unit === 'year')
  );
}
