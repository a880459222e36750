import { main } from './main.js';

process.exitCode = main(process.argv.slice(2));
