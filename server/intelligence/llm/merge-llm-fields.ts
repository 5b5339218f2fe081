import type { VerifiedFields } from './verify-answer.ts';

type Fields = Record<string, { value: unknown; source: string; confidence: number; evidence?: string }>;

/**
 * The confidence of a verified model value. The document prints it, but which printed value is meant was not
 * calibrated on any model here, so it stays below the 0.8 from which the rules' fields are right 95 % of the time.
 */
export const LLM_CONFIDENCE = 0.7;
/** A rules' field this confident stands: the model fills gaps and replaces guesses, not labelled values. */
const RULES_STAND_AT = 0.8;
/** Values that a person or a structured source gave; a model never replaces them. */
const KEPT_SOURCES = new Set(['e-invoice', 'learned', 'edit', 'metadata']);

/** Writes the verified values into the analysis's fields where they fill or replace a weaker one; returns their names. */
export function mergeLlmFields(fields: Fields, verified: VerifiedFields): string[] {
  const set: string[] = [];
  for (const [name, raw] of Object.entries(verified) as Array<
    [keyof VerifiedFields, VerifiedFields[keyof VerifiedFields]]
  >) {
    if (raw === undefined) continue;
    const existing = fields[name];
    if (existing && (KEPT_SOURCES.has(existing.source) || existing.confidence >= RULES_STAND_AT)) continue;
    const value = name === 'amount' ? signedLike(existing?.value, raw as { value: number; currency: string }) : raw;
    if (existing && sameValue(existing.value, value)) continue;
    fields[name] = { value, source: 'llm', confidence: LLM_CONFIDENCE };
    set.push(name);
  }
  return set;
}

/** A credit note's amount is negative in the rules' reading; the model's figure follows that sign. */
function signedLike(
  existing: unknown,
  amount: { value: number; currency: string },
): { value: number; currency: string } {
  const negative =
    typeof existing === 'object' &&
    existing !== null &&
    (existing as { value?: unknown }).value !== undefined &&
    Number((existing as { value: unknown }).value) < 0;
  return negative ? { ...amount, value: -Math.abs(amount.value) } : amount;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string')
    return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}
