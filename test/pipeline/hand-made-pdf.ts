import { constants, createDeflate } from 'node:zlib';

/**
 * PDFs written byte by byte, for what pdf-lib will not make: streams whose data is not what their size suggests
 * (decompression bombs), thousands of pages sharing one content stream.
 */

/** One indirect object: a dictionary, with stream data when `stream` is given (its /Length is added). */
export interface HandObject {
  dict: string;
  stream?: Uint8Array;
}

/** A PDF of the given objects, numbered from 1 (object 1 must be the catalog), with a correct xref table. */
export function handPdf(objects: readonly HandObject[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (part: Buffer): void => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (object.stream) {
      const dict = object.dict.replace(/>>\s*$/, ` /Length ${object.stream.length} >>`);
      push(Buffer.from(`${index + 1} 0 obj\n${dict}\nstream\n`, 'latin1'));
      push(Buffer.from(object.stream));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n${object.dict}\nendobj\n`, 'latin1'));
    }
  });
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\n` +
        `startxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** Deflate data of `bytes` zero bytes (streamed: the zeros are never in memory at once). */
export async function deflatedZeros(bytes: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: constants.Z_BEST_COMPRESSION });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  const block = Buffer.alloc(Math.min(bytes, 16 * 1024 * 1024));
  for (let left = bytes; left > 0; left -= block.length) {
    if (!deflate.write(left >= block.length ? block : block.subarray(0, left))) {
      await new Promise<void>((resolve) => deflate.once('drain', resolve));
    }
  }
  deflate.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

const FONT = { dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' };

/**
 * A PDF of `pages` pages that all show the same content stream (text lines, or whatever `content` is), objects:
 * 1 catalog, 2 pages, 3 font, 4 content, then the pages. `contentDict` replaces the content stream's dictionary.
 */
export function sharedContentPdf(pages: number, content: Uint8Array, contentDict = '<< >>'): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  return handPdf([
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>` },
    FONT,
    { dict: contentDict, stream: content },
    ...Array.from({ length: pages }, () => ({
      dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
    })),
  ]);
}

/** A content stream of `lines` lines of text. */
export function textContent(lines: readonly string[]): Uint8Array {
  const body = lines.map((line, i) => `BT /F1 10 Tf 40 ${800 - i * 12} Td (${line}) Tj ET`).join('\n');
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

/** One page per text, each with its own content stream. */
export function pagesPdf(texts: readonly string[]): Uint8Array {
  const n = texts.length;
  return handPdf([
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: `<< /Type /Pages /Count ${n} /Kids [${texts.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] >>` },
    FONT,
    ...texts.flatMap((text, i) => [
      {
        dict: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
      },
      { dict: '<< >>', stream: textContent([text]) },
    ]),
  ]);
}

/** A page with no text showing one image XObject of the given size, its data deflated zeros (gray, 8 bits). */
export async function hugeImagePdf(width: number, height: number): Promise<Uint8Array> {
  return handPdf([
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: '<< /Type /Pages /Count 1 /Kids [3 0 R] >>' },
    {
      dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    },
    {
      dict: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>`,
      stream: await deflatedZeros(width * height),
    },
    { dict: '<< >>', stream: new Uint8Array(Buffer.from('q 595 0 0 842 0 0 cm /Im1 Do Q', 'latin1')) },
  ]);
}
