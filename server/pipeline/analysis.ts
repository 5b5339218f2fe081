import type { ExtractedField, FileFormat } from '../../common/archive-types.ts';
import type { PageLayout } from '../intelligence/layout-types.ts';
import type { LlmJobSetting } from '../intelligence/llm/llm-config.ts';
import type { DecodeLimits } from './processing-limits.ts';

/** What the pipeline is given for one document (plain data: it crosses into the analysis process). */
export interface AnalysisInput {
  documentId: string;
  filePath: string;
  format: FileFormat;
  originalFilename: string;
  /** Names of the categories of the document's space (the understanding picks one). */
  categories: string[];
  /** YYYY-MM-DD, for relative due dates ("payable within 14 days") and expiry. */
  today: string;
  /** Decoding limits for this document (the defaults of DEFAULT_PROCESSING_LIMITS where absent). */
  limits?: Partial<DecodeLimits>;
  /** The language-model extractor's configuration; absent while it is off (the default). */
  llm?: LlmJobSetting;
}

/** What the pipeline found. Every field is a suggestion: upload metadata and hand edits override it. */
export interface Analysis {
  content: string;
  pageCount: number | null;
  title: string | null;
  language: string | null;
  notes: string[];
  /** Positions of the text on its pages, where the reader gives them (empty otherwise). */
  layout: PageLayout[];
  /** Extracted fields with their origin and confidence, stored as the document's extracted_data. */
  fields: Record<string, ExtractedField>;
}

/** One step of the pipeline. Steps run in order and add to the analysis; OCR and AI extraction slot in here. */
export interface AnalysisStep {
  name: string;
  run(input: AnalysisInput, analysis: Analysis): Promise<void>;
}

export const emptyAnalysis = (): Analysis => ({
  content: '',
  pageCount: null,
  title: null,
  language: null,
  notes: [],
  layout: [],
  fields: {},
});
