/** A rendered file of the output tree: path relative to the tree, forward slashes. */
export interface OutputFile {
  path: string;
  contents: string | Uint8Array;
}

/**
 * The UTF-8 bytes of `parts` one after the other, written straight into one buffer. For the big
 * pages (a device's page and changelog page): made into one string first, a page was copied once
 * more to join its parts and once more to flatten it for encoding, and the one character of its
 * head outside Latin-1 (the back link's arrow) made that copy two bytes a character and its
 * encoding several times slower than that of the ASCII articles, which are encoded alone here.
 */
export function utf8Of(parts: readonly (string | { toString(): string })[]): Buffer {
  const texts = parts.map(String);
  let size = 0;
  for (const text of texts) size += Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const text of texts) at += bytes.write(text, at);
  return bytes;
}
