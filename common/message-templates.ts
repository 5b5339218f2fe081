/**
 * Messages worded once, as templates with {placeholders}: main and the embedded service fill them in English (the
 * API's and the logs' language), and the UI reads a message back to its template and values to show it in its own
 * language, with the English original as the detail (common/i18n/known-messages.ts). The templates of a family are
 * tried in order, so where two could match one text the more specific comes first.
 */

/** The placeholders of a template, as a type: `{path}` in the text asks for `path`. */
type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

export type TemplateParams<T extends string> = Record<Placeholders<T>, string | number>;

/** No second argument for a template without placeholders. */
export type TemplateArgs<T extends string> = Placeholders<T> extends never ? [] : [params: TemplateParams<T>];

export interface ReadMessage<K extends string> {
  kind: K;
  params: Record<string, string>;
}

export interface ReadOptions {
  /**
   * Regular expressions for placeholders that are not free text (a count, a code in brackets); free text takes the
   * shortest span that lets the rest of the template match.
   */
  patterns?: Readonly<Record<string, string>>;
  /** Find the message inside a longer one ("Upload failed: …"); by default it must be the whole text. */
  within?: boolean;
}

/**
 * A writer for a family of templates: `write(kind, { name: value })` gives the template with its placeholders filled,
 * numbers written plainly ("2000"), each value passed through `value` first (as given by default).
 */
export function templateWriter<T extends Readonly<Record<string, string>>>(
  templates: T,
  value: (text: string) => string = (text) => text,
) {
  return <K extends keyof T & string>(kind: K, ...[params]: TemplateArgs<T[K]>): string => {
    const values = (params ?? {}) as Readonly<Record<string, string | number>>;
    return templates[kind]!.replace(/\{(\w+)\}/g, (_, name: string) => value(String(values[name])));
  };
}

/**
 * A reader for a family of templates: which one a text was made from, with its values; null for any other text.
 * `known` values (the file an upload row is about) are looked for as they are, so that a path holding ": " or " to "
 * does not end early; the templates are then read without them.
 */
export function templateReader<K extends string>(
  templates: Readonly<Record<K, string>>,
  { patterns = {}, within = false }: ReadOptions = {},
): (text: string, known?: Readonly<Record<string, string>>) => ReadMessage<K> | null {
  const entries = Object.entries(templates) as Array<[K, string]>;
  const compile = (template: string, known: Readonly<Record<string, string>>): RegExp => {
    const source = template
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name) return `(?<${name}>${known[name] !== undefined ? escape(known[name]) : (patterns[name] ?? '.+?')})`;
        return escape(part);
      })
      .join('');
    return new RegExp(within ? source : `^${source}$`, 's');
  };
  const general = entries.map(([kind, template]) => [kind, compile(template, {})] as const);
  const read = (candidates: ReadonlyArray<readonly [K, RegExp]>, text: string): ReadMessage<K> | null => {
    for (const [kind, pattern] of candidates) {
      const match = pattern.exec(text);
      if (match) return { kind, params: { ...match.groups } };
    }
    return null;
  };
  // The templates with a known value, compiled once per value: a list of upload rows reads the same paths again.
  const withKnown = new Map<string, ReadonlyArray<readonly [K, RegExp]>>();
  const specific = (known: Readonly<Record<string, string>>): ReadonlyArray<readonly [K, RegExp]> => {
    const key = JSON.stringify(known);
    let compiled = withKnown.get(key);
    if (!compiled) {
      const names = Object.keys(known).map((name) => `{${name}}`);
      compiled = entries
        .filter(([, template]) => names.some((name) => template.includes(name)))
        .map(([kind, template]) => [kind, compile(template, known)] as const);
      if (withKnown.size >= 500) withKnown.clear();
      withKnown.set(key, compiled);
    }
    return compiled;
  };
  return (text, known) => (known && read(specific(known), text)) || read(general, text);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
