/** Positions in a saved listing's JSON text, so that every problem names its line and column. */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** Line and column of a JSON path in the text (JSON is YAML, whose parser keeps positions). */
export function locateJson(text: string): ((path: (string | number)[]) => { line: number; col: number }) & { firstError(): { line: number; col: number } } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const pos = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(line, 1), col: Math.max(col, 1) };
  };
  const locate = (path: (string | number)[]) => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (!(isMap(node) || isSeq(node))) break;
      const next = node.get(segment as never, true);
      if (next === undefined) break;
      node = next;
    }
    const range = (node as Node | undefined)?.range;
    return range ? pos(range[0]) : { line: 1, col: 1 };
  };
  return Object.assign(locate, { firstError: () => (doc.errors[0] ? pos(doc.errors[0].pos[0]) : { line: 1, col: 1 }) });
}

export function lineColOf(text: string, offset: number): { line: number; col: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, col: lines[lines.length - 1].length + 1 };
}
