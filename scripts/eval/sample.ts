/** `count` items spread evenly over `items` (first included), in their order; all of them when there are fewer. */
export function evenSample<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}
