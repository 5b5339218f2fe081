import { describe, expect, it } from 'vitest';
import { processingFailure, processingMessages } from '../../common/i18n/known-messages.ts';
import { translate, type Params } from '../../common/i18n/translate.ts';
import {
  joinProcessingNotes,
  NUMERIC_PLACEHOLDERS,
  PROCESSING_TEMPLATES,
  processingMessage,
  readProcessingMessage,
  type ProcessingKind,
} from '../../common/processing-messages.ts';

const de = (key: Parameters<typeof translate>[1], params?: Params): string => translate('de', key, params);
const en = (key: Parameters<typeof translate>[1], params?: Params): string => translate('en', key, params);

describe("the service's processing notes and failure reasons", () => {
  it('reads every wording back as the kind it was made from, with its values', () => {
    for (const [kind, template] of Object.entries(PROCESSING_TEMPLATES) as Array<[ProcessingKind, string]>) {
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      // A reason (another program's words) may hold what the wording is made of: a colon, brackets, a full stop.
      // Counts and sizes are digits.
      const params = Object.fromEntries(
        names.map((name, i) => [
          name,
          NUMERIC_PLACEHOLDERS.has(name) ? `1${i},000` : name === 'reason' ? `v${i}: (x). y` : `v${i}`,
        ]),
      );
      const text = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
      expect(readProcessingMessage(text), kind).toEqual({ kind, params });
    }
  });

  it('tells the more specific wording from the general one', () => {
    const many = processingMessage('ocrLowOnPagesMore', { pages: '1, 2, 3', more: 4 });
    expect(readProcessingMessage(many)).toEqual({ kind: 'ocrLowOnPagesMore', params: { pages: '1, 2, 3', more: '4' } });
    const oneOf = processingMessage('ocrLanguagesMissingOneOf', { missing: 'fra', used: 'deu, eng' });
    expect(readProcessingMessage(oneOf)?.kind).toBe('ocrLanguagesMissingOneOf');
    expect(readProcessingMessage('The disk is full.')).toBeNull();
  });

  it('writes numbers plainly, keeps a value on one line, and needs no values where the wording has none', () => {
    expect(processingMessage('pageLimit', { read: 2000, total: 3000 })).toBe(
      'Only the first 2000 of 3000 pages were read (the limit per document).',
    );
    expect(processingMessage('memory', { mb: 1536 })).toBe(
      'Too large to process: it needed more than 1536 MB of memory (the limit per document).',
    );
    // Another program's reply with line breaks would otherwise make several "notes" of one.
    expect(processingMessage('llmFailed', { reason: 'HTTP 502: <html>\n  <body>Bad gateway</body>\n</html>' })).toBe(
      "Language model extractor failed (the rules' fields stand): HTTP 502: <html> <body>Bad gateway</body> </html>.",
    );
    expect(processingMessage('pdfLocked')).toBe('The PDF is password-protected; its text could not be read.');
  });

  it('keeps one note per line', () => {
    expect(joinProcessingNotes([processingMessage('ocrLow', { percent: 41 }), processingMessage('pdfLocked')])).toBe(
      'OCR confidence is low (41%); the text may contain errors.\nThe PDF is password-protected; its text could not be read.',
    );
    expect(joinProcessingNotes([])).toBeNull();
  });
});

describe('processing notes and failures in the UI language', () => {
  it('shows each note of a document in German, with the English note as the detail', () => {
    const note = joinProcessingNotes([
      processingMessage('ocrLow', { percent: 41 }),
      processingMessage('officeTruncated', { format: 'XLSX', chars: '200,000' }),
      'A note from another service.',
    ])!;
    expect(processingMessages(note, de)).toEqual([
      {
        text: 'Die Texterkennung ist unsicher (41 %); der Text kann Fehler enthalten.',
        detail: 'OCR confidence is low (41%); the text may contain errors.',
      },
      {
        text: 'Die XLSX-Datei ist sehr groß; nur ihre ersten 200.000 Zeichen Text wurden übernommen.',
        detail: 'The XLSX file is very large; only its first 200,000 characters of text were kept.',
      },
      { text: 'A note from another service.', detail: null },
    ]);
  });

  it('splits the notes an earlier version joined with spaces, where each part is a known note', () => {
    const low = processingMessage('ocrLow', { percent: 41 });
    const pages = processingMessage('pageLimit', { read: 2000, total: 3000 });
    const joined = `${low} ${pages}`;
    expect(processingMessages(joined, de).map((line) => line.detail)).toEqual([low, pages]);
    // A note ending in another program's words does not swallow the notes after it, and a count is only digits.
    const partial = processingMessage('imagePartial', {
      pages: 2,
      reason: processingMessage('tiffPageUndecodable', { reason: 'x' }),
    });
    const limit = processingMessage('pageLimit', { read: 2, total: 5 });
    expect(processingMessages(`${partial} ${low} ${limit}`, de).map((line) => line.detail)).toEqual([
      partial,
      low,
      limit,
    ]);
    // A text that is not made of known notes stays whole.
    expect(processingMessages(`${low} Something else. Entirely.`, de)).toEqual([
      { text: `${low} Something else. Entirely.`, detail: null },
    ]);
  });

  it('translates a failure and a known reason inside it', () => {
    const timeout = processingMessage('failed', { reason: processingMessage('timeout', { duration: '2 min' }) });
    expect(processingMessages(timeout, de)[0]!.text).toBe(
      'Verarbeitung fehlgeschlagen: Die Verarbeitung dauerte länger als 2 min (die Grenze je Dokument).',
    );
    const lost = processingMessage('failed', {
      reason: processingMessage('notTriedAgain', {
        reason: processingMessage('processEnded', { how: 'SIGKILL' }),
        tries: 3,
      }),
    });
    expect(processingMessages(lost, de)[0]!.text).toBe(
      'Verarbeitung fehlgeschlagen: Der Analyseprozess endete unerwartet (SIGKILL); nach 3 Versuchen nicht erneut versucht',
    );
    // An unknown reason stays as it came, inside the translated frame.
    expect(processingMessages(processingMessage('failed', { reason: 'boom' }), de)[0]!.text).toBe(
      'Verarbeitung fehlgeschlagen: boom',
    );
  });

  it("gives a failure's reason alone where the screen already says it failed", () => {
    const error = processingMessage('failed', { reason: processingMessage('memory', { mb: 1024 }) });
    const interrupted = processingMessage('failed', { reason: processingMessage('interrupted', { tries: 3 }) });
    expect(processingFailure(interrupted, de).text).toBe(
      'Die Verarbeitung wurde 3-mal unterbrochen (der Dienst wurde währenddessen beendet); nicht erneut versucht',
    );
    expect(processingFailure(error, de)).toEqual({
      text: 'Zu groß zum Verarbeiten: Es brauchte mehr als 1.024 MB Speicher (die Grenze je Dokument).',
      detail: error,
    });
    expect(processingFailure(error, en).text).toBe(
      // The English UI writes the number its locale's way too.
      'Too large to process: it needed more than 1,024 MB of memory (the limit per document).',
    );
    expect(processingFailure('Something else broke', de)).toEqual({ text: 'Something else broke', detail: null });
  });

  it('speaks to an English user without field names, and repeats no note on hover', () => {
    expect(processingMessages(processingMessage('duplicate'), en)[0]!.text).toBe(
      'The same file is already in this space.',
    );
    const low = processingMessage('ocrLow', { percent: 41 });
    expect(processingMessages(low, en)).toEqual([{ text: low, detail: null }]);
  });
});
