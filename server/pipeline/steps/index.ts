import type { AnalysisStep } from '../analysis.ts';
import { filenameTitleStep } from './filename-title.ts';
import { pdfTextStep } from './pdf-text.ts';
import { unsupportedTextStep } from './unsupported-text.ts';

/** The pipeline, in order. */
export const ANALYSIS_STEPS: readonly AnalysisStep[] = [pdfTextStep, unsupportedTextStep, filenameTitleStep];
