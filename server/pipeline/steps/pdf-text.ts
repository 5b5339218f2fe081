import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { AnalysisStep } from '../analysis.ts';

/** Reads the text layer of a PDF, page by page, keeping line breaks where pdf.js marks them. */
export const pdfTextStep: AnalysisStep = {
  name: 'pdf-text',
  async run(input, analysis) {
    if (input.format !== 'pdf') return;
    const data = new Uint8Array(await readFile(input.filePath));
    const pdf = await getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
    try {
      analysis.pageCount = pdf.numPages;
      const pages: string[] = [];
      for (let number = 1; number <= pdf.numPages; number++) {
        const page = await pdf.getPage(number);
        const text = await page.getTextContent();
        let pageText = '';
        for (const item of text.items) {
          if (!('str' in item)) continue;
          pageText += item.str;
          if (item.hasEOL) pageText += '\n';
          else if (item.str && !item.str.endsWith(' ')) pageText += ' ';
        }
        pages.push(pageText.replace(/[ \t]+\n/g, '\n').replace(/[ \t]{2,}/g, ' ').trim());
        page.cleanup();
      }
      analysis.content = pages.join('\n\n').trim();
      if (!analysis.content) analysis.notes.push('The PDF has no text layer; OCR of scanned pages is not enabled in this version.');
    } finally {
      await pdf.destroy();
    }
  },
};
