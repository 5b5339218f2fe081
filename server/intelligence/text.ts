/** Text helpers shared by the extractors: line splitting, word boundaries that know umlauts, label lookup. */

/**
 * Latin letters with accents and umlauts, as the body of a character class. The Unicode property \p{L} would
 * cover every script but makes V8's regexes several times slower, and these documents are German and English.
 */
export const L = 'a-zA-Z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f';

/** JavaScript's \b treats ä, ö, ü, ß as non-word characters; these look-arounds do not. */
export const WORD_START = `(?<![${L}0-9])`;
export const WORD_END = `(?![${L}0-9])`;
/** After a label that ends in punctuation ("Nr.", "Invoice #") the value may follow without a space. */
export const LABEL_END = `(?:(?<=[.#:])|${WORD_END})`;

/** Pattern sources are written with \p{L} for readability; this swaps in the fast Latin class. */
export function latin(source: string): string {
  return source.replaceAll('\\p{L}', `[${L}]`);
}

/** A case-insensitive regex of whole words from a list of alternatives (regex source each). */
export function wordsRegex(alternatives: readonly string[], flags = 'gi'): RegExp {
  return new RegExp(latin(`${WORD_START}(?:${alternatives.join('|')})${LABEL_END}`), flags);
}

/**
 * Splits text into trimmed lines with single spaces. Non-breaking and thin spaces become plain spaces so
 * that "1 234,56" reads the same whichever space the producer used.
 */
export function toLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\u00a0\u2007\u2009\u202f\u200a]/g, ' ')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim());
}

/** A text as trimmed lines plus the same lines joined, so a regex can scan everything in one pass. */
export interface Doc {
  lines: string[];
  /** The lines joined with "\n". */
  text: string;
  /** `text` in lower case, offset for offset: label regexes run on it without the slower /i flag. */
  lower: string;
  /** Offset of each line in `text`. */
  starts: number[];
}

export function makeDoc(raw: string): Doc {
  return makeDocFromLines(toLines(raw));
}

function makeDocFromLines(lines: string[]): Doc {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const text = lines.join('\n');
  return { lines, text, lower: lowerSameLength(text), starts };
}

/**
 * toLowerCase() turns "İ" into two code units; everything else keeps its length, which offsets rely on. Typographic
 * apostrophes become "'" (one unit for one), so the lexicons' "d'avoir" or "dell'importo" match "d’avoir".
 */
function lowerSameLength(text: string): string {
  const lower = text
    .replace(/\u0130/g, 'I')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase();
  if (lower.length === text.length) return lower;
  return Array.from(text, (c) => {
    const l = c.toLowerCase();
    return l.length === c.length ? l : c;
  }).join('');
}

export interface LineMatch {
  line: number;
  column: number;
  match: RegExpExecArray;
}

/**
 * Every match of a global regex in the whole text, with its line and column. One pass over the joined text is
 * many times faster than a regex call per line. Patterns must not match across "\n" (use " ", not \s).
 */
export function scan(doc: Doc, pattern: RegExp, lowerCase = false): LineMatch[] {
  const result: LineMatch[] = [];
  const text = lowerCase ? doc.lower : doc.text;
  pattern.lastIndex = 0;
  let line = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    while (line + 1 < doc.starts.length && doc.starts[line + 1]! <= m.index) line++;
    result.push({ line, column: m.index - doc.starts[line]!, match: m });
  }
  return result;
}

/** Evidence for a field: the matched snippet, on one line, at most 120 characters. */
export function evidence(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= 120 ? clean : `${clean.slice(0, 119)}…`;
}

export interface LabelHit<K extends string> {
  kind: K;
  label: string;
  distance: number;
}

export interface LabelSpan<K extends string> {
  kind: K;
  start: number;
  end: number;
  text: string;
}

/**
 * One regex for a list of [kind, regex] pairs, each kind a capture group, so the text is scanned once. At one
 * position the earlier kind wins, so list the more specific kinds first. Sources must use (?:) groups only and,
 * when case-insensitive, be written in lower case: they then run without /i on the lower-cased text.
 */
export interface CombinedLabels<K extends string> {
  re: RegExp;
  kinds: K[];
  lowerCase: boolean;
}

export function combineLabels<K extends string>(labels: ReadonlyArray<readonly [K, RegExp]>): CombinedLabels<K> {
  for (const [kind, pattern] of labels) {
    if (new RegExp(`${pattern.source}|`).exec('')!.length > 1)
      throw new Error(`label pattern ${kind} has a capture group`);
  }
  const body = labels.map(([, pattern]) => `(${pattern.source})`).join('|');
  const lowerCase = labels.every(([, pattern]) => pattern.flags.includes('i'));
  return { re: new RegExp(body, 'g'), kinds: labels.map(([kind]) => kind), lowerCase };
}

/** Every label of every kind, grouped by line. */
export function indexLabels<K extends string>(doc: Doc, labels: CombinedLabels<K>): Map<number, LabelSpan<K>[]> {
  const byLine = new Map<number, LabelSpan<K>[]>();
  for (const { line, column, match } of scan(doc, labels.re, labels.lowerCase)) {
    const group = match.findIndex((value, i) => i > 0 && value !== undefined);
    const kind = labels.kinds[group - 1];
    if (kind === undefined) continue;
    const list = byLine.get(line) ?? [];
    const end = column + match[0].length;
    list.push({ kind, start: column, end, text: doc.lines[line]!.slice(column, end) });
    byLine.set(line, list);
  }
  return byLine;
}

/** A document of some lines of another one; `origin[i]` is the line number in the original. */
export function subDoc(doc: Doc, lineNumbers: Iterable<number>): { doc: Doc; origin: number[] } {
  const origin = [...new Set(lineNumbers)].filter((n) => n >= 0 && n < doc.lines.length).sort((a, b) => a - b);
  const sub = makeDocFromLines(origin.map((n) => doc.lines[n]!));
  return { doc: sub, origin };
}

/** Labels of the given lines only, keyed by their original line numbers. */
export function indexLabelsOf<K extends string>(
  doc: Doc,
  lineNumbers: Iterable<number>,
  labels: CombinedLabels<K>,
): Map<number, LabelSpan<K>[]> {
  const { doc: sub, origin } = subDoc(doc, lineNumbers);
  const result = new Map<number, LabelSpan<K>[]>();
  for (const [line, spans] of indexLabels(sub, labels)) result.set(origin[line]!, spans);
  return result;
}

/**
 * The label closest before a value: among the labels lying within [from, to) of a line, the one that ends last;
 * at equal ends the longer one, then the earlier kind. `distance` counts the characters between label and `to`.
 */
export function nearestLabel<K extends string>(
  spans: readonly LabelSpan<K>[] | undefined,
  from: number,
  to: number,
): LabelHit<K> | null {
  let best: LabelSpan<K> | null = null;
  for (const span of spans ?? []) {
    if (span.start < from || span.end > to) continue;
    if (!best || span.end > best.end || (span.end === best.end && span.end - span.start > best.end - best.start))
      best = span;
  }
  return best ? { kind: best.kind, label: best.text, distance: to - best.end } : null;
}

/** Letters in a string (Latin script), counting stops at `limit`. */
export function letterCount(text: string, limit = Infinity): number {
  let count = 0;
  for (let i = 0; i < text.length && count < limit; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7)) count++;
  }
  return count;
}
