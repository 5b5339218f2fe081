import { errorMessage } from '../../common/errors.ts';
import { isLlmPermitGrant, type LlmPermitMessage } from '../intelligence/llm/permits.ts';
import type { Analysis, AnalysisInput } from './analysis.ts';
import { analyze } from './analyze.ts';
import { ProcessingLimitError } from './processing-limits.ts';
import { preloadPdfWorker } from './steps/pdf-text.ts';

/**
 * What an analysis process sends its parent: that it has started (its code loaded, so a job's time limit counts the
 * job alone), the result of a job, or (without /proc to read) its resident size.
 */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'result'; ok: true; analysis: Analysis }
  | { type: 'result'; ok: false; error: string; limit: boolean }
  | { type: 'rss'; bytes: number }
  | LlmPermitMessage;

/** Where the parent cannot read a child's memory itself, the child reports it this often. */
const RSS_REPORT_MS = 250;

// The entry of an analysis process (worker-pool.ts): one job in, one result out, as long as the parent wants.
if (process.send) {
  const send = (message: ChildMessage): void => void process.send?.(message);
  process.on('message', (input: AnalysisInput) => {
    // The service's answers to the language-model extractor's permit requests (permits.ts) are not jobs.
    if (isLlmPermitGrant(input)) return;
    void analyze(input).then(
      (analysis) => send({ type: 'result', ok: true, analysis }),
      (error: unknown) =>
        send({
          type: 'result',
          ok: false,
          error: errorMessage(error),
          limit: error instanceof ProcessingLimitError,
        }),
    );
  });
  // The parent going away ends this process too.
  process.on('disconnect', () => process.exit(0));
  if (process.platform !== 'linux') {
    setInterval(() => send({ type: 'rss', bytes: process.memoryUsage.rss() }), RSS_REPORT_MS).unref();
  }
  // The parent sends the first job only after this.
  void preloadPdfWorker().then(
    () => send({ type: 'ready' }),
    (error: unknown) => {
      process.stderr.write(`pdf.js worker code could not be loaded: ${errorMessage(error)}\n`);
      process.exit(1);
    },
  );
}
