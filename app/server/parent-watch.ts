/** How often a process started for another checks that the other is still there. */
const CHECK_MS = 1000;

/** Whether a process of this id exists (signal 0 tests it without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `gone` once the process `pid` has ended: a server `npm start` launched must not outlive the script that
 * launched it when that script is killed outright (nothing then passes a signal on). The timer never keeps this
 * process alive by itself.
 */
export function whenProcessEnds(pid: number, gone: () => void): void {
  const timer = setInterval(() => {
    if (alive(pid)) return;
    clearInterval(timer);
    gone();
  }, CHECK_MS);
  timer.unref();
}

/** The process this one was told to end with (`INSPECTOR_EXIT_WITH`, set by scripts/start.mjs), if any. */
export function exitWithFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.INSPECTOR_EXIT_WITH;
  if (raw === undefined || !/^[1-9]\d*$/.test(raw)) return undefined;
  return Number(raw);
}
