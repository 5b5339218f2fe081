import { emptyAnalysis, type Analysis, type AnalysisInput } from './analysis.ts';
import { ANALYSIS_STEPS } from './steps/index.ts';

export async function analyze(input: AnalysisInput): Promise<Analysis> {
  const analysis = emptyAnalysis();
  for (const step of ANALYSIS_STEPS) await step.run(input, analysis);
  return analysis;
}
