/**
 * Header blocks read column by column. OCR and some PDF text layers return a block of labels ("Policy number",
 * "Member ID", "Issue date") and, further down, the block of their values ("PN-2048817", "MB-5501287",
 * "Mar 3, 2027"). This pairs them up again as "label value" lines, so that the label-based extractors can read them.
 * A pairing is only kept when the values fit their labels: a date under a date label, money under an amount label,
 * a number under a number label.
 */

import { findDates } from './dates.ts';
import { makeDoc } from './text.ts';

type LabelType = 'date' | 'money' | 'number' | 'other';

/** Short, digit-free text that can stand alone as a label (the right-hand cell when a line has tab-separated cells). */
const LABEL_CELL = /^[\p{L}][\p{L}.\-/&' ]{1,30}[\p{L}.#:]?$/u;
const DATE_LABEL = /datum|date|zeitraum|period|fällig|due|seit|since|beginn|ablauf|expir|gültig|valid/iu;
const MONEY_LABEL =
  /betrag|summe|total|amount|premium|beitrag|prämie|limit|balance|saldo|preis|price|fee|gebühr|deductible|selbstbeteiligung|maximum|kosten|cost|charge|rate|miete|rent/iu;
const NUMBER_LABEL =
  /(?:nummer|nr\.?|no\.?|number|#|id|ref\.?|reference|referenz|zeichen|code|konto|account(?: ending)?)$/iu;
const MONEY = /\d[.,]\d{2}(?!\d)|[€$£] ?\d|\d ?[€$£]|\b(?:EUR|USD|GBP|CHF) ?\d/u;
const MAX_LABELS = 8;
const SEARCH_LINES = 40;

interface Line {
  index: number;
  text: string;
}

function labelType(label: string): LabelType {
  if (DATE_LABEL.test(label)) return 'date';
  if (NUMBER_LABEL.test(label)) return 'number';
  if (MONEY_LABEL.test(label)) return 'money';
  return 'other';
}

/** What a value line holds, worked out once per line: every label block may try it. */
interface Value {
  text: string;
  date: boolean;
  money: boolean;
}

function valueOf(line: Line, cache: Map<number, Value>, today: string): Value {
  let value = cache.get(line.index);
  if (!value) {
    const text = line.text.replace(/\s+/g, ' ').trim();
    const short = text.length <= 40;
    value = {
      text,
      date: short && findDates(makeDoc(text), { monthFirst: false, today }).length > 0,
      money: short && MONEY.test(text),
    };
    cache.set(line.index, value);
  }
  return value;
}

/** Whether a value fits its label; null when the label says nothing about what should follow. */
function fits(type: LabelType, value: Value): boolean | null {
  if (value.text.length > 40) return false;
  switch (type) {
    case 'date':
      return value.date;
    case 'money':
      return value.money && !value.date;
    case 'number':
      return /\d/.test(value.text) && value.text.split(' ').length <= 4 && !value.money && !value.date;
    default:
      return null;
  }
}

/** The label a line ends in, when the line is one: its last tab cell, or the whole line. */
function labelOf(raw: string): string | null {
  const cells = raw
    .split('\t')
    .map((cell) => cell.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const last = cells[cells.length - 1];
  if (!last || /\d/.test(last) || last.split(' ').length > 4) return null;
  const label = last.replace(/[\s:;*°'"‘’.,|]+$/u, (tail) => (tail.startsWith('.') ? '.' : ''));
  return LABEL_CELL.test(label) ? label : null;
}

/**
 * "label value" lines for every label block whose values can be found below it. `rawLines` are the text's lines
 * before tabs were turned into spaces.
 */
export function rejoinColumns(rawLines: readonly string[], today: string): string[] {
  const filled: Line[] = [];
  rawLines.forEach((text, index) => {
    if (text.trim()) filled.push({ index, text });
  });
  const result: string[] = [];
  const cache = new Map<number, Value>();
  let i = 0;
  while (i < filled.length) {
    const run: string[] = [];
    let j = i;
    for (; j < filled.length && run.length < MAX_LABELS; j++) {
      const label = labelOf(filled[j]!.text);
      if (!label) break;
      run.push(label);
    }
    // A heading or a name next to the block has no type to check and is the likeliest stray: trim those ends.
    while (run.length > 0 && labelType(run[0]!) === 'other') run.shift();
    while (run.length > 0 && labelType(run[run.length - 1]!) === 'other') run.pop();
    if (run.length >= 2) {
      const values = findValues(run, filled, j, (line) => valueOf(line, cache, today));
      if (values) run.forEach((label, k) => result.push(`${label} ${values[k]}`));
    }
    i = Math.max(j, i + 1);
  }
  return result;
}

/** The first window of as many lines below the labels whose values all fit; at least two must say so, one of them a date or an amount. */
function findValues(
  labels: readonly string[],
  filled: readonly Line[],
  from: number,
  read: (line: Line) => Value,
): string[] | null {
  const types = labels.map(labelType);
  const typed = types.filter((t) => t !== 'other');
  if (typed.length < 2 || !typed.some((t) => t === 'date' || t === 'money')) return null;
  const limit = Math.min(filled.length - labels.length, from + SEARCH_LINES);
  for (let start = from; start <= limit; start++) {
    const window = filled.slice(start, start + labels.length).map(read);
    if (types.every((type, k) => fits(type, window[k]!) !== false)) return window.map((value) => value.text);
  }
  return null;
}

/** Cells of a text layer's table row: separated by a tab or by two spaces or more. */
/**
 * Where the cell holding `offset` ends, in a line that is `cells` joined by single spaces; null past the last cell.
 * A value or a name ends with its column.
 */
export function cellEndAt(cells: readonly string[], offset: number): number | null {
  let end = 0;
  for (const cell of cells) {
    end += cell.length;
    if (offset < end) return end;
    end += 1;
  }
  return null;
}

export const cellsOf = (raw: string): string[] =>
  raw
    .trim()
    .split(/\t+| {2,}/)
    .map((cell) => cell.trim())
    .filter(Boolean);
/** A date in numbers: a reminder's table dates the invoice it lists, not the reminder, so dates are not paired. */
const NUMERIC_DATE = /^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/;
/** A header cell: a short label without digits ("N° de facture", "Cod. cliente", "Due Date"). */
const HEADER_CELL = /^[^\d]{2,30}$/u;
/** A label that names a number, in the six languages. */
const NUMBER_WORD = /(?:nummer|number|numéro|número|numero|nr\.?|no\.?|n[°º])(?!\p{L})/iu;
/** A column an item table has and a header of the document's own numbers has not: its rows are items. */
export const ITEM_COLUMN =
  /(?<!\p{L})(?:qty|quantity|item|items|description|menge|anzahl|artikel|bezeichnung|beschreibung|qté|quantité|article|désignation|aantal|omschrijving|cantidad|artículo|descripción|quantità|articolo|descrizione)(?!\p{L})/iu;

/**
 * "label value" for each column of a header row over a single row of values ("N° de facture  Date  Code client" over
 * "F2026-2210  06/11/2026  C0977"; "Invoice No.  Invoice Date  Due Date  Outstanding" over a reminder's one invoice),
 * so the line readers see "N° de facture F2026-2210". Amount columns are left to the amount readers, which map a
 * header by column themselves, and dates to the date readers; a table of several rows, and an item table, are left
 * as they are.
 */
export function rejoinTableRows(rawLines: readonly string[]): string[] {
  const pairs: string[] = [];
  const filled = rawLines.filter((line) => line.trim());
  const isHeader = (cells: readonly string[], raw: string): boolean =>
    // Two columns only when one of them names a number ("Rechnungsnummer  Rechnungsdatum").
    (cells.length >= 3 || (cells.length === 2 && cells.some((cell) => NUMBER_WORD.test(cell)))) &&
    cells.every((cell) => HEADER_CELL.test(cell)) &&
    !ITEM_COLUMN.test(raw);
  const isRow = (cells: readonly string[], width: number): boolean =>
    cells.length === width && cells.some((cell) => /\d/.test(cell));
  const pair = (header: readonly string[], row: readonly string[]): void =>
    header.forEach((label, k) => {
      const value = row[k]!;
      if (!MONEY.test(value) && !NUMERIC_DATE.test(value)) pairs.push(`${label} ${value}`);
    });
  filled.forEach((raw, i) => {
    const header = cellsOf(raw);
    if (!isHeader(header, raw)) return;
    const row = cellsOf(filled[i + 1] ?? '');
    const above = cellsOf(filled[i - 1] ?? '');
    if (isRow(row, header.length)) {
      if (!isRow(cellsOf(filled[i + 2] ?? ''), header.length)) pair(header, row);
    } else if (isRow(above, header.length) && !isRow(cellsOf(filled[i - 2] ?? ''), header.length)) {
      // The labels printed under their values ("INV-2026-0562  2 Oct 2026" over "Invoice number  Date of issue").
      pair(header, above);
    }
  });
  return pairs;
}
