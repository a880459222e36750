import { basename } from 'node:path';

// Apart from the codec: a listing asks these of every Markdown file it walks, before any reader is loaded.

/** The names "Export task" gives (`cline_task_nov-30-2025_9-15-02-am.md`). */
export const isClineTaskName = (file: string) => /^(cline|roo|kilo(_code)?)_task_.*\.md$/i.test(basename(file));

/** Whether a Markdown file's head is a task export under another name. */
export const looksLikeClineTask = (head: string) => /^\*\*User:\*\*\n\n/.test(head.replace(/^\ufeff/, ''));
