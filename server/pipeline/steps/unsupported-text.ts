import type { AnalysisStep } from '../analysis.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/**
 * Runs after the text steps: a document that ends without text always says why. Steps that failed to read a file
 * have already said so; this covers files that were read fine but hold no text.
 */
export const emptyTextStep: AnalysisStep = {
  name: 'empty-text',
  async run(input, analysis) {
    if (analysis.content.trim() !== '' || analysis.notes.length > 0) return;
    switch (input.format) {
      case 'pdf':
        analysis.notes.push(processingMessage('noTextPdf'));
        break;
      case 'jpeg':
      case 'png':
      case 'tiff':
        analysis.notes.push(processingMessage('noTextImage'));
        break;
      default:
        analysis.notes.push(processingMessage('noTextFile', { format: input.format.toUpperCase() }));
    }
  },
};
