import { scanUnits } from './src/core/secrets/scan.js';
console.log(JSON.stringify(await scanUnits([{ text: 'https://x-access-token:ghp_sMehGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8@github.com/a/b', where: 0 }])));
