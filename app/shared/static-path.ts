export type StaticTarget =
  | { kind: 'file'; relative: string; page: boolean }
  | { kind: 'error'; status: 400 | 403 | 404; message: string };

/** The raw request target split by hand: `new URL` throws on `//`, and a thrown error here must never escape. */
export function splitTarget(rawUrl: string | undefined): { path: string; query: URLSearchParams } {
  const raw = rawUrl ?? '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  let query: URLSearchParams;
  try {
    query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  } catch {
    query = new URLSearchParams();
  }
  return { path, query };
}

function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Which built file a GET asks for, decided on the decoded, normalised path, so `/%69ndex.html` and
 * `/./index.html` are the page and need the token as `/index.html` does. Pure: it never throws.
 */
export function resolveStatic(rawUrl: string | undefined, tokenOk: (given: string | null) => boolean): StaticTarget {
  const { path, query } = splitTarget(rawUrl);
  if (!path.startsWith('/')) return { kind: 'error', status: 400, message: 'Bad request' };
  const decoded = decodePath(path);
  if (decoded === undefined || decoded.includes('\0') || decoded.includes('\\')) return { kind: 'error', status: 400, message: 'Bad request' };
  const segments = decoded.split('/');
  if (segments.includes('..')) return { kind: 'error', status: 404, message: 'Not found' };
  const normalised = segments.filter((s) => s !== '' && s !== '.');
  const relative = normalised.length === 0 ? 'index.html' : normalised.join('/');
  const page = relative === 'index.html' || relative.endsWith('.html');
  if (page && !tokenOk(query.get('token'))) {
    return { kind: 'error', status: 403, message: 'Forbidden: open the URL printed by `conversation-inspector serve` (it carries the access token).' };
  }
  return { kind: 'file', relative, page };
}
