/**
 * A file's name after either separator (a Windows path read on Linux too), as path.basename gives it for a path
 * with "/" for "\": asked of every file a walk meets, so no regular expression and no path.basename (a search
 * over 2,900 files spent 7 ms of its profile in path.basename).
 */
export function nameOf(file: string): string {
  let end = file.length;
  while (end > 1 && (file[end - 1] === '/' || file[end - 1] === '\\')) end--;
  return file.slice(Math.max(file.lastIndexOf('/', end - 1), file.lastIndexOf('\\', end - 1)) + 1, end);
}
