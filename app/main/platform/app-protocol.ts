import { net, protocol } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js';
import { resolveStatic } from '../../shared/static-path.js';
import { APP_SCHEME } from '../security.js';

/** Must run before `app.ready`: app:// behaves like a secure standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const headers = (extra: Record<string, string> = {}) => ({ 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff', ...extra });

/**
 * Serves the built renderer from app://inspector/, with the CSP as a header, never outside its folder. The
 * path is decoded and checked the same way browser mode checks it; a malformed one is a 400, not a throw.
 */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    try {
      const url = new URL(request.url);
      // The window's own origin needs no token: only the app's frame can load app:// at all.
      const target = resolveStatic(url.pathname + url.search, () => true);
      if (target.kind === 'error') return new Response(target.message, { status: target.status, headers: headers() });
      const response = await net.fetch(pathToFileURL(join(rendererDir, target.relative)).toString());
      const h = new Headers(response.headers);
      for (const [k, v] of Object.entries(headers())) h.set(k, v);
      return new Response(response.body, { status: response.status, headers: h });
    } catch {
      return new Response('Bad request', { status: 400, headers: headers() });
    }
  });
}
