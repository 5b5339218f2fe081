/** The best k (slot, score) pairs seen, kept in a min-heap so a scan of n items costs n log k at worst. */
export class TopK {
  private readonly slots: number[] = [];
  private readonly scores: number[] = [];
  private readonly k: number;

  constructor(k: number) {
    this.k = k;
  }

  push(slot: number, score: number): void {
    if (this.k <= 0) return;
    if (this.slots.length < this.k) {
      this.slots.push(slot);
      this.scores.push(score);
      this.up(this.slots.length - 1);
    } else if (score > this.scores[0]!) {
      this.slots[0] = slot;
      this.scores[0] = score;
      this.down(0);
    }
  }

  get full(): boolean {
    return this.slots.length >= this.k;
  }

  /** The least score kept (the one the next push must beat once full). */
  get least(): number {
    return this.scores[0] ?? -Infinity;
  }

  sorted(): Array<{ slot: number; score: number }> {
    return this.slots
      .map((slot, i) => ({ slot, score: this.scores[i]! }))
      .sort((a, b) => b.score - a.score || a.slot - b.slot);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.scores[parent]! <= this.scores[i]!) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.slots.length;
    for (;;) {
      const left = 2 * i + 1,
        right = left + 1;
      let least = i;
      if (left < n && this.scores[left]! < this.scores[least]!) least = left;
      if (right < n && this.scores[right]! < this.scores[least]!) least = right;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }

  private swap(a: number, b: number): void {
    [this.slots[a], this.slots[b]] = [this.slots[b]!, this.slots[a]!];
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
  }
}
