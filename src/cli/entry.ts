import { main } from './main.js';

// `tsx src/cli/entry.ts …` runs the CLI from source (tests, development).
process.exit(await main(process.argv.slice(2)));
