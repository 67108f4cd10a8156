import type { Command } from '../command.js';
import { processCommands } from './processes.js';
import { orgCommands } from './org.js';
import { keyCommands } from './key.js';
import { webhookCommands } from './webhook.js';
import { mobileMoneyCommands } from './mobile-money.js';
import { deviceCommands } from './device.js';
import { phoneSimCommands } from './phone-sim.js';
import { memberCommands } from './member.js';
import { optOutCommands } from './opt-out.js';
import { messageCommands } from './message.js';
import { mcpCommands } from './mcp.js';

/** Every `hafatra` command; each domain adds its own list. */
export const commands: Command[] = [
  ...processCommands,
  ...orgCommands,
  ...keyCommands,
  ...webhookCommands,
  ...deviceCommands,
  ...mobileMoneyCommands,
  ...phoneSimCommands,
  ...memberCommands,
  ...optOutCommands,
  ...messageCommands,
  ...mcpCommands,
];
