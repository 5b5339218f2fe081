import { errorMessage } from '../../../common/errors.ts';
import type { PageLayout } from '../../intelligence/layout-types.ts';
import type { Analysis, AnalysisInput } from '../analysis.ts';
import type { PageOcr } from '../../ocr/page-ocr.ts';
import { ISO_LANGUAGE, resolveOcrLanguages } from '../../ocr/tessdata.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/** Input as the OCR steps read it: an explicit language list may come with it (tesseract codes, e.g. ['deu']). */
export type OcrInput = AnalysisInput & { ocrLanguages?: readonly string[] };

/** Below this mean confidence (0..1) a page's text is flagged as unreliable. */
export const LOW_CONFIDENCE = 0.6;

export function ocrLanguagesOf(input: AnalysisInput): { languages: string[]; unavailable: string[] } {
  const requested = (input as OcrInput).ocrLanguages;
  return resolveOcrLanguages(Array.isArray(requested) ? requested : undefined);
}

interface PageResult {
  number: number;
  chars: number;
  confidence: number;
  script: string | null;
  model: string | null;
}

/**
 * Collects what OCR did across the pages of one document and turns it into the analysis: the overall confidence
 * (a character-weighted mean, as field `ocr_confidence`), notes on weak or failed pages, the language when only
 * one was configured, the words' positions per page, and a word when the script seen is one no
 * installed language can read.
 */
export class OcrReport {
  readonly languages: string[];
  private readonly unavailable: string[];
  private readonly pages: PageResult[] = [];
  private readonly failures: Array<{ number: number; reason: string }> = [];
  private readonly layouts: PageLayout[] = [];

  constructor(resolved: { languages: string[]; unavailable: string[] }) {
    this.languages = resolved.languages;
    this.unavailable = resolved.unavailable;
  }

  /** Runs OCR for one page; a failure is recorded (and the page left without text) rather than thrown. */
  async readPage(number: number, read: () => Promise<PageOcr | null>): Promise<string | null> {
    try {
      const result = await read();
      if (result === null) return null;
      const text = tidyOcrText(result.text);
      this.pages.push({
        number,
        chars: text.replace(/\s+/g, '').length,
        confidence: result.confidence,
        script: result.script,
        model: result.model,
      });
      if (result.boxes.length > 0) this.layouts.push({ page: number, aspect: result.aspect, boxes: result.boxes });
      return text;
    } catch (error) {
      this.failures.push({ number, reason: errorMessage(error) });
      return null;
    }
  }

  get pagesRead(): number {
    return this.pages.length;
  }

  /** The model that read the last page with text: the likeliest for the next page of the same document. */
  get lastModel(): string | null {
    return this.pages.findLast((p) => p.chars > 0 && p.model !== null)?.model ?? null;
  }

  /** Adds fields and notes to the analysis. */
  apply(analysis: Analysis): void {
    if (this.unavailable.length > 0 && (this.pages.length > 0 || this.failures.length > 0)) {
      const missing = this.unavailable.join(', ');
      analysis.notes.push(
        this.languages.length === 1
          ? processingMessage('ocrLanguagesMissing', { missing, used: this.languages[0]! })
          : processingMessage('ocrLanguagesMissingOneOf', { missing, used: this.languages.join(', ') }),
      );
    }
    const withText = this.pages.filter((p) => p.chars > 0);
    if (withText.length > 0) {
      const chars = withText.reduce((n, p) => n + p.chars, 0);
      const mean = withText.reduce((n, p) => n + p.confidence * p.chars, 0) / chars;
      const value = Math.round(mean * 100) / 100;
      analysis.fields.ocr_confidence = { value, source: 'ocr', confidence: 1 };
      const weak = withText.filter((p) => p.confidence < LOW_CONFIDENCE);
      if (mean < LOW_CONFIDENCE) {
        analysis.notes.push(processingMessage('ocrLow', { percent: Math.round(mean * 100) }));
      } else if (weak.length > 0) {
        analysis.notes.push(lowOnPagesNote(weak.map((p) => p.number)));
      }
    }
    for (const failure of this.failures.slice(0, 5)) {
      analysis.notes.push(processingMessage('ocrFailedOn', { page: failure.number, reason: failure.reason }));
    }
    const more = this.failures.length - 5;
    if (more === 1) analysis.notes.push(processingMessage('ocrFailedOneMore'));
    if (more > 1) analysis.notes.push(processingMessage('ocrFailedMore', { count: more }));
    // Only a single configured language is known for certain; with several, the text decides (intelligence step).
    if (this.pages.length > 0 && this.languages.length === 1)
      analysis.language ??= ISO_LANGUAGE[this.languages[0]!] ?? null;
    if (this.layouts.length > 0) {
      analysis.layout = [
        ...analysis.layout.filter((l) => !this.layouts.some((o) => o.page === l.page)),
        ...this.layouts,
      ].sort((a, b) => a.page - b.page);
    }
    // Orientation detection's script guess is often wrong on sparse text (a till slip "in Cyrillic"); a page that the
    // installed Latin-script models read with confidence is not in another script.
    const foreign = [
      ...new Set(
        this.pages
          .filter((p) => p.confidence < LOW_CONFIDENCE)
          .map((p) => p.script)
          .filter((s): s is string => !!s && !READABLE_SCRIPTS.has(s)),
      ),
    ];
    if (foreign.length > 0) {
      analysis.notes.push(processingMessage('foreignScript', { scripts: foreign.join(', ') }));
    }
  }
}

/** Scripts the installed languages (six Latin-script ones) are written in; OSD's 'Common' is digits and punctuation. */
const READABLE_SCRIPTS = new Set(['Latin', 'Common', 'Fraktur']);

/** The note on the pages read with low confidence: at most ten numbers, then how many more. */
function lowOnPagesNote(numbers: number[]): string {
  if (numbers.length === 1) return processingMessage('ocrLowOnPage', { page: numbers[0]! });
  const pages = numbers.slice(0, 10).join(', ');
  return numbers.length > 10
    ? processingMessage('ocrLowOnPagesMore', { pages, more: numbers.length - 10 })
    : processingMessage('ocrLowOnPages', { pages });
}

/** Tesseract's text: trailing spaces and runs of blank lines removed, form feeds dropped. */
export function tidyOcrText(text: string): string {
  return text
    .replace(/\f/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
