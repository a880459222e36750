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
 * The longest line of a JSONL history read (a record: one message, one event). Real sessions' longest lines
 * are a few hundred kilobytes (a tool's output, an image in base64). A record costs several times its size
 * once read (its text, its parsed value, its shown text, what is sent to be counted and indexed), so one line
 * of 200 MB cost gigabytes: a file with a line past this is refused, naming the line.
 */
export const MAX_RECORD_BYTES = 64 * MiB;

/** A size as the app says sizes (binary units, as file managers and the sidebar do). */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${(bytes / (1024 * MiB)).toFixed(1)} GiB`;
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/**
 * The longest pre-tokenizer piece merged whole. A piece is a run the tokenizer's pattern does not split
 * (letters without a space or a digit: 'x' × 20 million is one). Merging holds some 200 bytes of bookkeeping
 * per byte of the piece, so one piece of 20 MB took 1.8 GB; a longer one is merged 256 Ki characters at a
 * time, which may count a token more at each cut (one in 30,000 or so of such a run), never fewer.
 */
export const MAX_PIECE_CHARS = 256 * 1024;
