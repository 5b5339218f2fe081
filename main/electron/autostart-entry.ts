/** The flag a login start passes: the app starts in the tray without opening its window. */
export const HIDDEN_FLAG = '--hidden';

/**
 * The XDG Autostart file (~/.config/autostart/desktop-archive.desktop) that starts the app at login on Linux. Pure,
 * without Electron, so it is tested under Node.
 */
export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Desktop Archive',
    `Exec=${execArgument(executable)} ${HIDDEN_FLAG}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    '',
  ].join('\n');
}

/**
 * One argument of an Exec key, as the Desktop Entry Specification reads it: the value is first unescaped as a string
 * (`\\` is a backslash, `\n` a newline, ...), then split like a shell command line, where a double-quoted argument
 * needs `"`, `` ` ``, `$` and `\` escaped with a backslash; a literal `%` is `%%` (field codes). So the two escapes
 * stack: a backslash in the path becomes four in the file, a `$` becomes `\\$`. (A single `\$` is an invalid string
 * escape that GLib rejects, and the entry would not start anything.)
 */
export function execArgument(value: string): string {
  const quoted = `"${value.replace(/["`$\\]/g, '\\$&').replace(/%/g, '%%')}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}
