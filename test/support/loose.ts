/** A parsed JSON line of a file under test, read field by field without a schema (what the file's own tool sees). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- files under test are arbitrary JSON, read loosely
export type Loose = Record<string, any>;
