/**
 * The French Factur-X development set (../shared/datasets/facturx-fr-dev): the same invoices and credit note with
 * their embedded XML (with-xml/) and without it (text-only/, read from the page). truth.json is taken from the XML.
 * Amount: what is left to pay (after prepayments), the amount an open event carries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVOICE_FIELDS } from '../fields.ts';
import type { EvalDoc } from './types.ts';

interface FacturxTruth {
  invoice_number: string;
  type_code: string;
  issue_date: string;
  due_date: string | null;
  currency: string;
  grand_total: string;
  due_payable: string;
  seller: string;
}

const isoOf = (yyyymmdd: string): string => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;

export function loadFacturx(dir: string, variant: 'text-only' | 'with-xml'): EvalDoc[] {
  const truths = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Record<string, FacturxTruth>;
  return Object.entries(truths)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, t]) => {
      const eventType = t.type_code === '381' ? 'credit_note' : 'invoice';
      return {
        name: file.replace(/\.pdf$/, ''),
        file,
        filePath: join(dir, variant, file),
        kind: eventType,
        fields: INVOICE_FIELDS,
        truth: null,
        einvoice: variant === 'with-xml',
        expected: {
          event_type: eventType,
          sender_name: t.seller,
          reference_number: t.invoice_number,
          amount: { value: Number(t.due_payable), currency: t.currency },
          document_date: isoOf(t.issue_date),
          // A credit note's due date is when it is settled, not a payment the archive should remind of.
          due_date: eventType === 'credit_note' || !t.due_date ? null : isoOf(t.due_date),
          category: null,
        },
      };
    });
}
