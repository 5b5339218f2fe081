import type { Amount, ArchiveEvent } from '../../../common/archive-types.ts';
import { errorMessage } from '../../../common/errors.ts';
import { formatDate, formatMoney } from '../../../common/i18n/locale-format.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';
import { translate, type Locale, type Params } from '../../../common/i18n/translate.ts';
import { dueEvents, dueFactsOf, totalsOf, type DueEvent } from './due-items.ts';
import type { LibraryCache } from './library-cache.ts';
import { addDays, localDate } from './local-dates.ts';
import { dueReminders, type ReminderRule, type RemindersSettings } from './reminder-rules.ts';

export type { RemindersSettings } from './reminder-rules.ts';

export interface ReminderNotification {
  id: string;
  title: string;
  body: string;
  eventIds: string[];
  kind: 'reminder' | 'digest' | 'summary';
}

export interface RemindersOptions {
  cache: LibraryCache;
  settings: () => RemindersSettings;
  notify: (notification: ReminderNotification) => void;
  now?: () => number;
  log?: (line: string) => void;
  /** Between checks while running (default one minute). */
  checkIntervalMs?: number;
  /** The language of the texts, asked at each notification (the setting may change while the app runs). Default English. */
  locale?: () => Locale;
}

/** Lines listed in one notification before "and N more". */
const MAX_LINES = 5;
/** Fired reminders are kept this long (their due dates are long past by then). */
const KEEP_FIRED_MS = 400 * 86_400_000;

/**
 * Reminders of due events from the library cache: N days before, on the due day, and a daily overdue digest. Each
 * reminder fires once (recorded in the cache's database before it is shown, so a restart never repeats one). What
 * became due while the computer slept or the app was closed fires on the next check; when several are due at once
 * they come as one summary, not a flood.
 */
export class Reminders {
  private readonly cache: LibraryCache;
  private readonly settings: () => RemindersSettings;
  private readonly notify: (notification: ReminderNotification) => void;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly checkIntervalMs: number;
  private readonly locale: () => Locale;
  private timer: NodeJS.Timeout | undefined;
  private prunedOn: string | null = null;

  constructor(options: RemindersOptions) {
    this.cache = options.cache;
    this.settings = options.settings;
    this.notify = options.notify;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.checkIntervalMs = options.checkIntervalMs ?? 60_000;
    this.locale = options.locale ?? (() => 'en');
  }

  /** Checks now and then every minute. */
  start(): void {
    if (this.timer) return;
    this.checkSafely();
    this.timer = setInterval(() => this.checkSafely(), this.checkIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The computer woke up (powerMonitor resume): what came due while it slept fires now. */
  wake(): ReminderNotification[] {
    return this.checkSafely();
  }

  /** Fires what is due and not yet fired; returns what was shown (at most one notification). */
  check(): ReminderNotification[] {
    const settings = this.settings();
    const now = this.now();
    this.prune(now);
    if (!settings.enabled) return [];
    const log = this.cache.reminderLog;
    const rules = dueReminders(this.foldedDueEvents(), settings, now, log.snoozed(now)).filter(
      (rule) => !log.hasFired(rule.key),
    );
    if (rules.length === 0) return [];
    // Recorded first: a crash between the two loses one notification instead of repeating it on every start.
    log.record(
      rules.map((rule) => rule.key),
      now,
    );
    const locale = this.locale();
    const notification = rules.length === 1 ? single(rules[0]!, locale) : summary(rules, now, locale);
    this.log(`reminders: ${notification.kind} for ${notification.eventIds.length} event(s)`);
    this.notify(notification);
    return [notification];
  }

  /** No reminder for this event until `until` (ms); a rule whose time passed meanwhile fires after it if still due. */
  snooze(eventId: string, until: number): void {
    this.cache.reminderLog.snooze(eventId, until);
  }

  unsnooze(eventId: string): void {
    this.cache.reminderLog.unsnooze(eventId);
  }

  /** For the tray: open events overdue or due within `days_before` days, not snoozed. */
  dueCount(): number {
    const now = this.now();
    const snoozed = this.cache.reminderLog.snoozed(now);
    const until = addDays(localDate(now), this.settings().days_before);
    return this.foldedDueEvents(until).filter((event) => !snoozed.has(event.id)).length;
  }

  /** Due events as the due view counts them: possible duplicates once, notice deadlines with their term's end. */
  private foldedDueEvents(until?: string): DueEvent[] {
    const events = this.cache.dueEvents(until);
    return dueEvents(events, dueFactsOf(this.cache, events));
  }

  /** check() for callers that must not fail with it (event handlers, timers): a failure is logged. */
  checkSafely(): ReminderNotification[] {
    try {
      return this.check();
    } catch (error) {
      this.log(`reminders: check failed: ${errorMessage(error)}`);
      return [];
    }
  }

  private prune(now: number): void {
    const today = localDate(now);
    if (this.prunedOn === today) return;
    this.prunedOn = today;
    this.cache.reminderLog.prune(now - KEEP_FIRED_MS);
  }
}

function single(rule: ReminderRule, locale: Locale): ReminderNotification {
  const t = (key: MessageKey, params?: Params): string => translate(locale, key, params);
  switch (rule.kind) {
    case 'before': {
      // A contract's notice deadline is not a bill: it is named as Due names it ("Last day to give notice").
      const termEnd = termEndOf(rule.event);
      const title = rule.event.title;
      return {
        id: notificationId(rule),
        kind: 'reminder',
        eventIds: [rule.event.id],
        title: termEnd
          ? rule.daysLeft === 1
            ? t('reminder.noticeTomorrow', { title })
            : t('reminder.noticeLastDayInDays', { count: rule.daysLeft, title })
          : rule.daysLeft === 1
            ? t('reminder.dueTomorrow', { title })
            : t('reminder.dueInDays', { count: rule.daysLeft, title }),
        body: termEnd ? describeNotice(rule.event, termEnd, locale) : describe(rule.event, locale),
      };
    }
    case 'notice-ahead':
      return {
        id: notificationId(rule),
        kind: 'reminder',
        eventIds: [rule.event.id],
        title: t('reminder.noticeInDays', { count: rule.daysLeft, title: rule.event.title }),
        body: describeNotice(rule.event, rule.termEnd, locale),
      };
    case 'due-day': {
      const termEnd = termEndOf(rule.event);
      return {
        id: notificationId(rule),
        kind: 'reminder',
        eventIds: [rule.event.id],
        title: termEnd
          ? t('reminder.noticeToday', { title: rule.event.title })
          : t('reminder.dueToday', { title: rule.event.title }),
        body: termEnd ? describeNotice(rule.event, termEnd, locale) : describe(rule.event, locale),
      };
    }
    case 'digest':
      return {
        id: notificationId(rule),
        kind: 'digest',
        eventIds: rule.events.map((e) => e.id),
        title: t('reminder.overdue', { count: rule.events.length }),
        body: listing(
          rule.events.map(
            (e) =>
              `${e.title}${e.amount ? ` – ${money(locale, e.amount)}` : ''} (${t('reminder.due', { date: formatDate(locale, e.due_date) })})`,
          ),
          totalsOf(rule.events).map((total) => money(locale, total)),
          locale,
        ),
      };
  }
}

function summary(rules: readonly ReminderRule[], now: number, locale: Locale): ReminderNotification {
  const eventIds = new Set<string>();
  const lines: string[] = [];
  for (const rule of rules) {
    const shown = single(rule, locale);
    for (const id of shown.eventIds) eventIds.add(id);
    lines.push(shown.title);
  }
  return {
    id: `summary:${now}`,
    kind: 'summary',
    eventIds: [...eventIds],
    title: translate(locale, 'reminder.summary', { count: rules.length }),
    body: listing(lines, [], locale),
  };
}

function notificationId(rule: ReminderRule): string {
  return rule.kind === 'digest'
    ? `digest:${rule.key.due_date}`
    : `reminder:${rule.event.id}:${rule.kind}:${rule.key.due_date}`;
}

/** An amount as the UI writes it in this language ("€101.00", "101,00 €"). */
function money(locale: Locale, amount: Amount): string {
  return formatMoney(locale, amount.value, amount.currency);
}

/** Amounts and dates as the UI writes them in this language ("€101.00 · due Dec 17, 2030"). */
function describe(event: ArchiveEvent, locale: Locale): string {
  return [
    event.amount ? money(locale, event.amount) : null,
    translate(locale, 'reminder.due', { date: formatDate(locale, event.due_date) }),
    event.sender_name,
    event.reference_number,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
}

/**
 * The end of the term whose notice deadline `event` is (the due view sets it on a contract's or policy's notice
 * event), or undefined for any other due item. The rules type their events as plain events; they are the due view's.
 */
function termEndOf(event: ArchiveEvent | DueEvent): string | undefined {
  return 'term_end' in event ? event.term_end : undefined;
}

/**
 * A notice deadline as Due words it: the last day and the term's end, no amount (a notice has none) and no "due". The
 * sender only when the title does not name it already (a contract's title often does: "… from <sender>").
 */
function describeNotice(event: ArchiveEvent, termEnd: string, locale: Locale): string {
  const sender = event.sender_name;
  return [
    translate(locale, 'reminder.noticeBy', { date: formatDate(locale, event.due_date) }),
    translate(locale, 'reminder.termEnds', { date: formatDate(locale, termEnd) }),
    sender && !event.title.toLocaleLowerCase(locale).includes(sender.toLocaleLowerCase(locale)) ? sender : null,
    event.reference_number,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
}

function listing(lines: readonly string[], totals: readonly string[], locale: Locale): string {
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > MAX_LINES) shown.push(translate(locale, 'reminder.more', { count: lines.length - MAX_LINES }));
  if (totals.length > 0) shown.push(translate(locale, 'reminder.total', { totals: totals.join(', ') }));
  return shown.join('\n');
}
