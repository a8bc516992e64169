export const LOCAL_SERVERS: readonly string[];
export function onPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined;
export function claudeLogin(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string | undefined;
export function localServer(
  servers?: readonly string[],
): Promise<{ readonly base: string; readonly model: string } | undefined>;
export interface ProviderChoice {
  readonly kind: 'claude' | 'anthropic' | 'openai' | 'openai-compatible' | 'scripted';
  readonly label: string;
  readonly args: readonly string[];
}
export function chooseProvider(options?: {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
  readonly findLocal?: () => Promise<{ readonly base: string; readonly model: string } | undefined>;
}): Promise<ProviderChoice>;
