/**
 * The zones of a document's first page: the letterhead (who writes), the recipient's address window, the body and
 * the footer's legal block (register, VAT id, IBAN). The sender is read from the letterhead or the legal block, never
 * from the address window.
 */

import { hasLegalData, isPostcodeLine, isReturnAddress, opensRecipientBlock } from '../parties.ts';
import type { Cell, LayoutLine } from './lines.ts';

export interface Zones {
  /** The texts of the cells in each zone: the first page's letterhead and address window, every page's footer. */
  letterhead: string[];
  address: string[];
  footer: string[];
}

/** Below this fraction of the page height a line belongs to the footer. */
const FOOTER_TOP = 0.85;
/** A legal block lower than this (fraction of the page height) starts the footer. */
const LEGAL_BLOCK_TOP = 0.7;
/** A recipient's window lies in the upper part of the page (DIN 5008, US #10 and C5/6 windows alike). */
const WINDOW_BOTTOM = 0.45;
/** Without a window, the letterhead is the top of the page down to here. */
const LETTERHEAD_BOTTOM = 0.2;
/** Lines further apart than this many line heights are separate blocks. */
const BLOCK_GAP = 1.2;
const MAX_ADDRESS_LINES = 7;

/** A web or e-mail address, a phone line: the sender's contact block, which a window never shows. */
const CONTACT = /@|www\.|https?:|(?<!\p{L})(?:tel|tél|phone|fax|telefon|telefono|teléfono)(?!\p{L})/iu;

/** A run of cells, one under the other, starting at about the same left edge. */
interface Block {
  cells: Cell[];
  texts: string[];
  x: number;
  top: number;
  bottom: number;
}

/** The cells of one column under each other: an address beside a date block is read apart from it. */
function blocksOf(lines: readonly LayoutLine[]): Block[] {
  const blocks: Block[] = [];
  for (const line of lines) {
    const lineHeight = line.bottom - line.top;
    for (const cell of line.cells) {
      const block = blocks.find(
        (b) =>
          Math.abs(b.x - cell.x) <= 0.02 &&
          line.top - b.bottom <= lineHeight * BLOCK_GAP &&
          line.top >= b.bottom - lineHeight * 0.5,
      );
      if (block) {
        block.cells.push(cell);
        block.texts.push(cell.text);
        block.bottom = line.bottom;
      } else {
        blocks.push({ cells: [cell], texts: [cell.text], x: cell.x, top: line.top, bottom: line.bottom });
      }
    }
  }
  return blocks;
}

/** The zones of a document from its lines (any number of pages, top to bottom per page). */
export function findZones(lines: readonly LayoutLine[]): Zones {
  const zones: Zones = { letterhead: [], address: [], footer: [] };
  if (lines.length === 0) return zones;
  const firstPage = lines[0]!.page;
  const first = lines.filter((line) => line.page === firstPage);
  const footerStart = footerTop(first);
  for (const line of lines) {
    if (line.top >= (line.page === firstPage ? footerStart : FOOTER_TOP))
      zones.footer.push(...line.cells.map((c) => c.text));
  }
  const upper = first.filter((line) => line.top < footerStart);
  const window = addressWindow(blocksOf(upper.filter((line) => line.top < WINDOW_BOTTOM)));
  if (window) zones.address.push(...window.texts);
  // Above the window, or in the top of the page when there is none; a block beside the window is the sender's
  // contact details, which count as letterhead too.
  const letterheadBottom = window ? window.top : LETTERHEAD_BOTTOM;
  const inWindow = new Set(window?.cells ?? []);
  for (const line of upper) {
    for (const cell of line.cells) {
      if (inWindow.has(cell)) continue;
      const beside =
        window !== null && line.top >= window.top && line.top <= window.bottom && cell.x >= window.x + 0.25;
      if (line.bottom <= letterheadBottom + 0.001 || beside) zones.letterhead.push(cell.text);
    }
  }
  return zones;
}

/** The footer starts at the first line of a legal block in the lower part, or at FOOTER_TOP. */
function footerTop(lines: readonly LayoutLine[]): number {
  const legal = lines.find((line) => line.top >= LEGAL_BLOCK_TOP && hasLegalData(line.text));
  return Math.min(legal?.top ?? 1, FOOTER_TOP);
}

/**
 * The recipient's block: one that opens with a salutation or a recipient label ("Herrn", "Bill to:"), else the second
 * name-and-town block from the top on the left half (the first is the letterhead's), else the only one when something
 * stands above it, else (no such block on the left) the first on the right half below something on the left. None when
 * nothing on the page looks like a postal address.
 */
function addressWindow(blocks: readonly Block[]): Block | null {
  const marked = blocks.find((b) => b.cells.length >= 2 && opensRecipientBlock(b.texts[0]!));
  if (marked) return upToTown(marked);
  const left = blocks
    .filter(
      (b) =>
        b.x < 0.5 &&
        b.cells.length >= 2 &&
        b.cells.length <= MAX_ADDRESS_LINES &&
        b.texts.some(isPostcodeLine) &&
        !b.texts.some((text) => CONTACT.test(text)),
    )
    .sort((a, b) => a.top - b.top);
  if (left.length >= 2) return withoutReturnAddress(left[1]!);
  const only = left[0];
  const above = only ? blocks.filter((b) => b !== only && b.bottom <= only.top) : [];
  // A block under the logo that repeats its name ("ACME" over "Acme Services SA") is the letterhead's address.
  // (A return address over the window repeats it too: the window's own first line counts.)
  const nameWord = only ? firstWord(withoutReturnAddress(only).texts[0]!) : '';
  const underOwnLogo = nameWord.length >= 4 && above.some((b) => b.texts.some((t) => firstWord(t) === nameWord));
  if (only && above.length > 0 && !underOwnLogo) return withoutReturnAddress(only);
  // The one block on the left heads the page: it is the letterhead, and the window may be on the right.
  // French and Swiss letters put the window on the right: the first block there that ends in a town, below something.
  const right = blocks
    .filter((b) => b.x >= 0.5 && b.cells.length >= 2 && b.texts.some(isPostcodeLine))
    .map(upToTown)
    .filter((b) => b.cells.length <= MAX_ADDRESS_LINES)
    .sort((a, b) => a.top - b.top)[0];
  if (right && right.top > (only?.top ?? 0) && blocks.some((b) => b.x < 0.5 && b.bottom <= right.top))
    return withoutReturnAddress(right);
  return null;
}

const firstWord = (text: string): string => (/\p{L}+/u.exec(text)?.[0] ?? '').toLowerCase();

/** The sender's one-line return address printed over the window is the sender's, not the recipient's. */
function withoutReturnAddress(block: Block): Block {
  if (block.cells.length < 3 || !isReturnAddress(block.texts[0]!)) return block;
  return { ...block, cells: block.cells.slice(1), texts: block.texts.slice(1) };
}

/** A marked block ends with its town line; what follows under it is the body. */
function upToTown(block: Block): Block {
  const end = block.texts.findIndex(isPostcodeLine);
  if (end < 0 || end === block.texts.length - 1) return block;
  return { ...block, cells: block.cells.slice(0, end + 1), texts: block.texts.slice(0, end + 1) };
}
