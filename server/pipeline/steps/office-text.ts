import type { FileFormat } from '../../../common/archive-types.ts';
import { errorMessage } from '../../../common/errors.ts';
import type { Analysis, AnalysisStep } from '../analysis.ts';
import { docText } from './office/doc.ts';
import { docxText } from './office/docx.ts';
import { MAX_OFFICE_CHARS, tidy, type Extracted } from './office/extracted.ts';
import { odfText } from './office/odf.ts';
import { pptText } from './office/ppt.ts';
import { pptxText } from './office/pptx.ts';
import { xlsText } from './office/xls.ts';
import { xlsxText } from './office/xlsx.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/**
 * Text of Office documents, one reader per format in office/. The zip-based ones (DOCX, XLSX, PPTX, ODT, ODS, ODP)
 * are read straight from their XML with yauzl: paragraphs and line breaks become lines, table cells are separated by
 * tabs and rows by lines, slides and sheets by blank lines (sheets under their name when there are several). The
 * legacy binary ones: DOC with word-extractor, XLS with SheetJS, PPT from the text atoms of its "PowerPoint Document"
 * stream (no maintained library reads PPT). A file that cannot be read ends with a note saying so, never with an
 * exception.
 */

const READERS: Partial<Record<FileFormat, (path: string) => Promise<Extracted>>> = {
  docx: docxText,
  xlsx: xlsxText,
  pptx: pptxText,
  odt: odfText,
  ods: odfText,
  odp: odfText,
  doc: docText,
  xls: xlsText,
  ppt: pptText,
};

export const officeTextStep: AnalysisStep = {
  name: 'office-text',
  async run(input, analysis) {
    const read = READERS[input.format];
    if (!read) return;
    let result: Extracted;
    try {
      result = await read(input.filePath);
    } catch (error) {
      analysis.notes.push(
        processingMessage('officeUnreadable', { format: input.format.toUpperCase(), reason: reason(error) }),
      );
      return;
    }
    applyExtracted(analysis, input.format, result);
  },
};

export async function extractOffice(format: FileFormat, path: string): Promise<Extracted> {
  const read = READERS[format];
  if (!read) throw new Error(`${format} is not an Office format`);
  return read(path);
}

function applyExtracted(analysis: Analysis, format: FileFormat, result: Extracted): void {
  let text = tidy(result.text);
  if (text.length > MAX_OFFICE_CHARS) {
    text = text.slice(0, MAX_OFFICE_CHARS);
    result.truncated = true;
  }
  analysis.content = text;
  analysis.pageCount = result.pageCount;
  if (result.truncated)
    analysis.notes.push(
      processingMessage('officeTruncated', {
        format: format.toUpperCase(),
        chars: MAX_OFFICE_CHARS.toLocaleString('en'),
      }),
    );
}

function reason(error: unknown): string {
  const message = errorMessage(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}
