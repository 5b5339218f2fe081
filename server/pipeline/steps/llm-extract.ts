import { errorMessage } from '../../../common/errors.ts';
import { extractWithLlm } from '../../intelligence/llm/llm-extractor.ts';
import { mergeLlmFields } from '../../intelligence/llm/merge-llm-fields.ts';
import { letterCount } from '../../intelligence/text.ts';
import type { AnalysisStep } from '../analysis.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/** The fields the model is asked for; what the rules found for them goes along as hints. */
const CANDIDATE_FIELDS = ['event_type', 'sender_name', 'reference_number', 'document_date', 'due_date', 'amount'];

/**
 * The optional language-model extractor (off unless the archive or the environment configures it): after the rules,
 * it asks an OpenAI-compatible endpoint for the fields and keeps only values the document prints. Any failure
 * (unreachable, timeout, refusal, malformed answer) leaves the rules' fields as they are and says so in the note.
 */
export const llmExtractStep: AnalysisStep = {
  name: 'llm-extract',
  async run(input, analysis) {
    const setting = input.llm;
    if (!setting) return;
    if ('unavailable' in setting) {
      analysis.notes.push(processingMessage('llmNotUsed', { reason: setting.unavailable }));
      return;
    }
    if (letterCount(analysis.content, 20) < 20) return;
    const candidates = Object.fromEntries(
      CANDIDATE_FIELDS.flatMap((name) => {
        const field = analysis.fields[name];
        return field ? [[name, field.value]] : [];
      }),
    );
    const rulesAmount = analysis.fields.amount?.value as { currency?: unknown } | undefined;
    try {
      const { fields, dropped } = await extractWithLlm(setting.config, {
        text: analysis.content,
        candidates,
        today: input.today,
        rulesCurrency: typeof rulesAmount?.currency === 'string' ? rulesAmount.currency : null,
      });
      mergeLlmFields(analysis.fields, fields);
      if (dropped.length > 0) {
        analysis.notes.push(processingMessage('llmDropped', { fields: dropped.join(', ') }));
      }
    } catch (error) {
      analysis.notes.push(processingMessage('llmFailed', { reason: errorMessage(error) }));
    }
  },
};
