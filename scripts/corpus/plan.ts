/**
 * What the corpus contains: one entry per document, with its type, sender, file format and the template
 * options that vary wording (due-date phrasing, date and number styles). Changing this list changes the corpus.
 */
import type { EventType } from '../../common/archive-types.ts';
import type { PlanOptions } from './templates/common.ts';
import type { Distortion } from './render-image.ts';

export type PlanFormat = 'pdf' | 'einvoice' | 'scan' | 'jpeg' | 'png' | 'tiff' | 'docx' | 'odt' | 'xlsx';

export interface PlanEntry {
  type: EventType;
  sender: string;
  format: PlanFormat;
  opts?: Partial<PlanOptions>;
  einvoice?: 'factur-x-cii' | 'xrechnung-cii' | 'xrechnung-ubl';
  /** Overrides of the default scan simulation. */
  distortion?: Partial<Distortion>;
  /** TIFF pages in 8-bit grey (Deflate) instead of 1-bit black and white (PackBits). */
  greyscale?: boolean;
  /** Earliest and latest document date (defaults: 2026-07-01 … 2026-11-20). */
  dates?: [string, string];
}

export const PLAN: PlanEntry[] = [
  // Invoices
  { type: 'invoice', sender: 'stadtwerke', format: 'pdf', opts: { due: 'absolute', phrase: 1 } },
  { type: 'invoice', sender: 'telenova', format: 'scan', opts: { due: 'debit' } },
  { type: 'invoice', sender: 'brandt', format: 'pdf', opts: { due: 'skonto', moneyStyle: 'de-space' } },
  { type: 'invoice', sender: 'weiss', format: 'jpeg', opts: { due: 'absolute', phrase: 0, dateStyle: 'de-long' } },
  { type: 'invoice', sender: 'becker', format: 'tiff', opts: { due: 'absolute', phrase: 2, long: true } },
  { type: 'invoice', sender: 'northwind', format: 'pdf', opts: { due: 'absolute', phrase: 0 } },
  { type: 'invoice', sender: 'fibrestream', format: 'png', opts: { dateStyle: 'en-us-short' } },
  { type: 'invoice', sender: 'riverside', format: 'scan', opts: { due: 'relative', phrase: 2, dueDays: 30 } },
  { type: 'invoice', sender: 'greenfield', format: 'docx', opts: { due: 'relative', phrase: 0, dueDays: 14 } },
  {
    type: 'invoice',
    sender: 'pixelwerk',
    format: 'einvoice',
    einvoice: 'xrechnung-cii',
    opts: { due: 'relative', phrase: 0, dueDays: 30, business: true },
  },
  {
    type: 'invoice',
    sender: 'falk',
    format: 'einvoice',
    einvoice: 'xrechnung-ubl',
    opts: { due: 'absolute', phrase: 3, business: true, dateStyle: 'iso', moneyStyle: 'de-space' },
  },
  {
    type: 'invoice',
    sender: 'rheintal',
    format: 'einvoice',
    einvoice: 'factur-x-cii',
    opts: { due: 'absolute', phrase: 2, business: true },
  },
  {
    type: 'invoice',
    sender: 'bueroprofi',
    format: 'einvoice',
    einvoice: 'factur-x-cii',
    opts: { due: 'relative', phrase: 2, business: true, abbreviated: true },
  },
  {
    type: 'invoice',
    sender: 'lumiere',
    format: 'einvoice',
    einvoice: 'factur-x-cii',
    opts: { due: 'absolute', phrase: 3, business: true, moneyStyle: 'en-prefix-code', dateStyle: 'en-us-short' },
  },
  // Credit notes
  { type: 'credit_note', sender: 'kestrel', format: 'einvoice', einvoice: 'factur-x-cii', opts: { business: true } },
  { type: 'credit_note', sender: 'kraemer', format: 'pdf' },
  { type: 'credit_note', sender: 'telenova', format: 'png' },
  { type: 'credit_note', sender: 'gadgetcorner', format: 'pdf' },
  { type: 'credit_note', sender: 'atlas', format: 'docx', opts: { dateStyle: 'en-us-slash' } },
  // Receipts
  { type: 'receipt', sender: 'sonnenschein', format: 'jpeg', distortion: { photo: true } },
  { type: 'receipt', sender: 'biomarkt', format: 'jpeg', distortion: { photo: true, rotate: 90 } },
  { type: 'receipt', sender: 'tankstelle', format: 'png' },
  { type: 'receipt', sender: 'yilmaz', format: 'pdf' },
  { type: 'receipt', sender: 'mapleleaf', format: 'jpeg', distortion: { photo: true } },
  { type: 'receipt', sender: 'gadgetcorner', format: 'pdf' },
  { type: 'receipt', sender: 'quickfix', format: 'scan' },
  { type: 'receipt', sender: 'greenfield', format: 'tiff' },
  // Contracts
  { type: 'contract', sender: 'telenova', format: 'pdf' },
  { type: 'contract', sender: 'wohnbau', format: 'pdf', opts: { long: true } },
  { type: 'contract', sender: 'vitalis', format: 'odt' },
  { type: 'contract', sender: 'skylink', format: 'pdf' },
  { type: 'contract', sender: 'oakridge', format: 'docx', opts: { long: true } },
  { type: 'contract', sender: 'lakeside', format: 'scan' },
  // Policies
  { type: 'policy', sender: 'nordlicht', format: 'pdf', opts: { variant: 0 } },
  { type: 'policy', sender: 'nordlicht', format: 'scan', opts: { variant: 1 } },
  { type: 'policy', sender: 'justitia', format: 'odt' },
  { type: 'policy', sender: 'harbourside', format: 'pdf', opts: { variant: 0 } },
  { type: 'policy', sender: 'evergreen', format: 'png' },
  { type: 'policy', sender: 'harbourside', format: 'tiff', greyscale: true, opts: { variant: 1 } },
  // Notices
  { type: 'notice', sender: 'finanzamt', format: 'pdf', opts: { long: true } },
  { type: 'notice', sender: 'bussgeld', format: 'scan' },
  { type: 'notice', sender: 'stadtwerke', format: 'jpeg' },
  { type: 'notice', sender: 'brandt', format: 'odt', opts: { dateStyle: 'de-numeric' } },
  { type: 'notice', sender: 'ashford', format: 'jpeg' },
  { type: 'notice', sender: 'brightwater', format: 'pdf' },
  { type: 'notice', sender: 'skylink', format: 'png' },
  { type: 'notice', sender: 'northwind', format: 'scan', distortion: { rotate: 180 } },
  // Payslips
  { type: 'payslip', sender: 'kessler', format: 'pdf' },
  { type: 'payslip', sender: 'sonnenhof', format: 'scan' },
  { type: 'payslip', sender: 'vogel', format: 'jpeg', distortion: { photo: true } },
  { type: 'payslip', sender: 'pinecrest', format: 'pdf' },
  { type: 'payslip', sender: 'cascade', format: 'png', opts: { dateStyle: 'en-us-slash' } },
  { type: 'payslip', sender: 'harbourlights', format: 'docx' },
  // Letters
  { type: 'letter', sender: 'hoffmann', format: 'pdf' },
  { type: 'letter', sender: 'volksbank', format: 'odt' },
  { type: 'letter', sender: 'bkk', format: 'jpeg' },
  { type: 'letter', sender: 'summit', format: 'docx' },
  { type: 'letter', sender: 'meridian', format: 'pdf' },
  { type: 'letter', sender: 'pinecrest', format: 'scan' },
  // Statements
  { type: 'statement', sender: 'volksbank', format: 'pdf', opts: { variant: 0, long: true } },
  { type: 'statement', sender: 'schroeder', format: 'tiff' },
  { type: 'statement', sender: 'volksbank', format: 'scan', opts: { variant: 1 } },
  { type: 'statement', sender: 'meridian', format: 'pdf' },
  { type: 'statement', sender: 'blueharbor', format: 'scan' },
  { type: 'statement', sender: 'atlas', format: 'xlsx' },
  { type: 'statement', sender: 'brightwater', format: 'png' },
  // Offers
  { type: 'offer', sender: 'brandt', format: 'pdf' },
  { type: 'offer', sender: 'kraemer', format: 'xlsx' },
  { type: 'offer', sender: 'becker', format: 'odt', opts: { dateStyle: 'de-long' } },
  { type: 'offer', sender: 'atlas', format: 'pdf' },
  { type: 'offer', sender: 'greenfield', format: 'jpeg' },
  { type: 'offer', sender: 'fibrestream', format: 'docx' },
  // French, Dutch, Spanish and Italian (templates/eu-*.ts). Appended, so the documents above keep their seeds.
  // variant picks the totals layout: 0 labelled, 1 bare figures without labels, 2 a one-row totals table.
  { type: 'invoice', sender: 'fr-plomberie', format: 'pdf', opts: { variant: 0, due: 'absolute' } },
  { type: 'credit_note', sender: 'fr-plomberie', format: 'png', opts: { variant: 2 } },
  { type: 'notice', sender: 'fr-plomberie', format: 'scan', opts: { dateStyle: 'de-long' } },
  { type: 'receipt', sender: 'fr-boulangerie', format: 'jpeg', distortion: { photo: true } },
  { type: 'contract', sender: 'fr-energie', format: 'pdf' },
  { type: 'notice', sender: 'fr-impots', format: 'docx' },
  { type: 'invoice', sender: 'nl-dakwerk', format: 'scan', opts: { variant: 1, due: 'relative' } },
  { type: 'credit_note', sender: 'nl-dakwerk', format: 'pdf', opts: { variant: 0 } },
  { type: 'notice', sender: 'nl-dakwerk', format: 'jpeg' },
  { type: 'receipt', sender: 'nl-buurtsuper', format: 'png' },
  { type: 'payslip', sender: 'nl-kwekerij', format: 'pdf' },
  { type: 'letter', sender: 'nl-woonstichting', format: 'odt' },
  { type: 'invoice', sender: 'es-reformas', format: 'pdf', opts: { variant: 2, due: 'relative', dueDays: 30 } },
  { type: 'credit_note', sender: 'es-reformas', format: 'tiff', opts: { variant: 1 } },
  { type: 'notice', sender: 'es-reformas', format: 'pdf', opts: { dateStyle: 'de-long' } },
  { type: 'receipt', sender: 'es-ferreteria', format: 'jpeg', distortion: { photo: true } },
  { type: 'contract', sender: 'es-gimnasio', format: 'docx' },
  { type: 'letter', sender: 'es-gimnasio', format: 'png' },
  {
    type: 'invoice',
    sender: 'it-officina',
    format: 'png',
    opts: { variant: 0, due: 'absolute', dateStyle: 'de-long' },
  },
  { type: 'invoice', sender: 'it-officina', format: 'pdf', opts: { variant: 1, due: 'relative' } },
  { type: 'credit_note', sender: 'it-officina', format: 'scan', opts: { variant: 2 } },
  { type: 'receipt', sender: 'it-panificio', format: 'pdf' },
  { type: 'payslip', sender: 'it-cartiera', format: 'jpeg' },
  { type: 'contract', sender: 'it-immobiliare', format: 'pdf' },
  // Invoices, credit notes and reminders in all six languages (templates/billing-variety.ts): labels left of or above
  // their values, totals labelled or bare, the currency before or after, dates numeric or in words, payment terms.
  // The variant is the document's index, as above; appended, so every document above keeps its seed.
  { type: 'invoice', sender: 'var-de-parkett', format: 'pdf', opts: { template: 'variety', due: 'relative' } },
  { type: 'notice', sender: 'var-de-parkett', format: 'png', opts: { template: 'variety' } },
  { type: 'invoice', sender: 'var-en-flooring', format: 'scan', opts: { template: 'variety', due: 'absolute' } },
  { type: 'credit_note', sender: 'var-en-flooring', format: 'pdf', opts: { template: 'variety' } },
  { type: 'invoice', sender: 'var-fr-parquets', format: 'pdf', opts: { template: 'variety', due: 'relative' } },
  { type: 'credit_note', sender: 'var-fr-parquets', format: 'jpeg', opts: { template: 'variety' } },
  { type: 'invoice', sender: 'var-nl-vloeren', format: 'png', opts: { template: 'variety', due: 'absolute' } },
  { type: 'notice', sender: 'var-nl-vloeren', format: 'pdf', opts: { template: 'variety' } },
  { type: 'invoice', sender: 'var-es-tarimas', format: 'pdf', opts: { template: 'variety', due: 'absolute' } },
  { type: 'notice', sender: 'var-es-tarimas', format: 'scan', opts: { template: 'variety' } },
  { type: 'invoice', sender: 'var-it-pavimenti', format: 'scan', opts: { template: 'variety', due: 'relative' } },
  { type: 'credit_note', sender: 'var-it-pavimenti', format: 'pdf', opts: { template: 'variety' } },
];
