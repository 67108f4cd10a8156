export { readMobileMoney } from './read.js';
export { PARSER_VERSION } from './registry.js';
export { maskPhone } from './phone.js';
export { parseMoneyMinor } from './amount.js';
export { normalizeBody } from './normalize.js';
export type {
  Classification,
  Direction,
  MobileMoneyReading,
  ParsingStatus,
  Provider,
  ReadingFields,
} from './types.js';
