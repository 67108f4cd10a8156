import { bulkSend } from './bulk-send.js';
import { ceilings } from './ceilings.js';
import { fleet } from './fleet.js';
import { appFleet } from './app-fleet.js';
import { fleetChaos } from './fleet-chaos.js';
import { noisyNeighbour } from './noisy-neighbour.js';
import { parse } from './parse.js';
import { read } from './read.js';
import { scheduler } from './scheduler.js';
import { dashboardPages } from './dashboard-pages.js';
import type { Scenario } from './scenario.js';
import { sockets } from './sockets.js';
import { webhooks } from './webhooks.js';

/** Every scenario, in run order: ceilings first so they are measured on the same warm machine. */
export const scenarios: Scenario[] = [ceilings, bulkSend, read, fleet, appFleet, fleetChaos, sockets, webhooks, parse, dashboardPages, scheduler, noisyNeighbour];
