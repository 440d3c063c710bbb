// Pure: the JSON text of a value JSON.parse made, however deep. JSON.stringify recurses and overflows the
// stack somewhere between 2,000 and 5,000 levels (less on a thread); a quarantined entry keeps its JSON
// all the same, written here with a stack of our own. The text is JSON.stringify's, character for
// character (the same escapes, the same key order).
import { nestedDeeperThan } from './storable.js';

/** JSON.stringify(value), without its recursion limit; 'undefined' for undefined (no JSON at all). */
export function jsonText(value: unknown): string {
  if (!nestedDeeperThan(value)) return JSON.stringify(value) ?? 'undefined';
  return deepJsonText(value);
}

type Frame =
  | { kind: 'array'; items: readonly unknown[]; next: number }
  | { kind: 'object'; obj: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

function deepJsonText(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  /** Writes a scalar, or opens a container (its items are written as the loop below pops them). */
  const open = (v: unknown): void => {
    if (typeof v !== 'object' || v === null) {
      out.push(JSON.stringify(v) ?? 'null');
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'array', items: v, next: 0 });
    } else {
      out.push('{');
      const obj = v as Record<string, unknown>;
      stack.push({ kind: 'object', obj, keys: Object.keys(obj), next: 0, wrote: false });
    }
  };
  open(root);
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    if (top.kind === 'array') {
      if (top.next === top.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (top.next > 0) out.push(',');
      const item = top.items[top.next++];
      // As JSON.stringify: undefined and functions in an array are null.
      open(item === undefined || typeof item === 'function' ? null : item);
    } else {
      if (top.next === top.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const key = top.keys[top.next++]!;
      const item = top.obj[key];
      if (item === undefined || typeof item === 'function') continue; // left out, as JSON.stringify does
      if (top.wrote) out.push(',');
      top.wrote = true;
      out.push(JSON.stringify(key), ':');
      open(item);
    }
  }
  return out.join('');
}
