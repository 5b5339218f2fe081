import type { AnalysisStep } from '../analysis.ts';

/** Says plainly when a format's text cannot be read yet, so an empty text is never silent. */
export const unsupportedTextStep: AnalysisStep = {
  name: 'unsupported-text',
  async run(input, analysis) {
    if (input.format === 'pdf') return;
    analysis.notes.push(`Text extraction for ${input.format.toUpperCase()} files is not enabled in this version.`);
  },
};
