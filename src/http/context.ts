// What the HTTP and MCP doors are handed at start-up: configuration, storage, logger and clock.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/store.js';

export type ServiceContext = {
  config: Config;
  store: Store;
  log: Logger;
  /** Injectable clock (tests fake it). */
  now: () => Date;
};
