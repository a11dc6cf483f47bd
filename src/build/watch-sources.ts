import * as fs from 'node:fs';
import * as path from 'node:path';

/** What `toolwright-schema --watch` watches and what it does on a change. */
export interface WatchSourcesOptions {
  /** The files the last generation read (absolute): their folders are watched. */
  readonly sources: readonly string[] | undefined;
  /** The manifest being written: a change to it is never a reason to regenerate. */
  readonly outPath: string;
  /** Regenerates and returns the files the new manifest was read from. */
  readonly regenerate: () => readonly string[] | undefined;
  /** Receives a line when a folder cannot be watched. */
  readonly stderr: (text: string) => void;
  /** Stops watching. */
  readonly signal?: AbortSignal;
  /** How long changes settle before one regeneration (an editor's save is several events). */
  readonly debounceMs?: number;
}

/** Files whose change can change the manifest: TypeScript sources and tsconfig/package files. */
const RELEVANT = /\.(?:[cm]?ts|tsx|json)$/;

/**
 * @internal Watches the folders of the sources (not the files: editors replace a file on save,
 * which ends a watch on it) with `node:fs` and regenerates once changes settle. The folders
 * follow each generation: a new import is watched from the next change on.
 */
export function watchSources(options: WatchSourcesOptions): void {
  const { outPath, regenerate, stderr, signal, debounceMs = 150 } = options;
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;

  const changed = (dir: string, name: string | Buffer | null): void => {
    const file = name === null ? undefined : path.join(dir, name.toString());
    if (file === undefined || file === outPath || !RELEVANT.test(file)) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      follow(regenerate());
    }, debounceMs);
  };

  const follow = (sources: readonly string[] | undefined): void => {
    if (sources === undefined) return;
    const dirs = new Set(sources.map((source) => path.dirname(source)));
    for (const [dir, watcher] of watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = fs.watch(dir, (_event, name) => changed(dir, name));
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch (error) {
        stderr(`toolwright-schema: cannot watch ${dir}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  };

  follow(options.sources);
  signal?.addEventListener(
    'abort',
    () => {
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
    { once: true },
  );
}
