const FIXED: Record<string, number> = { system: 270, developer: 270, user: 210, assistant: 140, tool: 30, function: 30 };

/** A stable hue per role: fixed for the usual roles, hashed for agent names. */
export function roleHue(role: string): number {
  const fixed = FIXED[role.toLowerCase()];
  if (fixed !== undefined) return fixed;
  let h = 0;
  for (let i = 0; i < role.length; i++) h = (h * 31 + role.charCodeAt(i)) >>> 0;
  return h % 360;
}

// One formatter: toLocaleString builds a new one on every call (about a microsecond each).
const NUMBER = new Intl.NumberFormat('en-US');
export function formatNumber(n: number): string {
  return NUMBER.format(n);
}

export function formatBytes(b: number): string {
  // Binary units, named as such (the command line says the same).
  return b >= 1048576 ? `${(b / 1048576).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`;
}

/** Relative age for the sidebar ("2m", "3h", "5d"). */
export function age(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}
