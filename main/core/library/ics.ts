import type { ArchiveEvent } from '../../../common/archive-types.ts';
import { DUE_STATES } from './due-items.ts';
import { formatAmount } from './format-amount.ts';
import { addDays } from './local-dates.ts';

export interface IcsOptions {
  /** DTSTAMP of every VEVENT (ms). */
  now: number;
  /** PRODID (default `-//Desktop Archive//Due dates//EN`). */
  productId?: string;
  /** Right-hand side of each UID (`<event id>@<domain>`), so a re-export updates the same calendar entries. */
  domain?: string;
  /** The alarm comes this many days before the due date (0: on the day; default 3). */
  daysBefore?: number;
  /** Local time of the alarm, HH:MM (the reminders' digest time). */
  alarmTime?: string;
}

const LINE_OCTETS = 75;

/**
 * The open due events as an iCalendar file (RFC 5545): one all-day VEVENT per event with a due date that still asks
 * something of the user, with an alarm before it. CRLF line endings; lines folded at 75 octets without splitting a
 * UTF-8 character.
 */
export function eventsToIcs(events: readonly ArchiveEvent[], options: IcsOptions): string {
  const domain = options.domain ?? 'desktop-archive.local';
  const stamp = utcStamp(options.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${options.productId ?? '-//Desktop Archive//Due dates//EN'}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  const due = events
    .filter((e) => e.due_date && DUE_STATES.includes(e.state))
    .sort((a, b) => a.due_date!.localeCompare(b.due_date!) || a.id.localeCompare(b.id));
  for (const event of due) {
    const date = event.due_date!;
    const summary = event.amount ? `${event.title} – ${formatAmount(event.amount)}` : event.title;
    const description = [
      event.sender_name ? `From: ${event.sender_name}` : null,
      event.reference_number ? `Reference: ${event.reference_number}` : null,
      event.amount ? `Amount: ${formatAmount(event.amount)}` : null,
      `Type: ${event.event_type}`,
    ]
      .filter((line): line is string => line !== null)
      .join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.id}@${domain}`,
      `DTSTAMP:${stamp}`,
      `LAST-MODIFIED:${utcStamp(Date.parse(event.updated_at))}`,
      `DTSTART;VALUE=DATE:${compact(date)}`,
      `DTEND;VALUE=DATE:${compact(addDays(date, 1))}`,
      `SUMMARY:${escapeText(summary)}`,
      `DESCRIPTION:${escapeText(description)}`,
      `CATEGORIES:${escapeText(event.event_type)}`,
      'TRANSP:TRANSPARENT',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${escapeText(summary)}`,
      `TRIGGER:${alarmTrigger(options.daysBefore ?? 3, options.alarmTime ?? '09:00')}`,
      'END:VALARM',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, and line breaks as `\n`. */
export function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line (RFC 5545 3.1): no line longer than 75 octets, each continuation starting with one space
 * (which counts). Cuts fall between code points, so a multi-byte character is never split.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = LINE_OCTETS;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Relative to the all-day start (local midnight): `N` days before at HH:MM. */
function alarmTrigger(daysBefore: number, time: string): string {
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const minutes = daysBefore * 1440 - (hh * 60 + mm);
  const sign = minutes > 0 ? '-' : '';
  const abs = Math.abs(minutes);
  const days = Math.floor(abs / 1440);
  const hours = Math.floor((abs % 1440) / 60);
  const mins = abs % 60;
  const clock = `${hours ? `${hours}H` : ''}${mins ? `${mins}M` : ''}`;
  if (abs === 0) return 'PT0S';
  return `${sign}P${days ? `${days}D` : ''}${clock ? `T${clock}` : ''}`;
}

function utcStamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function compact(date: string): string {
  return date.replace(/-/g, '');
}
