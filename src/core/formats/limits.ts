/**
 * Every cap on what reading one file may cost, in one place, each with its reason. A file past a cap is
 * refused with an error naming the file and the cap (TooBigError), never read until memory runs out: what
 * a file unpacks to is counted while it unpacks, and what it only declares is checked before.
 */

const MiB = 1024 * 1024;

/**
 * The largest file read whole (a session log past it is read a part at a time; anything else is refused).
 * Parsed, a history costs a few times its size in memory: 256 MiB keeps that near a gigabyte.
 */
export const DEFAULT_MAX_FILE_BYTES = 256 * MiB;

/**
 * What a compressed file (gzip, zstd), an archive's pieces together (Inspect's .eval) or a database with its
 * write-ahead log may come to once unpacked: no more than a plain file read whole, since what they unpack to is
 * then read as one. A 3 MB archive declaring 3 GB is refused before anything is inflated; one declaring less
 * than it holds stops at this many bytes inflated.
 */
export const MAX_INFLATED_BYTES = DEFAULT_MAX_FILE_BYTES;

/**
 * The largest window a zstd frame that does not declare its size may ask for. RFC 8878 (3.1.1.1.2) asks
 * decoders to support 8 MB and encoders to stay within it; zstd's own default levels use 2 to 8 MB. fzstd
 * keeps a frame's window as one buffer it shifts after every block of 128 KB, so a frame asking for 2 GB
 * would cost 2 GB and a copy of 2 GB per block. A frame that declares its size is decoded into a buffer of
 * that size instead, whatever its window.
 */
export const MAX_ZSTD_WINDOW_BYTES = 8 * MiB;

/**
 * What the folder listing reads whole for exact counts: files up to this size, and of a compressed file or
 * an archive what it unpacks to up to this size (a bigger one is counted when it is opened). The listing
 * reads every file of a folder, one after another, on the service's thread: this keeps each read to a
 * fraction of a second.
 */
export const LISTING_READ_BYTES = 8 * MiB;

/**
 * The longest record (a line of a JSONL history, the whole of a JSON one's message) read as a message. Real
 * sessions' longest lines are a few hundred kilobytes (a tool's output, an image in base64). Every view of a
 * record costs a few times its size (the text, the parsed value, its shown text, its pieces for the token
 * count, its search index), so one line of 200 MB cost gigabytes: a record past this is shown unread, its
 * bytes left in the file as they are.
 */
export const MAX_RECORD_BYTES = 64 * MiB;

/** A size as the app says sizes (binary units, as file managers and the sidebar do). */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${(bytes / (1024 * MiB)).toFixed(1)} GiB`;
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
