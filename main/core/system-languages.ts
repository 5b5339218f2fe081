/**
 * The OS's preferred languages as BCP 47 tags, for a process without Electron (the browser shell, the agent, tests):
 * GNU gettext's LANGUAGE list first, then the locale of messages (LC_ALL, LC_MESSAGES, LANG), then the ICU default
 * locale Node resolved at start. The Electron shell asks app.getPreferredSystemLanguages() instead.
 */
export function nodeSystemLanguages(env: NodeJS.ProcessEnv = process.env): string[] {
  const tags: string[] = [];
  const add = (value: string | undefined): void => {
    // de_DE.UTF-8@euro → de-DE; C and POSIX name no language.
    const tag = value?.split(/[.@]/)[0]?.replace(/_/g, '-');
    if (tag && tag !== 'C' && tag !== 'POSIX' && !tags.includes(tag)) tags.push(tag);
  };
  const messages = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  // gettext ignores LANGUAGE when the locale is C: so do we.
  if (messages && messages !== 'C' && messages !== 'POSIX')
    for (const entry of (env.LANGUAGE ?? '').split(':')) add(entry);
  add(messages);
  add(Intl.DateTimeFormat().resolvedOptions().locale);
  return tags;
}
