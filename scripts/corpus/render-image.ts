/**
 * Renders a layout page to pixels and makes it look scanned or photographed: skew, blur, paper tone, sensor
 * noise, dust specks, uneven light, optional 90°/180° turn, then JPEG compression where the format implies it.
 */
import { createCanvas, GlobalFonts, loadImage, type Canvas } from '@napi-rs/canvas';
import type { FontKey, Page } from './layout.ts';
import type { Rgb } from './model.ts';
import type { Rng } from './rng.ts';
import type { GrayImage } from './encoders.ts';

const FONT_FILES: Record<FontKey, string> = {
  'sans-regular': 'LiberationSans-Regular.ttf',
  'sans-bold': 'LiberationSans-Bold.ttf',
  'serif-regular': 'LiberationSerif-Regular.ttf',
  'serif-bold': 'LiberationSerif-Bold.ttf',
  'mono-regular': 'LiberationMono-Regular.ttf',
  'mono-bold': 'LiberationMono-Bold.ttf',
};
const FONT_DIRS = ['/usr/share/fonts/truetype/liberation2', '/usr/share/fonts/truetype/liberation'];

let fontsReady = false;
function registerFonts(): void {
  if (fontsReady) return;
  for (const [key, file] of Object.entries(FONT_FILES)) {
    const ok = FONT_DIRS.some((dir) => GlobalFonts.registerFromPath(`${dir}/${file}`, `Corpus-${key}`) !== null);
    if (!ok) throw new Error(`font ${file} not found (install fonts-liberation2)`);
  }
  fontsReady = true;
}

const css = (c: Rgb): string => `rgb(${c[0]},${c[1]},${c[2]})`;

export function renderPage(page: Page, dpi: number): Canvas {
  registerFonts();
  const scale = dpi / 72;
  const canvas = createCanvas(Math.round(page.width * scale), Math.round(page.height * scale));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.scale(scale, scale);
  for (const op of page.ops) {
    if (op.kind === 'text') {
      ctx.font = `${op.size}px "Corpus-${op.font}"`;
      ctx.fillStyle = css(op.color);
      ctx.fillText(op.text, op.x, op.y);
    } else if (op.kind === 'line') {
      ctx.strokeStyle = css(op.color);
      ctx.lineWidth = op.width;
      ctx.beginPath();
      ctx.moveTo(op.x1, op.y1);
      ctx.lineTo(op.x2, op.y2);
      ctx.stroke();
    } else {
      ctx.fillStyle = css(op.color);
      ctx.fillRect(op.x, op.y, op.w, op.h);
    }
  }
  return canvas;
}

export interface Distortion {
  /** Degrees, small: a page fed slightly crooked. */
  skew: number;
  blur: number;
  /** Standard deviation of grey-level noise. */
  noise: number;
  /** Share of pixels turned into dark or light specks. */
  salt: number;
  /** Turn of the whole page, as when it was put on the glass the wrong way. */
  rotate: 0 | 90 | 180 | 270;
  /** Photographed on a table (border, uneven light) instead of scanned. */
  photo: boolean;
  /** Re-encode as JPEG at this quality before the final format (artefacts in a PNG/TIFF); null: no. */
  jpegRoundTrip: number | null;
}

export function describe(d: Distortion): string {
  const parts = [`skew ${d.skew.toFixed(1)}°`];
  if (d.blur) parts.push(`blur ${d.blur}px`);
  if (d.noise) parts.push(`noise σ${d.noise}`);
  if (d.salt) parts.push(`specks ${(d.salt * 100).toFixed(2)} %`);
  if (d.rotate) parts.push(`rotated ${d.rotate}°`);
  if (d.photo) parts.push('photo');
  if (d.jpegRoundTrip) parts.push(`jpeg q${d.jpegRoundTrip}`);
  return parts.join(', ');
}

/** Applies the distortion; returns a grey image. */
export async function distort(clean: Canvas, d: Distortion, rng: Rng): Promise<GrayImage> {
  const pad = d.photo ? 0.07 : 0;
  const w = Math.round(clean.width * (1 + 2 * pad));
  const h = Math.round(clean.height * (1 + 1.4 * pad));
  let canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = d.photo ? 'rgb(92,84,76)' : 'rgb(236,236,234)';
  ctx.fillRect(0, 0, w, h);
  ctx.translate(w / 2, h / 2);
  ctx.rotate((d.skew * Math.PI) / 180);
  if (d.blur) ctx.filter = `blur(${d.blur}px)`;
  ctx.drawImage(clean, -clean.width / 2, -clean.height / 2);
  ctx.filter = 'none';
  ctx.setTransform(1, 0, 0, 1, 0, 0);

  const img = ctx.getImageData(0, 0, w, h);
  const px = img.data;
  const gray = new Uint8Array(w * h);
  const paper = d.photo ? 0.9 : 0.965;
  const gauss = (): number => {
    const u = Math.max(rng.next(), 1e-9);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      let v = 0.299 * px[i]! + 0.587 * px[i + 1]! + 0.114 * px[i + 2]!;
      // Paper is never pure white; ink is never pure black.
      v = 22 + v * paper * (233 / 255);
      if (d.photo) {
        const dx = x / w - 0.35;
        const dy = y / h - 0.3;
        v *= 1 - 0.28 * (dx * dx + dy * dy);
      }
      if (d.noise) v += gauss() * d.noise;
      gray[y * w + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  if (d.salt) {
    const count = Math.round(w * h * d.salt);
    for (let k = 0; k < count; k++) {
      const x = rng.int(0, w - 2);
      const y = rng.int(0, h - 2);
      const dark = rng.chance(0.8);
      const v = dark ? rng.int(10, 70) : 255;
      const size = rng.chance(0.15) ? 2 : 1;
      for (let yy = 0; yy < size; yy++) for (let xx = 0; xx < size; xx++) gray[(y + yy) * w + x + xx] = v;
    }
  }
  for (let i = 0; i < w * h; i++) {
    const v = gray[i]!;
    px[i * 4] = v;
    px[i * 4 + 1] = v;
    px[i * 4 + 2] = v;
    px[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);

  if (d.rotate) {
    const turned = d.rotate === 180 ? createCanvas(w, h) : createCanvas(h, w);
    const tctx = turned.getContext('2d');
    tctx.translate(turned.width / 2, turned.height / 2);
    tctx.rotate((d.rotate * Math.PI) / 180);
    tctx.drawImage(canvas, -w / 2, -h / 2);
    canvas = turned;
  }
  if (d.jpegRoundTrip) {
    const decoded = await loadImage(canvas.encodeSync('jpeg', d.jpegRoundTrip));
    const again = createCanvas(canvas.width, canvas.height);
    again.getContext('2d').drawImage(decoded, 0, 0);
    canvas = again;
  }
  return toGray(canvas);
}

export function toGray(canvas: Canvas): GrayImage {
  const ctx = canvas.getContext('2d');
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const out = new Uint8Array(canvas.width * canvas.height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * 4]!;
  return { width: canvas.width, height: canvas.height, data: out };
}

export function grayToCanvas(image: GrayImage): Canvas {
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) {
    const v = image.data[i]!;
    img.data[i * 4] = v;
    img.data[i * 4 + 1] = v;
    img.data[i * 4 + 2] = v;
    img.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  return canvas;
}

export function encodeJpeg(image: GrayImage, quality: number): Uint8Array {
  return grayToCanvas(image).encodeSync('jpeg', quality);
}
