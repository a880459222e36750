// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NumberField, parseAmount } from '../../app/renderer/features/window/NumberField.js';

afterEach(cleanup);

describe('the budget box', () => {
  it('reads numbers as people type them', () => {
    expect(parseAmount('128000')).toBe(128_000);
    expect(parseAmount(' 128,000 ')).toBe(128_000);
    expect(parseAmount('128k')).toBe(128_000);
    expect(parseAmount('1.5M')).toBe(1_500_000);
    expect(parseAmount('0')).toBe(0);
    for (const bad of ['', '-5', '8x', 'k', '1e9', '--']) expect(parseAmount(bad), bad).toBeUndefined();
  });

  it('emptying the box changes nothing and never makes 0; "128k" sets 128,000; "-5" is refused and said to be', () => {
    const set: number[] = [];
    render(<NumberField value={8192} onChange={(n) => set.push(n)} label="Token budget (number)" testId="input" />);
    const box = screen.getByTestId('input') as HTMLInputElement;
    fireEvent.change(box, { target: { value: '' } });
    expect(set).toEqual([]);
    expect(box.value).toBe('');
    fireEvent.change(box, { target: { value: '128k' } });
    expect(set).toEqual([128_000]);
    fireEvent.change(box, { target: { value: '-5' } });
    expect(set).toEqual([128_000]);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    fireEvent.blur(box);
    expect(box.value).toBe('8192');
  });
});
