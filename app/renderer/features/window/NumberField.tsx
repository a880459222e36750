import { useEffect, useState } from 'react';
import { formatNumber } from '../roles.js';

/**
 * A whole number as people type one: "128000", "128,000", "128k", "1.5M". While the box holds something that
 * is not a number (empty, "-5", "8x") the value stays as it was and the box says so; it never turns into 0.
 */
export function parseAmount(text: string): number | undefined {
  const t = text.trim().replace(/[,_\s]/g, '');
  const m = /^(\d+(?:\.\d+)?|\.\d+)([kKmM]?)$/.exec(t);
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1000 : 1_000_000);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

export function NumberField({ value, min = 0, onChange, label, testId }: { value: number; min?: number; onChange(n: number): void; label: string; testId: string }) {
  const [text, setText] = useState(String(value));
  // The slider or [ ] moved it: the box follows, unless what is typed already means this value ("128k").
  useEffect(() => setText((t) => (parseAmount(t) === value ? t : String(value))), [value]);
  const parsed = parseAmount(text);
  const invalid = parsed === undefined || parsed < min;
  return (
    <input
      type="text"
      inputMode="numeric"
      value={text}
      aria-label={label}
      aria-invalid={invalid || undefined}
      title={invalid ? `a whole number of at least ${formatNumber(min)} (128000, 128,000 or 128k)` : formatNumber(parsed)}
      data-testid={testId}
      onBlur={() => {
        if (invalid) setText(String(value));
      }}
      onChange={(e) => {
        setText(e.target.value);
        const n = parseAmount(e.target.value);
        if (n !== undefined && n >= min) onChange(n);
      }}
    />
  );
}
