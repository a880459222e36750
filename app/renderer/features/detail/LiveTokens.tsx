import { useEffect, useState } from 'react';
import { request } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { formatNumber } from '../roles.js';

const TYPING_MS = 200;

/** The tokens of what is being typed, counted in main once typing pauses (the renderer has no tokenizer). */
export function LiveTokens({ text, before }: { text: string; before?: number }) {
  const model = useApp((s) => s.model);
  const [count, setCount] = useState<{ text: string; tokens: number; encoding: string } | undefined>();
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      request('tokens:text', { model, text })
        .then((r) => live && setCount({ text, ...r }))
        .catch(() => {});
    }, TYPING_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [text, model]);
  const fresh = count?.text === text;
  return (
    <span className="muted small" data-testid="live-tokens" aria-live="polite" data-fresh={fresh ? 'true' : 'false'}>
      {count ? `${formatNumber(count.tokens)} tokens (${count.encoding})${before !== undefined && before !== count.tokens ? `, was ${formatNumber(before)}` : ''}${fresh ? '' : ' …'}` : 'counting…'}
    </span>
  );
}
