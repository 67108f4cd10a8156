import type { Figure, SweepPoint } from '../lib/results.js';
import type { RunSettings } from '../lib/settings.js';
import type { Target } from '../target/target.js';

export interface ScenarioContext {
  target: Target;
  settings: RunSettings;
}

export interface ScenarioOutput {
  figures: Figure[];
  sweep?: SweepPoint[];
  details?: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  /** How it measures, one paragraph (also in bench/README.md). */
  method: string;
  run(c: ScenarioContext): Promise<ScenarioOutput>;
}
