/** A title a person would give the document: "Rechnung 2026-4711 – Stadtwerke München", never "scan_0042". */

import type { EventType } from '../../common/archive-types.ts';
import { formatDate } from './dates.ts';
import { letterCount } from './text.ts';

export const TYPE_WORDS: Record<EventType, { de: string; en: string }> = {
  invoice: { de: 'Rechnung', en: 'Invoice' },
  credit_note: { de: 'Gutschrift', en: 'Credit note' },
  receipt: { de: 'Quittung', en: 'Receipt' },
  contract: { de: 'Vertrag', en: 'Contract' },
  policy: { de: 'Versicherungsschein', en: 'Insurance policy' },
  notice: { de: 'Mitteilung', en: 'Notice' },
  payslip: { de: 'Gehaltsabrechnung', en: 'Payslip' },
  statement: { de: 'Kontoauszug', en: 'Statement' },
  offer: { de: 'Angebot', en: 'Quote' },
  letter: { de: 'Brief', en: 'Letter' },
};

const SCANNER_WORDS = new Set([
  'scan',
  'scans',
  'scanned',
  'scanner',
  'img',
  'image',
  'dsc',
  'dscn',
  'dcim',
  'pxl',
  'photo',
  'foto',
  'bild',
  'document',
  'dokument',
  'doc',
  'file',
  'datei',
  'untitled',
  'unbenannt',
  'unnamed',
  'neu',
  'new',
  'page',
  'seite',
  'copy',
  'kopie',
  'scansnap',
  'epson',
  'canon',
  'brother',
  'xerox',
  'ricoh',
  'kyocera',
  'konica',
  'minolta',
  'lexmark',
  'samsung',
  'pdf',
  'print',
  'druck',
  'whatsapp',
  'screenshot',
  'bildschirmfoto',
  'attachment',
  'anhang',
  'cam',
  'camscanner',
  'adobe',
  'genius',
  'lens',
  'office',
  'microsoft',
  'outfile',
  'output',
  'download',
  'tmp',
  'temp',
  'und',
  'jpeg',
  'jpg',
  'png',
  'tif',
  'tiff',
  'heic',
  'final',
  'version',
  'edited',
]);

export interface TitleParts {
  type: EventType;
  typeConfidence: number;
  heading: string | null;
  language: string | null;
  reference: string | null;
  sender: string | null;
  date: string | null;
  subject: string | null;
  filename: string;
  lines: readonly string[];
}

export interface TitlePick {
  title: string;
  source: 'text' | 'filename';
  confidence: number;
}

/** The file name without extension and separators, or null when it is a scanner's or camera's default name. */
export function meaningfulFilename(filename: string): string | null {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const tokens = base.split(/[\s_.\-–()[\]{}+,]+/).filter(Boolean);
  const meaningful = tokens.filter(
    (t) =>
      letterCount(t) >= 3 &&
      !SCANNER_WORDS.has(t.toLowerCase()) &&
      !/^[0-9a-f]{6,}$/iu.test(t) &&
      !/^(?:img|dsc|pxl|scan|vid)\d+$/iu.test(t),
  );
  if (meaningful.length === 0) return null;
  const words = base.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The document's own heading when it is short enough to lead a title; otherwise null. */
function usableHeading(parts: TitleParts): string | null {
  const heading = parts.heading?.trim();
  return heading && heading.length <= 40 ? heading : null;
}

function typeWord(parts: TitleParts, german: boolean): string {
  const heading = usableHeading(parts);
  if (!heading) return german ? TYPE_WORDS[parts.type].de : TYPE_WORDS[parts.type].en;
  const shouting = heading === heading.toUpperCase();
  // German nouns keep their capitals; English headings read as a sentence ("Payment reminder").
  if (german)
    return shouting
      ? heading.charAt(0) + heading.slice(1).toLowerCase()
      : heading.charAt(0).toUpperCase() + heading.slice(1);
  const lower = heading.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

export function makeTitle(parts: TitleParts): TitlePick | null {
  const german = parts.language === 'de';
  const fromFile = meaningfulFilename(parts.filename);
  const sender = parts.sender ? shorten(parts.sender, 60) : null;
  // English joins ("from", ", 5 Nov 2026") only around English words: the document's own words in a language not
  // known or neither German nor English ("Rechnung" in a short scan, "Facture") are joined without words of any.
  const joins = (ownWords: boolean): Joins => (german ? 'de' : parts.language === 'en' || !ownWords ? 'en' : 'neutral');
  if (parts.type === 'letter') {
    if (parts.subject)
      return {
        title: compose(shorten(parts.subject, 90), null, sender, null, joins(true)),
        source: 'text',
        confidence: 0.7,
      };
    if (fromFile) return { title: fromFile, source: 'filename', confidence: 0.5 };
    if (sender)
      return {
        title: compose(german ? 'Brief' : 'Letter', null, sender, parts.date, joins(false)),
        source: 'text',
        confidence: 0.5,
      };
  } else if (parts.reference || sender || parts.date) {
    const title = compose(
      typeWord(parts, german),
      parts.reference,
      sender,
      parts.reference ? null : parts.date,
      joins(usableHeading(parts) !== null),
    );
    const confidence = Math.min(0.9, parts.typeConfidence + (parts.reference ? 0.1 : 0) + (sender ? 0.1 : 0));
    return { title, source: 'text', confidence: Math.round(confidence * 100) / 100 };
  } else if (!fromFile) {
    return { title: typeWord(parts, german), source: 'text', confidence: 0.4 };
  }
  if (fromFile) return { title: fromFile, source: 'filename', confidence: 0.5 };
  const line = firstMeaningfulLine(parts.lines);
  if (line) return { title: line, source: 'text', confidence: 0.3 };
  // Nothing to go on but perhaps a date: "Dokument vom 11.12.2026" still beats "scan_0042".
  if (parts.date)
    return {
      title: compose(
        german || !parts.language ? 'Dokument' : 'Document',
        null,
        null,
        parts.date,
        german || !parts.language ? 'de' : 'en',
      ),
      source: 'filename',
      confidence: 0.2,
    };
  return null;
}

/** How a title's parts are joined: in German, in English, or with dashes and an ISO date in no language. */
type Joins = 'de' | 'en' | 'neutral';

function compose(
  word: string,
  reference: string | null,
  sender: string | null,
  date: string | null,
  joins: Joins,
): string {
  let title = word;
  if (reference) title += ` ${reference}`;
  if (joins === 'de') {
    if (date) title += ` vom ${formatDate(date, 'de')}`;
    if (sender) title += ` – ${sender}`;
  } else if (joins === 'en') {
    if (sender) title += ` from ${sender}`;
    if (date) title += `, ${formatDate(date, 'en')}`;
  } else {
    if (sender) title += ` – ${sender}`;
    if (date) title += ` – ${date}`;
  }
  return title;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

function firstMeaningfulLine(lines: readonly string[]): string | null {
  for (const line of lines.slice(0, 40)) {
    const letters = letterCount(line);
    if (letters >= 4 && letters >= line.replace(/\s/g, '').length * 0.6) return shorten(line, 80);
  }
  return null;
}
