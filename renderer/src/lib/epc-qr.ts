/** The QR code of an EPC payload, as the modules of an SVG path (drawn by EpcQr.svelte, no markup injected). */

import QRCode, { type QRCodeOptions } from 'qrcode';

/** EPC069-12 asks for error correction level M; its payload of at most 331 bytes then fits version 13. */
export const EPC_QR_OPTIONS: QRCodeOptions = { errorCorrectionLevel: 'M' };

/** Light modules around the code that scanners need to find it. */
export const QUIET_ZONE = 4;

export interface QrDrawing {
  /** Modules per side, quiet zone included: the SVG's viewBox. */
  size: number;
  /** One 1×1 square per dark module. */
  path: string;
}

export function qrDrawing(payload: string): QrDrawing {
  const { modules } = QRCode.create(payload, EPC_QR_OPTIONS);
  const squares: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) squares.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, path: squares.join('') };
}
