// `npm run layers:diagram`: redraws the layers diagram of docs/architecture.md (test/architecture/diagram.ts).
import { writeDiagram } from './diagram.js';
import { readImports, readRules } from './layers.js';

writeDiagram(readImports(), readRules());
