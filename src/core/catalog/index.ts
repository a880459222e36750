export { Catalog, CatalogDamaged, localDay, type CatalogedFile, type CatalogHit, type FileStamp, type SessionQuery, type SessionRow, type UsageBy, type UsageRow } from './store.js';
export { CatalogSync, endHashOf, stampOf, type SyncOptions, type SyncProgress } from './sync.js';
export { factsOf, type CallFacts, type FileFacts, type MessageFacts, type SessionFacts } from './facts.js';
export { conversationTitles, firstPrompt } from './titles.js';
export { decodeProjectFolder, projectOf } from './project.js';
export { CATALOG_VERSION } from './schema.js';
export { searchCatalog } from './search.js';
export { HitTexts } from './hit-lines.js';
