import type { AnalysisStep } from '../analysis.ts';

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
        analysis.notes.push('No text was found: the PDF has no text layer and OCR found no text on its pages.');
        break;
      case 'jpeg':
      case 'png':
      case 'tiff':
        analysis.notes.push('No text was found: OCR found no text in the image.');
        break;
      default:
        analysis.notes.push(`No text was found: the ${input.format.toUpperCase()} file contains no text.`);
    }
  },
};
