/** Picks the template for a plan entry. */
import type { EventType } from '../../../common/archive-types.ts';
import type { BuiltDocument } from '../model.ts';
import type { Ctx } from './common.ts';
import { buildContract } from './contract.ts';
import { buildCreditNote } from './credit-note.ts';
import { buildInvoice } from './invoice.ts';
import { buildLetter } from './letter.ts';
import { buildNotice } from './notice.ts';
import { buildOffer } from './offer.ts';
import { buildPayslip } from './payslip.ts';
import { buildPolicy } from './policy.ts';
import { buildReceipt } from './receipt.ts';
import { buildStatement } from './statement.ts';

const BUILDERS: Record<EventType, (ctx: Ctx) => BuiltDocument> = {
  invoice: buildInvoice,
  credit_note: buildCreditNote,
  receipt: buildReceipt,
  contract: buildContract,
  policy: buildPolicy,
  notice: buildNotice,
  payslip: buildPayslip,
  letter: buildLetter,
  statement: buildStatement,
  offer: buildOffer,
};

export function buildDocument(type: EventType, ctx: Ctx): BuiltDocument {
  const built = BUILDERS[type](ctx);
  if (built.truth.event_type !== type)
    throw new Error(`${ctx.s.key}: template made ${built.truth.event_type}, plan says ${type}`);
  return built;
}
