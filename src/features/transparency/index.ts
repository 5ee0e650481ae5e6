/**
 * The transparency wing (extension E10): the developer's price-transparency dataset. The import
 * stores the developer's data and the investments' addresses (normalized here, checked here);
 * `transparency enable|disable|status` turn the dataset on and off (cli.ts); the public, keyless
 * /open-data paths serve today's CSV, any past day's CSV, the harvester XML and its MD5 (http.ts).
 */
export {
  ADDRESS_KEYS,
  isValidKrs,
  isValidNip,
  isValidRegon,
  normalizeAddress,
  normalizeDeveloper,
  POSTCODE_PATTERN,
} from './model.js';
export { TransparencyFileCache } from './file-cache.js';
export { enableDataset } from './write.js';
