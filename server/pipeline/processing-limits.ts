import type { AnalysisInput } from './analysis.ts';

/**
 * What one document may cost to process (docs/api.md, "Processing limits"). The decode limits travel with each job
 * into the analysis process; the rest are enforced by the service around that process.
 */
export interface DecodeLimits {
  /** Pages read of one PDF or TIFF; the rest are left out with a note. */
  maxPages: number;
  /** Bytes one compressed PDF stream may inflate to. */
  maxStreamBytes: number;
  /** Bytes all compressed streams of one PDF may inflate to together. */
  maxDecodedBytes: number;
  /** Pixels (width × height) of one image in a PDF; a larger image is left out (pdf.js `maxImageSize`). */
  maxImagePixels: number;
}

export interface ProcessingLimits extends DecodeLimits {
  /** Resident memory of one analysis process, in MiB; over it, the process is killed and its document fails. */
  memoryMb: number;
  /** Wall time of one job; after it, the analysis process is killed and the document fails. */
  jobTimeoutMs: number;
  /**
   * A job running longer than this stops counting against the worker count and continues at low priority, so a
   * huge document cannot keep the next ones waiting. At most `workers` such long jobs run at a time.
   */
  longJobMs: number;
  /** Tries of one job that end with the analysis process lost or the service stopping uncleanly mid-job. */
  maxAttempts: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_PROCESSING_LIMITS: ProcessingLimits = {
  maxPages: 2000,
  maxStreamBytes: 256 * MiB,
  maxDecodedBytes: 4096 * MiB,
  maxImagePixels: 50_000_000,
  memoryMb: 1536,
  jobTimeoutMs: 60 * 60_000,
  longJobMs: 10_000,
  maxAttempts: 3,
};

export function decodeLimitsOf(input: AnalysisInput): DecodeLimits {
  return { ...DEFAULT_PROCESSING_LIMITS, ...input.limits };
}

/** Whole MiB for messages ("more than 256 MB"). */
export const megabytes = (bytes: number): number => Math.round(bytes / MiB);

/** A document over one of the limits: the job fails with this message, nothing is retried. */
export class ProcessingLimitError extends Error {
  override name = 'ProcessingLimitError';
}
