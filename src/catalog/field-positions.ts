/**
 * Where a build's fields stand in its manifest (manifest.ts, `Build.at`): for the messages about the
 * whole catalog (duplicates, notices) that point at a field of one build among many.
 */
import { lineColOf } from './problems.js';
import type { YamlSource } from './yaml-source.js';

/** A 1-based line and column. */
export interface Position {
  line: number;
  col: number;
}

/** Where a build's fields stand in its manifest: `Build.at`. */
export interface FieldPositions {
  id: Position;
  filename: Position;
  version: Position;
  size: Position;
  /** The start of the file: for messages about the manifest as a whole. */
  file: Position;
  url?: Position;
  ota_property_files?: Position;
  /** Where `sha256` stands, when the manifest writes it. */
  sha256?: Position;
  /** Of each `files:` entry: where its `url` stands when written, else its `filename`. */
  files?: Position[];
}

/**
 * Where the build's fields stand in its manifest. For a manifest the flat reader read (nearly all of
 * them), each position is found when a message first asks for it; for any other, as it is read.
 * Nearly every build is read without a message about it, and finding all five or six positions of
 * every manifest as it was read (the starts of its lines, an object per position, kept as long as
 * the build) was a cost of every build: a cold `--no-cache` build of 10,000 manifests on one thread
 * took 0.989x the instructions without it (callgrind, `node --single-threaded
 * --predictable-gc-schedule`). What is kept for later is the text, which the build's values are
 * cut from anyway, and a number per field: keeping the source itself (its value and offsets) held
 * `otapress check` of 100,000 manifests at 890 MB instead of 745.
 */
export function positionsOf(
  source: YamlSource,
  hasUrl: boolean,
  hasPropertyFiles: boolean,
  files: readonly { url?: string }[] = [],
  hasSha256 = false,
): FieldPositions {
  const flat = source.flat;
  // A build with other files is rare: its positions are all found as it is read.
  if (flat && files.length === 0) {
    const id = flat.offsetOf('id');
    const filename = flat.offsetOf('filename');
    const version = flat.offsetOf('version');
    const size = flat.offsetOf('size');
    const url = hasUrl ? flat.offsetOf('url') : -1;
    const propertyFiles = hasPropertyFiles ? flat.offsetOf('ota_property_files') : -1;
    const sha256 = hasSha256 ? flat.offsetOf('sha256') : -1;
    if (
      id !== undefined &&
      filename !== undefined &&
      version !== undefined &&
      size !== undefined &&
      url !== undefined &&
      propertyFiles !== undefined &&
      sha256 !== undefined
    ) {
      return new LazyPositions(flat.text, id, filename, version, size, url, propertyFiles, sha256);
    }
  }
  const at: FieldPositions = {
    id: source.locate(['id']),
    filename: source.locate(['filename']),
    version: source.locate(['version']),
    size: source.locate(['size']),
    file: { line: 1, col: 1 },
  };
  if (hasUrl) at.url = source.locate(['url']);
  if (hasPropertyFiles) at.ota_property_files = source.locate(['ota_property_files']);
  if (hasSha256) at.sha256 = source.locate(['sha256']);
  if (files.length > 0)
    at.files = files.map((file, i) => source.locate(['files', i, file.url === undefined ? 'filename' : 'url']));
  return at;
}

/** {@link FieldPositions} from offsets into a manifest's text (-1: no such field), each found when asked for. */
class LazyPositions implements FieldPositions {
  #text: string;
  #id: number;
  #filename: number;
  #version: number;
  #size: number;
  #url: number;
  #propertyFiles: number;
  #sha256: number;
  constructor(
    text: string,
    id: number,
    filename: number,
    version: number,
    size: number,
    url: number,
    propertyFiles: number,
    sha256: number,
  ) {
    this.#text = text;
    this.#id = id;
    this.#filename = filename;
    this.#version = version;
    this.#size = size;
    this.#url = url;
    this.#propertyFiles = propertyFiles;
    this.#sha256 = sha256;
  }
  get file(): Position {
    return { line: 1, col: 1 };
  }
  get id(): Position {
    return lineColOf(this.#text, this.#id);
  }
  get filename(): Position {
    return lineColOf(this.#text, this.#filename);
  }
  get version(): Position {
    return lineColOf(this.#text, this.#version);
  }
  get size(): Position {
    return lineColOf(this.#text, this.#size);
  }
  get url(): Position | undefined {
    return this.#url === -1 ? undefined : lineColOf(this.#text, this.#url);
  }
  get ota_property_files(): Position | undefined {
    return this.#propertyFiles === -1 ? undefined : lineColOf(this.#text, this.#propertyFiles);
  }
  get sha256(): Position | undefined {
    return this.#sha256 === -1 ? undefined : lineColOf(this.#text, this.#sha256);
  }
}
