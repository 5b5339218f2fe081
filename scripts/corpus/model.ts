/**
 * The logical document every renderer starts from: letterhead, address window, info block, body blocks and
 * footer. The layout turns it into positioned text for PDF and images; office.ts turns it into HTML/flat ODF.
 */
import type { EventType } from '../../common/archive-types.ts';
import type { Lang } from './format.ts';

export type Align = 'left' | 'right' | 'center';
export type FontFamily = 'sans' | 'serif' | 'mono';
export type Rgb = readonly [number, number, number];

export interface DocStyle {
  family: FontFamily;
  accent: Rgb;
  /** Body text size in points. */
  size: number;
  letterhead: 'left' | 'right' | 'center' | 'bar' | 'columns';
  /** Left margin in points (DIN 5008 uses 25 mm, many British letters 20 mm). */
  margin: number;
}

export interface Column {
  header: string;
  align: Align;
  width: number;
}

export type Block =
  | {
      kind: 'window';
      returnAddress: string | null;
      recipient: string[];
      info: Array<[string, string]>;
      infoPlacement: 'beside' | 'below' | 'none';
    }
  | { kind: 'info'; rows: Array<[string, string]>; placement: 'right' | 'left' | 'inline' }
  | { kind: 'heading'; text: string; size?: number }
  | { kind: 'paragraph'; text: string; bold?: boolean; align?: Align; size?: number }
  | { kind: 'table'; columns: Column[]; rows: string[][]; boldRows?: number[] }
  | { kind: 'totals'; rows: Array<{ label: string; value: string; bold?: boolean }> }
  | { kind: 'pairs'; rows: Array<[string, string]>; labelWidth?: number; valueAlign?: Align; boldRows?: number[] }
  | { kind: 'rule' }
  | { kind: 'gap'; size: number }
  | { kind: 'pagebreak' };

export interface Letterhead {
  name: string;
  tagline: string | null;
  /** Address and contact lines shown next to or under the name. */
  lines: string[];
}

export interface DocModel {
  lang: Lang;
  paper: 'a4' | 'receipt' | 'letter';
  style: DocStyle;
  letterhead: Letterhead;
  blocks: Block[];
  /** Columns of small print at the bottom of every page. */
  footer: string[][];
  /** Whether pages say "Seite 1 von 2" / "Page 1 of 2". */
  pageNumbers: boolean;
}

/** Ground truth stored next to each corpus file as `<name>.json`. */
export interface Truth {
  file: string;
  format: string;
  /** How the file was made: text-pdf, einvoice-pdf, scanned-pdf, image, office. */
  family: 'text-pdf' | 'einvoice-pdf' | 'scanned-pdf' | 'image' | 'office';
  language: Lang;
  event_type: EventType;
  sender_name: string;
  reference_number: string | null;
  amount: { value: number; currency: string } | null;
  document_date: string;
  due_date: string | null;
  category: string;
  einvoice: boolean;
  /** Which XML syntax an e-invoice carries, and under which attachment name. */
  einvoice_syntax: 'factur-x-cii' | 'xrechnung-cii' | 'xrechnung-ubl' | null;
  pages: number;
  /** Scan simulation applied (skew degrees, rotation, noise), for reading the CER figures. */
  distortion: string | null;
  /** The text drawn on the document, line by line in reading order (for the character error rate). */
  text: string;
}

/** What a template returns: the document plus the facts it states. */
export interface BuiltDocument {
  model: DocModel;
  truth: Pick<
    Truth,
    'event_type' | 'sender_name' | 'reference_number' | 'amount' | 'document_date' | 'due_date' | 'category'
  >;
  /** Line items and totals, for the e-invoice XML. */
  invoice?: InvoiceData;
}

export interface InvoiceLine {
  name: string;
  quantity: number;
  unit: string;
  unitPrice: number;
  vatRate: number;
}

export interface InvoiceData {
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  seller: {
    name: string;
    street: string;
    postcode: string;
    city: string;
    country: string;
    vatId: string;
    email: string;
    phone: string;
    iban: string;
    bic: string;
  };
  buyer: { name: string; street: string; postcode: string; city: string; country: string; reference: string };
  lines: InvoiceLine[];
  paymentTerms: string;
  deliveryDate: string;
  /** Credit notes: the invoice they correct. */
  preceding?: { number: string; date: string };
}
