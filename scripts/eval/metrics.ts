/** How the evaluation compares extracted fields with the ground truth, and the character error rate. */

const LEGAL_FORMS = new Set([
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'kgaa',
  'co',
  'ohg',
  'ek',
  'ev',
  'eg',
  'ug',
  'haftungsbeschrankt',
  'partg',
  'mbb',
  'se',
  'gbr',
  'ltd',
  'limited',
  'plc',
  'llc',
  'llp',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'company',
  'sas',
  'sarl',
  'sa',
  'sasu',
  'eurl',
  'bv',
  'nv',
  'vof',
  'sl',
  'slu',
  'sau',
  'dac',
  'srl',
  'spa',
  'snc',
  'sdn',
  'bhd',
  'berhad',
  'pte',
  'pty',
]);

/** Lower case, no diacritics (ß → ss), words only, legal forms (GmbH, AG, Ltd, SARL, B.V., S.r.l., Sdn Bhd, …) dropped. */
export function senderTokens(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    // e.K. → ek, B.V. → bv, S.r.l. → srl
    .replace(
      /\b([a-z])\.\s?([a-z])(?:\.\s?([a-z]))?\.?(?=\s|$)/g,
      (_m, a: string, b: string, c?: string) => `${a}${b}${c ?? ''}`,
    );
  // Mexico's "S.A. de C.V." and "S. de R.L." are legal forms of several words.
  const withoutForms = folded.replace(/\b(?:sa|s\.? de rl)(?: de cv)?\b/g, ' ');
  return withoutForms.split(/[^\p{L}\p{N}]+/u).filter((t) => t && !LEGAL_FORMS.has(t));
}

/** Token overlap |A ∩ B| / max(|A|, |B|) of the normalised names. */
export function senderSimilarity(expected: string, got: string): number {
  const a = senderTokens(expected);
  const b = senderTokens(got);
  if (!a.length || !b.length)
    return a.length === b.length && expected.trim().toLowerCase() === got.trim().toLowerCase() ? 1 : 0;
  const setB = new Set(b);
  const common = [...new Set(a)].filter((t) => setB.has(t)).length;
  return common / Math.max(new Set(a).size, setB.size);
}

export const SENDER_THRESHOLD = 0.85;

export function normaliseReference(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export function normaliseText(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** Levenshtein distance with two rows (the texts are a few thousand characters). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      const sub = prev[j - 1]! + cost;
      cur[j] = del < ins ? (del < sub ? del : sub) : ins < sub ? ins : sub;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** Character error rate: edits needed to turn the extracted text into the reference, per reference character. */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const ref = normaliseText(reference);
  const hyp = normaliseText(hypothesis);
  if (!ref.length) return hyp.length ? 1 : 0;
  return levenshtein(ref, hyp) / ref.length;
}

/**
 * Order-tolerant CER: each reference line is matched to its best-fitting stretch of the extracted text
 * (semi-global edit distance), so a different but sensible reading order (columns, info blocks) costs nothing.
 */
export function lineAlignedErrorRate(reference: string, hypothesis: string): number {
  const lines = reference.split('\n').map(normaliseText).filter(Boolean);
  const hyp = normaliseText(hypothesis);
  const total = lines.reduce((sum, l) => sum + l.length, 0);
  if (!total) return hyp.length ? 1 : 0;
  let edits = 0;
  const row = new Int32Array(hyp.length + 1);
  const prev = new Int32Array(hyp.length + 1);
  for (const line of lines) {
    prev.fill(0); // a match may start anywhere in the hypothesis
    for (let i = 1; i <= line.length; i++) {
      row[0] = i;
      const c = line.charCodeAt(i - 1);
      for (let j = 1; j <= hyp.length; j++) {
        const sub = prev[j - 1]! + (c === hyp.charCodeAt(j - 1) ? 0 : 1);
        const del = prev[j]! + 1;
        const ins = row[j - 1]! + 1;
        row[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      }
      prev.set(row);
    }
    let best = line.length;
    for (let j = 0; j <= hyp.length; j++) if (prev[j]! < best) best = prev[j]!;
    edits += best;
  }
  return edits / total;
}

/** Share of the reference's words found in the extracted text, ignoring order (OCR reading order varies). */
export function wordRecall(reference: string, hypothesis: string): number {
  const words = (t: string): string[] => normaliseText(t).toLowerCase().split(' ').filter(Boolean);
  const ref = words(reference);
  if (!ref.length) return 1;
  const pool = new Map<string, number>();
  for (const w of words(hypothesis)) pool.set(w, (pool.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of ref) {
    const n = pool.get(w) ?? 0;
    if (n > 0) {
      found++;
      pool.set(w, n - 1);
    }
  }
  return found / ref.length;
}

export interface Amount {
  value: number;
  currency: string;
}

/** Reads an amount the extractor may give as {value, currency}, a number or a numeric string. */
export function asAmount(value: unknown): { value: number | null; currency: string | null } | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return { value, currency: null };
  if (typeof value === 'string') {
    const n = Number(value);
    return Number.isFinite(n) ? { value: n, currency: null } : null;
  }
  if (typeof value === 'object') {
    const v = (value as { value?: unknown }).value;
    const c = (value as { currency?: unknown }).currency;
    const num = typeof v === 'number' ? v : typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : null;
    return { value: num, currency: typeof c === 'string' ? c.toUpperCase() : null };
  }
  return null;
}

export function asDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim());
  return m ? m[1]! : null;
}

export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  return null;
}
