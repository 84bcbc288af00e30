// Which file system a benchmark's catalog, output and cache live on, named in the header of its
// table: on tmpfs (memory) no build or floor waits for a disk, on a disk the figures include its
// waits, so the same figures read differently. Named from statfs(2)'s f_type, whose values are the
// kernel's (include/uapi/linux/magic.h; virtiofs reports fuse's); one not listed here is shown as
// its number.
import { statfsSync } from 'node:fs';

const NAMES = new Map<number, string>([
  [0xef53, 'ext2/3/4'],
  [0x01021994, 'tmpfs, in memory'],
  [0x858458f6, 'ramfs, in memory'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x794c7630, 'overlayfs'],
  [0x2fc12fc1, 'zfs'], // OpenZFS's ZFS_SUPER_MAGIC; not in the kernel's list
  [0xf2f52010, 'f2fs'],
  [0x6969, 'nfs'],
  [0x65735546, 'fuse'],
  [0x4d44, 'vfat'],
  [0x01021997, '9p'],
]);

/** The name of the file system whose statfs `f_type` is `type`, or `type` in hex. */
export function fileSystemName(type: number | bigint): string {
  const n = Number(type);
  return NAMES.get(n) ?? `file system type 0x${n.toString(16)}`;
}

/** The name of the file system `dir` is on, or `unknown` where statfs fails (no such call on this platform). */
export function fileSystemOf(dir: string): string {
  try {
    return fileSystemName(statfsSync(dir).type);
  } catch {
    return 'unknown file system';
  }
}
