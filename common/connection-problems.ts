import { templateReader, templateWriter, type ReadMessage } from './message-templates.ts';

/**
 * Why the service cannot be used right now, worded once: main's client writes these (the connection status's reason,
 * a failed upload's last error), and the UI and the tray read them back to show them in their language
 * (common/i18n/known-messages.ts, `connectionProblem.<kind>`).
 */
export const CONNECTION_PROBLEM_TEMPLATES = {
  /** `code`: the system's error code (ECONNREFUSED, ENOTFOUND…) or its words. */
  unreachable: 'Cannot reach the service ({code})',
  timeout: 'The service did not answer in time',
  unreadableAnswer: 'The service sent an unreadable answer (HTTP {status})',
  /** A hosted service tried (connection.test) without its URL, or without a key given or stored for it. */
  urlMissing: 'Enter the service URL',
  keyMissing: 'Enter an API key for this service',
  /** `request`: "GET /v1/documents"; `issues`: where the answer breaks the contract's schema. */
  invalidAnswer: 'The service sent an invalid response to {request}: {issues}',
} as const;

export type ConnectionProblemKind = keyof typeof CONNECTION_PROBLEM_TEMPLATES;

export const connectionProblem = templateWriter(CONNECTION_PROBLEM_TEMPLATES);

/** Which of the problems above a message holds (it may be wrapped: "Upload failed: Cannot reach the service (…)"). */
export const readConnectionProblem: (message: string) => ReadMessage<ConnectionProblemKind> | null = templateReader(
  CONNECTION_PROBLEM_TEMPLATES,
  { patterns: { code: '[^()]*', status: '\\d+', issues: '.+' }, within: true },
);
