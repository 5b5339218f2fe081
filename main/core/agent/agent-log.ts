import { redactSecrets } from '../keychain/redact.ts';

/**
 * One line of the agent's log: an ISO timestamp, then the text with every secret masked and every line break folded
 * into "; ", so one event is always exactly one line (a reminder summary lists its events on several lines, an error
 * may carry a stack), and a line-oriented collector (journald, grep) never splits or misattributes it.
 */
export function agentLogLine(text: string, at: Date = new Date()): string {
  const folded = text
    .split(/\r\n|\r|\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join('; ');
  return `${at.toISOString()} ${redactSecrets(folded)}`;
}
