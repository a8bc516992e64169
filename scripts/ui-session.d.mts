export const SESSION_CALLS: ReadonlyArray<{ readonly name: string; readonly input: unknown }>;
export function runUiSession(home: string): Promise<string>;
