export const SESSION_CALLS: ReadonlyArray<{ readonly name: string; readonly input: unknown }>;
export function runUiSession(home: string, options?: { project?: string }): Promise<string>;
