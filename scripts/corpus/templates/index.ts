/** Picks the template for a plan entry: by its type, and for French, Dutch, Spanish and Italian senders the eu-* ones. */
import type { EventType } from '../../../common/archive-types.ts';
import type { BuiltDocument } from '../model.ts';
import { isEuLang } from '../parties-eu.ts';
import type { Ctx } from './common.ts';
import { buildVarietyCreditNote, buildVarietyInvoice, buildVarietyReminder } from './billing-variety.ts';
import { buildContract } from './contract.ts';
import { buildCreditNote } from './credit-note.ts';
import { buildEuCreditNote, buildEuInvoice, buildEuReminder } from './eu-billing.ts';
import { buildEuContract } from './eu-contract.ts';
import { buildEuLetter, buildEuPayslip, buildEuTaxNotice } from './eu-personal.ts';
import { buildEuReceipt } from './eu-receipt.ts';
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

const EU_BUILDERS: Partial<Record<EventType, (ctx: Ctx) => BuiltDocument>> = {
  invoice: buildEuInvoice,
  credit_note: buildEuCreditNote,
  receipt: buildEuReceipt,
  contract: buildEuContract,
  notice: (ctx) => (ctx.s.category === 'Taxes' ? buildEuTaxNotice(ctx) : buildEuReminder(ctx)),
  payslip: buildEuPayslip,
  letter: buildEuLetter,
};

const VARIETY_BUILDERS: Partial<Record<EventType, (ctx: Ctx) => BuiltDocument>> = {
  invoice: buildVarietyInvoice,
  credit_note: buildVarietyCreditNote,
  notice: buildVarietyReminder,
};

function builderFor(type: EventType, ctx: Ctx): (ctx: Ctx) => BuiltDocument {
  if (ctx.opts.template === 'variety') {
    const builder = VARIETY_BUILDERS[type];
    if (!builder) throw new Error(`${ctx.s.key}: no ${type} in the billing-variety templates`);
    return builder;
  }
  if (!isEuLang(ctx.lang)) return BUILDERS[type];
  const builder = EU_BUILDERS[type];
  if (!builder) throw new Error(`${ctx.s.key}: no ${type} template in ${ctx.lang}`);
  return builder;
}

export function buildDocument(type: EventType, ctx: Ctx): BuiltDocument {
  const built = builderFor(type, ctx)(ctx);
  if (built.truth.event_type !== type)
    throw new Error(`${ctx.s.key}: template made ${built.truth.event_type}, plan says ${type}`);
  return built;
}
