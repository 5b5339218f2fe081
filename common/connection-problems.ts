/**
 * Why the service cannot be used right now, worded once: main's client writes these (the connection status's reason,
 * a failed upload's last error), and the UI and the tray read them back to show them in their language
 * (common/i18n/known-messages.ts).
 */
export const ConnectionProblem = {
  /** `code`: the system's error code (ECONNREFUSED, ENOTFOUND…) or its words. */
  unreachable: (code: string): string => `Cannot reach the service (${code})`,
  timeout: 'The service did not answer in time',
  unreadableAnswer: (status: number): string => `The service sent an unreadable answer (HTTP ${status})`,
} as const;

export type ReadConnectionProblem =
  { kind: 'unreachable'; code: string } | { kind: 'timeout' } | { kind: 'unreadableAnswer'; status: string };

/** Which of the problems above a message holds (it may be wrapped: "Upload failed: Cannot reach the service (…)"). */
export function readConnectionProblem(message: string): ReadConnectionProblem | null {
  const unreachable = /Cannot reach the service \(([^()]*)\)/.exec(message);
  if (unreachable) return { kind: 'unreachable', code: unreachable[1]! };
  if (message.includes(ConnectionProblem.timeout)) return { kind: 'timeout' };
  const answer = /The service sent an unreadable answer \(HTTP (\d+)\)/.exec(message);
  return answer ? { kind: 'unreadableAnswer', status: answer[1]! } : null;
}
