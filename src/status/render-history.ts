// The history's lines of `edgelog status` (history/history-health.ts): one line of figures, then one
// line per day whose part is missing or whose entries were lost, loud, with what to run.
import { formatBytes } from '../format/bytes.js';
import { thousands } from '../format/table.js';
import type { HistoryHealth } from '../history/history-health.js';
import { span } from './zone-health.js';

export function renderHistory(h: HistoryHealth, now: number): string {
  const perEntry = h.entries > 0 ? ` (${(h.bytes / h.entries).toFixed(1)} B per entry)` : '';
  const merged =
    h.lastMergeAt === null ? 'never merged' : `last merge ${span(Math.max(0, now - h.lastMergeAt))} ago`;
  const flushed =
    h.flushedAt === null ? 'never flushed' : `flushed ${span(Math.max(0, now - h.flushedAt))} ago`;
  const lines = [
    `history: ${thousands(h.merged)} zone-days merged (${thousands(h.pruned)} pruned from the store), ` +
      `${formatBytes(h.bytes)}${perEntry} · ${merged} · ${flushed}`,
  ];
  for (const i of h.issues) {
    const where = `${i.source} zone ${i.zone} ${i.day}`;
    lines.push(
      i.issue === 'lost'
        ? `history: LOST ${thousands(i.entries)} entries of ${where} (a damaged part of a pruned day)`
        : `history: MISSING the part of ${where} (${thousands(i.entries)} entries${i.pruned ? ', pruned from the store: no reader returns them' : ''}); run \`edgelog compact --verify\``,
    );
  }
  return `${lines.join('\n')}\n`;
}
