import type { AnalysisStep } from '../analysis.ts';

/** Scanner default names carry no meaning; they make a poor title but are better than nothing. */
export function titleFromFilename(filename: string): string {
  const base = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const words = base
    .replace(/[_]+/g, ' ')
    .replace(/\s*-\s*/g, ' - ')
    .replace(/\s+/g, ' ')
    .trim();
  return words || filename || 'Untitled document';
}

export const filenameTitleStep: AnalysisStep = {
  name: 'filename-title',
  async run(input, analysis) {
    analysis.title ??= titleFromFilename(input.originalFilename);
  },
};
