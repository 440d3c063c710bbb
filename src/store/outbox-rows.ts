// Pure: a row of the alert outbox as both stores read it back (SQLite and PostgreSQL alike).
/** Where a read of the outbox ended (its order: created_at, id, hook). */
export interface OutboxCursor {
  createdAt: number;
  id: string;
  hook: string;
}

/** The columns AlertsStore.undelivered reads. */
export interface UndeliveredRow {
  id: string;
  hook: string;
  /** The notice's JSON. */
  notice: string;
  attempts: number;
  created_at: number;
}

export interface UndeliveredNotice<N> {
  id: string;
  hook: string;
  notice: N;
  attempts: number;
  /** Where a read that ends at this notice goes on from. */
  cursor: OutboxCursor;
}

export function undeliveredNotice<N>(r: UndeliveredRow): UndeliveredNotice<N> {
  return {
    id: r.id,
    hook: r.hook,
    notice: JSON.parse(r.notice) as N,
    attempts: r.attempts,
    cursor: { createdAt: r.created_at, id: r.id, hook: r.hook },
  };
}

/** The cursor's values for the statement; before every notice when there is none. */
export function afterValues(after: OutboxCursor | undefined): [number, string, string] {
  return [after?.createdAt ?? Number.MIN_SAFE_INTEGER, after?.id ?? '', after?.hook ?? ''];
}
