/**
 * Draws the app's icons into resources/ (committed; run again only to change them):
 *   icon.png                      512×512 app icon (electron-builder derives .ico/.icns and the Linux sizes from it)
 *   tray/tray-<state>.png         16×16 tray icon per state (idle, uploading, offline, attention)
 *   tray/tray-<state>@2x.png      32×32 for HiDPI screens (Electron picks it by the @2x suffix)
 * Vector drawing with @napi-rs/canvas, no text (no font dependency), so the output is the same on every machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';

const RESOURCES = resolve(import.meta.dirname, '..', 'resources');
const STATES = ['idle', 'uploading', 'offline', 'attention'] as const;
type State = (typeof STATES)[number];

function roundedRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** A sheet with a folded corner and text lines, in a box of `size` (unit = size / 16). */
function sheet(
  ctx: SKRSContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  paper: string,
  fold: string,
  ink: string,
  lines: number,
): void {
  const corner = w * 0.3;
  ctx.fillStyle = paper;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + w - corner, y);
  ctx.lineTo(x + w, y + corner);
  ctx.lineTo(x + w, y + h);
  ctx.lineTo(x, y + h);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = fold;
  ctx.beginPath();
  ctx.moveTo(x + w - corner, y);
  ctx.lineTo(x + w - corner, y + corner);
  ctx.lineTo(x + w, y + corner);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = ink;
  const left = x + w * 0.18;
  const gap = (h * 0.62) / lines;
  for (let i = 0; i < lines; i++) {
    const width = (i === lines - 1 ? 0.45 : i === 0 ? 0.4 : 0.64) * w;
    ctx.fillRect(left, y + h * 0.3 + i * gap, width, Math.max(1, gap * 0.42));
  }
}

function appIcon(size: number): Buffer {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const u = size / 512;
  const gradient = ctx.createLinearGradient(0, 0, 0, size);
  gradient.addColorStop(0, '#3b82f6');
  gradient.addColorStop(1, '#1d4ed8');
  ctx.fillStyle = gradient;
  roundedRect(ctx, 24 * u, 24 * u, 464 * u, 464 * u, 96 * u);
  ctx.fill();
  // Two sheets, the back one offset: an archive of documents.
  sheet(ctx, 150 * u, 84 * u, 230 * u, 290 * u, '#bfdbfe', '#93c5fd', '#93c5fd', 0);
  sheet(ctx, 120 * u, 112 * u, 230 * u, 290 * u, '#ffffff', '#dbeafe', '#94a3b8', 5);
  // The tray the scans land in.
  ctx.fillStyle = '#0f172a';
  ctx.globalAlpha = 0.85;
  ctx.beginPath();
  ctx.moveTo(84 * u, 330 * u);
  ctx.lineTo(184 * u, 330 * u);
  ctx.lineTo(204 * u, 366 * u);
  ctx.lineTo(308 * u, 366 * u);
  ctx.lineTo(328 * u, 330 * u);
  ctx.lineTo(428 * u, 330 * u);
  ctx.lineTo(428 * u, 410 * u);
  ctx.arcTo(428 * u, 440 * u, 398 * u, 440 * u, 30 * u);
  ctx.lineTo(114 * u, 440 * u);
  ctx.arcTo(84 * u, 440 * u, 84 * u, 410 * u, 30 * u);
  ctx.closePath();
  ctx.fill();
  ctx.globalAlpha = 1;
  return canvas.toBuffer('image/png');
}

const BADGE: Record<State, string | null> = {
  idle: null,
  uploading: '#2563eb',
  offline: '#6b7280',
  attention: '#ea580c',
};

function trayIcon(state: State, size: number): Buffer {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const u = size / 16;
  // A mid-grey sheet with a white outline reads on light and dark panels alike.
  ctx.fillStyle = '#ffffff';
  roundedRect(ctx, 1.5 * u, 0.5 * u, 11 * u, 14 * u, 1 * u);
  ctx.fill();
  sheet(
    ctx,
    2.5 * u,
    1.5 * u,
    9 * u,
    12 * u,
    state === 'offline' ? '#9ca3af' : '#374151',
    state === 'offline' ? '#d1d5db' : '#6b7280',
    '#ffffff',
    size >= 32 ? 4 : 3,
  );
  const color = BADGE[state];
  if (!color) return canvas.toBuffer('image/png');
  const cx = 11.5 * u;
  const cy = 11.5 * u;
  const r = 4.5 * u;
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(cx, cy, r + 0.8 * u, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.fillStyle = '#ffffff';
  ctx.lineWidth = Math.max(1, 1.3 * u);
  ctx.lineCap = 'round';
  ctx.beginPath();
  if (state === 'uploading') {
    ctx.moveTo(cx, cy + 2.4 * u);
    ctx.lineTo(cx, cy - 2.2 * u);
    ctx.moveTo(cx - 2 * u, cy - 0.4 * u);
    ctx.lineTo(cx, cy - 2.4 * u);
    ctx.lineTo(cx + 2 * u, cy - 0.4 * u);
    ctx.stroke();
  } else if (state === 'offline') {
    ctx.moveTo(cx - 2.2 * u, cy - 2.2 * u);
    ctx.lineTo(cx + 2.2 * u, cy + 2.2 * u);
    ctx.stroke();
  } else {
    ctx.moveTo(cx, cy - 2.5 * u);
    ctx.lineTo(cx, cy + 0.5 * u);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy + 2.2 * u, 0.8 * u, 0, Math.PI * 2);
    ctx.fill();
  }
  return canvas.toBuffer('image/png');
}

mkdirSync(join(RESOURCES, 'tray'), { recursive: true });
writeFileSync(join(RESOURCES, 'icon.png'), appIcon(512));
for (const state of STATES) {
  writeFileSync(join(RESOURCES, 'tray', `tray-${state}.png`), trayIcon(state, 16));
  writeFileSync(join(RESOURCES, 'tray', `tray-${state}@2x.png`), trayIcon(state, 32));
}
console.log(`icons written to ${RESOURCES}`);
