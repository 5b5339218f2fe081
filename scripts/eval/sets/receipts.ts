/**
 * The SROIE receipts development set (../shared/datasets/sroie-dev): img/NNN.jpg with key/NNN.json labels
 * { company, date, address, total }. Judged: sender (company), document date (the label's own format read as
 * YYYY-MM-DD), amount (total) and its currency (Malaysian ringgit, MYR); the event type (receipt) is reported too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Field } from '../fields.ts';
import { labelDate } from '../label-date.ts';
import type { EvalDoc } from './types.ts';

export const RECEIPT_FIELDS: readonly Field[] = ['event_type', 'sender_name', 'document_date', 'amount', 'currency'];

interface ReceiptKey {
  company: string;
  date: string;
  address: string;
  total: string;
}

/** "RM 12.40", "$9.00", "1,234.50" → 12.4 / 9 / 1234.5. */
function labelAmount(total: string): number {
  const value = Number(total.replace(/^\s*(RM|\$)\s*/i, '').replace(/,/g, ''));
  if (!Number.isFinite(value)) throw new Error(`unreadable total label ${JSON.stringify(total)}`);
  return value;
}

export function loadReceipts(dir: string): EvalDoc[] {
  if (!existsSync(join(dir, 'key'))) throw new Error(`no receipts at ${dir} (expected key/ and img/)`);
  return readdirSync(join(dir, 'key'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const name = f.replace(/\.json$/, '');
      const key = JSON.parse(readFileSync(join(dir, 'key', f), 'utf8')) as ReceiptKey;
      const date = labelDate(key.date);
      if (!date) throw new Error(`${f}: unreadable date label ${JSON.stringify(key.date)}`);
      return {
        name,
        file: `${name}.jpg`,
        filePath: join(dir, 'img', `${name}.jpg`),
        kind: 'receipt',
        fields: RECEIPT_FIELDS,
        truth: null,
        einvoice: false,
        expected: {
          event_type: 'receipt',
          sender_name: key.company,
          reference_number: null,
          amount: { value: labelAmount(key.total), currency: 'MYR' },
          document_date: date,
          due_date: null,
          category: null,
        },
      };
    });
}
