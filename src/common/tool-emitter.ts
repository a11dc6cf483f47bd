import type { ToolProgress } from './tool-types';

/**
 * Streams progress from a running tool. Declare a parameter of this type (no `@ToolParam`) and
 * the toolkit injects one per call; each `emit` reaches `toolkit.events$` and the caller's
 * `onProgress`, tagged with the call id.
 *
 * @example
 * async importRows(@ToolParam({ name: 'url' }) url: string, emitter: ToolEmitter) {
 *   emitter.emit({ progress: 10, total: 100, message: 'downloading' });
 * }
 */
export class ToolEmitter {
  constructor(private readonly sink: (progress: ToolProgress) => void = () => undefined) {}

  /** Reports progress (a plain string is taken as the `message`). */
  emit(progress: ToolProgress | string): void {
    this.sink(typeof progress === 'string' ? { message: progress } : progress);
  }
}
