import type { AnalysisStep } from '../analysis.ts';
import { filenameTitleStep } from './filename-title.ts';
import { imageTextStep } from './image-text.ts';
import { llmExtractStep } from './llm-extract.ts';
import { officeTextStep } from './office-text.ts';
import { pdfTextStep } from './pdf-text.ts';
import { understandStep } from './understand-step.ts';
import { emptyTextStep } from './unsupported-text.ts';

/**
 * The pipeline, in order. Each text step handles its own formats and ignores the rest: PDF (text layer, OCR for
 * scanned pages), images (OCR), Office documents; then a note if no text came out at all.
 */
export const ANALYSIS_STEPS: readonly AnalysisStep[] = [
  pdfTextStep,
  imageTextStep,
  officeTextStep,
  emptyTextStep,
  understandStep,
  llmExtractStep,
  filenameTitleStep,
];
