/** A rendered file of the output tree: path relative to the tree, forward slashes. */
export interface OutputFile {
  path: string;
  contents: string | Uint8Array;
}
