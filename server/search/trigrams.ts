/**
 * The distinct trigrams of text-folding's trigrams() (same padding, same UTF-16 units), each packed into one number:
 * no string per trigram, which is what made the fuzzy test the costliest part of a snippet.
 */
export function trigramCodes(word: string): number[] {
  const padded = `<${word}>`;
  const codes: number[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) {
    const code = padded.charCodeAt(i) * 4_294_967_296 + padded.charCodeAt(i + 1) * 65_536 + padded.charCodeAt(i + 2);
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/** trigramSimilarity (the Dice coefficient) of distinct trigram codes and a set of them; 0 where it cannot reach 0.5. */
export function dice(a: readonly number[], b: ReadonlySet<number>): number {
  // Cannot reach 0.5 when one set is more than three times the other: skip the counting.
  if (a.length > 3 * b.size || b.size > 3 * a.length) return 0;
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  return (2 * shared) / (a.length + b.size);
}
