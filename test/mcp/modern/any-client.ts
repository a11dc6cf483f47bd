/** How a test client negotiates: the SDK 2 client's default handshake, an `auto` probe, or a pin to 2026-07-28. */
export type Mode = 'legacy' | 'auto' | 'pin';

/** The part of a `tools/call` result the tests read. */
export type CallResult = { content?: readonly { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown };

/** An SDK 1.x or SDK 2 client behind one face, with the era it reached. */
export interface AnyClient {
  readonly era: string;
  listTools(): Promise<{ tools: readonly { name: string; inputSchema?: unknown }[] } & Record<string, unknown>>;
  callTool(name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number }) => void): Promise<CallResult>;
}

/** The SDK 2 client options of a mode. */
export function versionNegotiationOf(kind: Mode): { versionNegotiation?: { mode: 'auto' | { pin: string } } } {
  if (kind === 'legacy') return {};
  return { versionNegotiation: kind === 'auto' ? { mode: 'auto' } : { mode: { pin: '2026-07-28' } } };
}
