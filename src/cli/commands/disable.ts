import type { CommandContext } from '../command.js';
import { setSkillEnabled } from './enable.js';

export function run(context: CommandContext): number {
  return setSkillEnabled(context, false);
}
