import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import type { Database } from './sql.js';

// libsql is a CommonJS N-API module: required, not imported, so that the bundles keep it outside.
const require = createRequire(import.meta.url);

type Driver = new (file: string) => Database;
let driver: Driver | undefined;

/**
 * libsql's Database class. On Linux, libsql picks its native package (`@libsql/linux-x64-gnu` or `-musl`) by
 * asking @neon-rs/load, which builds a whole diagnostic report (process.report) to learn the C library, and
 * detect-libc, which loads child_process: 17 ms of every CLI command that opens the catalog, against 7 ms for
 * the native module itself. Where only one of the two packages is installed, that one is the answer; where both
 * are, /usr/bin/ldd says which C library this is (as detect-libc reads it first); the two modules are given to
 * libsql as saying so. Anything else (another platform, neither installed, ldd unclear, another libsql) leaves
 * libsql to find out by itself.
 */
export function libsqlDriver(): Driver {
  if (driver) return driver;
  const undo = answerForLibsql();
  try {
    driver = require('libsql') as Driver;
  } finally {
    undo();
  }
  return driver;
}

function answerForLibsql(): () => void {
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return () => {};
  try {
    const libsql = createRequire(require.resolve('libsql'));
    // The two calls its index.js makes, in the versions this was written against.
    if (!/^0\.5\./.test((libsql('./package.json') as { version: string }).version)) return () => {};
    const installed = (['gnu', 'musl'] as const).filter((libc) => {
      try {
        libsql.resolve(`@libsql/linux-${process.arch}-${libc}/package.json`);
        return true;
      } catch {
        return false;
      }
    });
    const libc = installed.length === 1 ? installed[0] : installed.length === 2 ? lddLibc() : undefined;
    if (!libc) return () => {};
    const stand = (id: string, exports: object): string => {
      const path = libsql.resolve(id);
      const m = new Module(path);
      m.filename = path;
      m.loaded = true;
      m.exports = exports;
      libsql.cache[path] = m;
      return path;
    };
    const paths = [
      stand('@neon-rs/load', { currentTarget: () => `linux-${process.arch}-${libc}`, load: () => null }),
      stand('detect-libc', { familySync: () => (libc === 'gnu' ? 'glibc' : 'musl'), GLIBC: 'glibc', MUSL: 'musl' }),
    ];
    // Only libsql's loading is answered so: whatever requires them after gets the modules themselves.
    return () => paths.forEach((p) => delete libsql.cache[p]);
  } catch {
    return () => {};
  }
}

/** The C library /usr/bin/ldd belongs to (a script of glibc's; musl's loader itself), undefined when it does not say. */
function lddLibc(): 'gnu' | 'musl' | undefined {
  try {
    const ldd = readFileSync('/usr/bin/ldd', 'latin1');
    const musl = ldd.includes('musl');
    const gnu = ldd.includes('GNU C Library') || ldd.includes('GLIBC');
    return musl === gnu ? undefined : musl ? 'musl' : 'gnu';
  } catch {
    return undefined;
  }
}
