/** What one sync pass changed so far, and the newest timestamps it saw: its result and its next cursors. */
export class Pass {
  readonly docsChanged = new Set<string>();
  readonly docsRemoved = new Set<string>();
  readonly eventsChanged = new Set<string>();
  readonly eventsRemoved = new Set<string>();
  readonly restored = new Set<string>();
  maxUpdated: string | null = null;
  maxCreated: string | null = null;
  readonly kind: 'incremental' | 'full';
  readonly startedAt: number;
  constructor(kind: 'incremental' | 'full', startedAt: number) {
    this.kind = kind;
    this.startedAt = startedAt;
  }
}
