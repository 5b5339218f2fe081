import { readFile } from 'node:fs/promises';
import type { AnalysisStep } from '../analysis.ts';
import { decodeJpegOrPng, decodeTiffPages, ImageDecodeError, type RasterPage } from '../../ocr/image-decode.ts';
import { ocrPage } from '../../ocr/page-ocr.ts';
import { decodeLimitsOf } from '../processing-limits.ts';
import { OcrReport, ocrLanguagesOf } from './ocr-report.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/** JPEG, PNG and TIFF (every page of a multi-page TIFF): OCR, one decoded page in memory at a time. */
export const imageTextStep: AnalysisStep = {
  name: 'image-text',
  async run(input, analysis) {
    if (input.format !== 'jpeg' && input.format !== 'png' && input.format !== 'tiff') return;
    const bytes = new Uint8Array(await readFile(input.filePath));
    const report = new OcrReport(ocrLanguagesOf(input));
    const texts: string[] = [];
    let pages = 0;
    let pagesInFile = 0;
    try {
      const source: Iterable<RasterPage> =
        input.format === 'tiff'
          ? decodeTiffPages(bytes, decodeLimitsOf(input).maxPages)
          : [await decodeJpegOrPng(bytes)];
      for (const { image, dpi, warning, pagesInFile: total } of source) {
        pages++;
        pagesInFile = total ?? pages;
        if (warning) analysis.notes.push(warning);
        const text = await report.readPage(pages, () => ocrPage(image, dpi, report.languages, report.lastModel));
        if (text) texts.push(text);
      }
    } catch (error) {
      if (!(error instanceof ImageDecodeError)) throw error;
      analysis.notes.push(
        pages > 0
          ? processingMessage('imagePartial', { pages, reason: error.message })
          : processingMessage('imageUnreadable', { reason: error.message }),
      );
    }
    analysis.pageCount = pages > 0 ? pagesInFile : null;
    analysis.content = texts.join('\n\n');
    report.apply(analysis);
    if (pagesInFile > pages) analysis.notes.push(processingMessage('pageLimit', { read: pages, total: pagesInFile }));
  },
};
