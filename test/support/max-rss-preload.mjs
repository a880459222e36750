// Preloaded (node --import) into a CLI run a test measures: as the process exits, its peak resident memory (KB,
// every thread counted) goes to the file CI_MAX_RSS_FILE names. A process killed outright writes nothing.
import { writeFileSync } from 'node:fs';

const file = process.env.CI_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
