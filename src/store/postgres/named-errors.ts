// Where the PostgreSQL store's errors leave it: every method of the store and of its repositories turns
// the server's known failures into StoreErrors (postgres-error.ts), so that callers (a job's failure,
// the ledger's last_error, the CLI's last line) say which archive and what to do, as on SQLite. One
// wrapper at the boundary, rather than a try in each of the repositories' methods.
import type { ArchiveStore } from '../store.js';
import { asPostgresStoreError } from './postgres-error.js';

/**
 * Parts of the store left as they are: read-only queries sort their own failures (StoreQueryError), and
 * the health reads go through them (health.ts names the one that uses the pool).
 */
const UNWRAPPED = new Set<PropertyKey>(['queries', 'health']);

/** `store`, its methods' and its repositories' failures named after `store.location`. */
export function withNamedErrors(store: ArchiveStore): ArchiveStore {
  const name = (err: unknown) => asPostgresStoreError(err, store.location, 'writing');
  return wrap(store, name, true);
}

function wrap<T extends object>(target: T, name: (err: unknown) => Error, top: boolean): T {
  // One wrapper per method and repository, so that `store.ledger === store.ledger` still holds.
  const made = new Map<PropertyKey, { of: unknown; wrapped: unknown }>();
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (top && UNWRAPPED.has(prop)) return value;
      const known = made.get(prop);
      if (known && known.of === value) return known.wrapped;
      let wrapped: unknown = value;
      if (typeof value === 'function') wrapped = method(obj, value as (...args: unknown[]) => unknown, name);
      // The repositories (one level down).
      else if (top && typeof value === 'object' && value !== null) wrapped = wrap(value, name, false);
      else return value;
      made.set(prop, { of: value, wrapped });
      return wrapped;
    },
  });
}

function method(
  self: object,
  fn: (...args: unknown[]) => unknown,
  name: (err: unknown) => Error,
): (...args: unknown[]) => unknown {
  return (...args) => {
    let out: unknown;
    try {
      out = fn.apply(self, args);
    } catch (err) {
      throw name(err);
    }
    return out instanceof Promise
      ? out.catch((err: unknown) => {
          throw name(err);
        })
      : out;
  };
}
