/**
 * What `import` prints of its notes without `--verbose`: one line per kind of note, with how many
 * records it is about, so that a one-record import says a few lines, not one per field. Pure.
 */
import type { Problem } from '../catalog/problems.js';

/**
 * One note per kind, at its first place: the fields filled in (one note each in `notes`) become one
 * line naming them; notes made per record (`record N: ...`) of the same message and field become
 * one, with their count; the others (already one per listing) stay as they are.
 */
export function summarizeNotes(notes: readonly Problem[], filled: ReadonlySet<Problem>): Problem[] {
  const out: Problem[] = [];
  const fields = notes.filter((n) => filled.has(n));
  if (fields.length === 1) out.push(fields[0]);
  else if (fields.length > 1) {
    out.push({
      ...fields[0],
      field: '(filled in)',
      message: `${fields.length} fields the records lack are filled in as the build publishes them (${fields.map((n) => n.field).join(', ')}); --verbose says how each`,
    });
  }
  const kinds = new Map<string, { first: Problem; count: number }>();
  for (const note of notes) {
    if (filled.has(note)) continue;
    const message = note.message.replace(/^record \d+: /, '');
    const key = `${note.field.replace(/\.\d+(?=\.|$)/g, '.*')}\u0000${message}`;
    const kind = kinds.get(key);
    if (kind) kind.count++;
    else kinds.set(key, { first: note, count: 1 });
  }
  for (const { first, count } of kinds.values()) {
    out.push(
      count === 1
        ? first
        : {
            ...first,
            message: `${first.message.replace(/^record \d+: /, '')} (${count} records, the first here; --verbose shows each)`,
          },
    );
  }
  return out;
}
