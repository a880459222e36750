import './src/core/index.ts';
import { listCodecs } from './src/core/formats/registry.ts';
for (const c of listCodecs()) if (!c.sniffNeeds) console.log(c.id, c.extensions.join(','));
