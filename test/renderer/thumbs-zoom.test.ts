import { describe, expect, it, vi } from 'vitest';
import type { CallOutput, DesktopApi, DocumentView } from '../../common/ipc.ts';
import { setDesktop } from '../../renderer/src/lib/desktop.ts';
import { noteScroll, restRemaining, SCROLL_REST_MS, thumbnail } from '../../renderer/src/lib/thumbs.ts';
import { nextZoom, ZOOM_STEPS } from '../../renderer/src/lib/zoom.ts';

// The decoders need a canvas: here they stand in, recording what they were asked for.
const tiff = vi.hoisted(() => ({ asked: [] as Array<[string, number | undefined]> }));
vi.mock('../../renderer/src/lib/tiff.ts', () => ({
  tiffPreviewUrl: (url: string, maxWidth?: number) => {
    tiff.asked.push([url, maxWidth]);
    return Promise.resolve(`blob:tiff-${url}`);
  },
}));
const pdf = vi.hoisted(() => ({ destroyed: 0 }));
vi.mock('../../renderer/src/lib/pdf.ts', () => ({
  openPdf: () => ({
    promise: Promise.reject(new Error('broken PDF')),
    destroy: () => {
      pdf.destroyed++;
      return Promise.resolve();
    },
  }),
}));

type Preview = CallOutput<'documents.preview'>;
let serial = 0;

function doc(format: DocumentView['file_format'], mime: string): DocumentView {
  serial++;
  return {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    space_id: 's',
    category_id: null,
    category_name: null,
    status: 'completed',
    title: 'T',
    original_filename: 'f',
    mime_type: mime,
    file_format: format,
    size_bytes: 1,
    sha256: String(serial).padStart(64, 'a'),
    page_count: 1,
    language: null,
    sender_name: null,
    document_date: null,
    tags: [],
    duplicate_of: null,
    processing_note: null,
    error: null,
    created_at: '',
    updated_at: '',
    processed_at: null,
    deleted_at: null,
  };
}

/** documents.preview answering when released, counting how many are in flight at once. */
function previews() {
  const waiting: Array<() => void> = [];
  const state = { inFlight: 0, most: 0, calls: 0 };
  const preview = vi.fn(({ id }: { id: string }) => {
    state.calls++;
    state.inFlight++;
    state.most = Math.max(state.most, state.inFlight);
    return new Promise<Preview>((resolve) => {
      waiting.push(() => {
        state.inFlight--;
        resolve({ url: `preview://${id}`, mime_type: 'x', file_name: 'f', size: 1 });
      });
    });
  });
  setDesktop({ 'documents.preview': preview } as unknown as DesktopApi);
  const releaseAll = async () => {
    for (let round = 0; round < 2_000 && (waiting.length > 0 || state.inFlight > 0); round++) {
      waiting.splice(0).forEach((release) => release());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { state, releaseAll };
}

describe('nextZoom', () => {
  it('steps up and down the toolbar steps and stops at the ends', () => {
    expect(nextZoom(1, 1)).toBe(1.1);
    expect(nextZoom(1, -1)).toBe(0.9);
    expect(nextZoom(4, 1)).toBe(4);
    expect(nextZoom(0.25, -1)).toBe(0.25);
    expect(nextZoom(99, 1)).toBe(4);
    expect(nextZoom(0.01, -1)).toBe(0.25);
  });
  it('from a fitted scale between steps, goes to the neighbouring step, not past it', () => {
    expect(nextZoom(1.37, 1)).toBe(1.5);
    expect(nextZoom(1.37, -1)).toBe(1.25);
    // Floating-point noise around a step counts as the step.
    expect(nextZoom(1.2500001, 1)).toBe(1.5);
    expect(nextZoom(0.6699999, -1)).toBe(0.5);
  });
  it('walks every step in order', () => {
    const up: number[] = [ZOOM_STEPS[0]];
    while (up.length < 30 && up.at(-1) !== 4) up.push(nextZoom(up.at(-1)!, 1));
    expect(up).toEqual([...ZOOM_STEPS]);
  });
});

describe('grid thumbnails', () => {
  it('office documents and unknown types get none and cost no call', async () => {
    const { state } = previews();
    expect(
      await thumbnail(doc('docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')),
    ).toBeNull();
    expect(state.calls).toBe(0);
  });

  it('JPEG and PNG use their preview URL; TIFF is decoded to 320 px; each document is asked for once', async () => {
    const { state, releaseAll } = previews();
    const jpeg = doc('jpeg', 'image/jpeg');
    const scan = doc('tiff', 'image/tiff');
    const first = thumbnail(jpeg);
    const again = thumbnail(jpeg);
    const tiffThumb = thumbnail(scan);
    await releaseAll();
    expect(await first).toBe(`preview://${jpeg.id}`);
    expect(await again).toBe(`preview://${jpeg.id}`);
    expect(await tiffThumb).toBe(`blob:tiff-preview://${scan.id}`);
    expect(tiff.asked).toContainEqual([`preview://${scan.id}`, 320]);
    expect(state.calls).toBe(2);
  });

  it('a cell that left the window before its turn costs no call, and asks again when it is back', async () => {
    const { state, releaseAll } = previews();
    const cells = Array.from({ length: 6 }, () => ({ doc: doc('png', 'image/png'), live: true }));
    const asked = cells.map((cell) => thumbnail(cell.doc, () => cell.live));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.calls).toBe(2);
    // Scrolled past: the four still queued leave the window.
    for (const cell of cells.slice(2)) cell.live = false;
    await releaseAll();
    expect(await Promise.all(asked)).toEqual([
      `preview://${cells[0]!.doc.id}`,
      `preview://${cells[1]!.doc.id}`,
      null,
      null,
      null,
      null,
    ]);
    expect(state.calls).toBe(2);
    // Nothing was kept for them: back in the window, a cell gets its thumbnail.
    const back = thumbnail(cells[2]!.doc, () => true);
    await releaseAll();
    expect(await back).toBe(`preview://${cells[2]!.doc.id}`);
    expect(state.calls).toBe(3);
  });

  it('waits for the grid to rest after a scroll before a cell asks', () => {
    noteScroll(1_000);
    expect(restRemaining(1_000)).toBe(SCROLL_REST_MS);
    expect(restRemaining(1_000 + SCROLL_REST_MS - 10)).toBe(10);
    expect(restRemaining(1_000 + SCROLL_REST_MS)).toBe(0);
    noteScroll(2_000);
    expect(restRemaining(1_000 + SCROLL_REST_MS)).toBeGreaterThan(0);
  });

  it('renders at most two at a time, however many cells ask', async () => {
    const { state, releaseAll } = previews();
    const asked = Array.from({ length: 7 }, () => thumbnail(doc('png', 'image/png')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.inFlight).toBe(2);
    await releaseAll();
    expect(await Promise.all(asked)).toHaveLength(7);
    expect(state.most).toBe(2);
    expect(state.calls).toBe(7);
  });

  it('a PDF that cannot be opened has no thumbnail (null, not an error) and its loading task is destroyed', async () => {
    const { releaseAll } = previews();
    const shown = thumbnail(doc('pdf', 'application/pdf'));
    await releaseAll();
    expect(await shown).toBeNull();
    expect(pdf.destroyed).toBe(1);
  });

  it('keeps at most 400 thumbnails and revokes the object URLs it drops', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { releaseAll } = previews();
    const scans = Array.from({ length: 401 }, () => doc('tiff', 'image/tiff'));
    const pending = scans.map((scan) => thumbnail(scan));
    await releaseAll();
    await Promise.all(pending);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Earlier tests filled the cache too; whatever was evicted and was a blob: URL was revoked, nothing else.
    expect(revoke.mock.calls.length).toBeGreaterThan(0);
    for (const [url] of revoke.mock.calls) expect(String(url)).toMatch(/^blob:/);
    // The first scan was evicted: asking again asks the shell again.
    const before = tiff.asked.length;
    void thumbnail(scans[0]!);
    await releaseAll();
    expect(tiff.asked.length).toBe(before + 1);
    revoke.mockRestore();
  });
});
