import { chatJson } from './chat-client.ts';
import { EXTRACTION_FORMAT, extractionMessages, readAnswer } from './extraction-prompt.ts';
import type { LlmConfig } from './llm-config.ts';
import { acquireLlmPermit } from './permits.ts';
import { verifyAnswer, type Verification } from './verify-answer.ts';

/** A document waits at most this long for its turn at the endpoint; then the rules' fields stand. */
export const PERMIT_WAIT_MS = 10 * 60_000;

export interface ExtractionInput {
  text: string;
  /** What the rules found (field name → value), given to the model as hints. */
  candidates: Record<string, unknown>;
  today: string;
  /** The rules' currency, for an amount whose currency the model names but the document does not print. */
  rulesCurrency: string | null;
}

/** Asks the endpoint (within the service-wide concurrency limit) and keeps what the document prints. */
export async function extractWithLlm(config: LlmConfig, input: ExtractionInput): Promise<Verification> {
  let release: () => void;
  try {
    release = await acquireLlmPermit(config.concurrency, AbortSignal.timeout(PERMIT_WAIT_MS));
  } catch (error) {
    throw new Error(
      `no turn at the endpoint within ${PERMIT_WAIT_MS / 60_000} min (${config.concurrency} request(s) at a time)`,
      { cause: error },
    );
  }
  let answer: unknown;
  try {
    answer = await chatJson(config, extractionMessages(input.text, input.candidates), EXTRACTION_FORMAT);
  } finally {
    release();
  }
  return verifyAnswer(readAnswer(answer), input.text, { today: input.today, rulesCurrency: input.rulesCurrency });
}
