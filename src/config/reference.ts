// Pure: the configuration reference (docs/CONFIGURATION.md, "Every key") made from the schema itself:
// every key its schema declares, the default the schema applies, the values it accepts and the one-line
// description given with `.describe()` beside the key. A key without a description throws, so the page
// cannot leave one out; test/readme/config-reference.test.ts fails when the page and this differ.
import { z } from 'zod';
import { configSchema } from './schema.js';

/** What the schema's own helpers and keys attach with `.meta()`: text the schema cannot say itself. */
export interface KeyMeta {
  description?: string;
  /** The accepted values, when the type alone does not say (durations, URLs, `host:port`…). */
  accepted?: string;
  /** The default in words, when it is not a value (computed at start, or absent on purpose). */
  defaultText?: string;
  /** Described as one key, not walked into (a map of hooks, a list of rules). */
  leaf?: boolean;
}

export interface ReferenceRow {
  key: string;
  default: string;
  accepted: string;
  description: string;
}

type Schema = z.core.$ZodType;

interface Unwrapped {
  core: Schema;
  meta: KeyMeta;
  defaultValue?: { value: unknown };
  nullable: boolean;
}

/** Peels the wrappers off a key's schema (default, optional, nullable, pipes), gathering their metadata. */
function unwrap(schema: Schema): Unwrapped {
  let s = schema;
  const meta: KeyMeta = {};
  let defaultValue: { value: unknown } | undefined;
  let nullable = false;
  for (;;) {
    // The outermost wrapper's word wins: `.meta()` beside a key over what a helper set inside.
    const own = (z.globalRegistry.get(s) ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(own)) if (!(k in meta)) (meta as Record<string, unknown>)[k] = v;
    const def = s._zod.def as { type: string; innerType?: Schema; in?: Schema; defaultValue?: unknown };
    if ((def.type === 'default' || def.type === 'prefault') && def.innerType) {
      defaultValue ??= { value: def.defaultValue };
      s = def.innerType;
    } else if (def.type === 'nullable' && def.innerType) {
      nullable = true;
      s = def.innerType;
    } else if (def.type === 'optional' && def.innerType) {
      s = def.innerType;
    } else if (def.type === 'pipe' && def.in) {
      s = def.in;
    } else {
      return { core: s, meta, ...(defaultValue ? { defaultValue } : {}), nullable };
    }
  }
}

const figure = (n: number) =>
  Number.isSafeInteger(n) && Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n);

/** The accepted values a core type says by itself. */
function acceptedOf(core: Schema): string {
  const def = core._zod.def as { type: string; format?: string; entries?: Record<string, string> };
  switch (def.type) {
    case 'boolean':
      return '`true` or `false`';
    case 'string':
      return def.format === 'url' ? 'a URL' : 'text';
    case 'enum':
      return Object.values(def.entries ?? {})
        .map((v) => `\`${v}\``)
        .join(', ');
    case 'number': {
      const n = core as unknown as { minValue: number | null; maxValue: number | null; isInt: boolean };
      const whole = n.isInt ? 'whole number ' : '';
      if (n.minValue !== null && n.maxValue !== null)
        return `${whole}${figure(n.minValue)}–${figure(n.maxValue)}`;
      return n.isInt ? 'a whole number' : 'a number';
    }
    default:
      return '';
  }
}

function defaultOf(u: Unwrapped): string {
  if (u.meta.defaultText !== undefined) return u.meta.defaultText;
  if (!u.defaultValue) return '—';
  return `\`${JSON.stringify(u.defaultValue.value)}\``;
}

/** One row per key of `schema`, in the schema's order, nested objects walked into. */
export function configReference(schema: Schema = configSchema, prefix = ''): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  const { core } = unwrap(schema);
  const shape = (core._zod.def as { shape?: Record<string, Schema> }).shape;
  if (!shape) throw new TypeError(`${prefix || 'the schema'} is not an object`);
  for (const [name, child] of Object.entries(shape)) {
    const key = prefix ? `${prefix}.${name}` : name;
    const u = unwrap(child);
    const isObject = (u.core._zod.def as { type: string }).type === 'object';
    if (isObject && !u.meta.leaf) {
      rows.push(...configReference(u.core, key));
      continue;
    }
    if (!u.meta.description) throw new Error(`configuration key ${key} has no description: add .describe()`);
    const accepted = u.meta.accepted ?? acceptedOf(u.core);
    rows.push({
      key,
      default: defaultOf(u),
      accepted: u.nullable ? `${accepted || 'a value'} or \`null\`` : accepted,
      description: u.meta.description,
    });
  }
  return rows;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The reference as a Markdown table (prettier's layout is applied by the page's formatter). */
export function renderReference(rows: readonly ReferenceRow[]): string {
  const lines = ['| key | default | accepted | what |', '| --- | --- | --- | --- |'];
  for (const r of rows)
    lines.push(`| \`${r.key}\` | ${cell(r.default)} | ${cell(r.accepted)} | ${cell(r.description)} |`);
  return `${lines.join('\n')}\n`;
}
