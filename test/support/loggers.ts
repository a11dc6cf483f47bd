import { Console } from 'node:console';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { ToolwrightLogger } from '../../src';

/** A JSON line pino wrote: its numeric `level`, `msg`, and the fields toolwright gave. */
export interface PinoLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** pino's numeric levels, by name. */
export const PINO_LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A writable stream that keeps what it is given, as text. */
function textSink(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** A real pino logger (at `level`) writing JSON lines to memory, and those lines parsed. */
export function pinoLogger(level: 'debug' | 'info' | 'warn' = 'debug'): { logger: ToolwrightLogger; lines(): PinoLine[]; text(): string } {
  const sink = textSink();
  const logger = pino({ level, base: undefined }, sink.stream);
  const lines = (): PinoLine[] =>
    sink
      .text()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as PinoLine);
  return { logger, lines, text: sink.text };
}

/** A real `Console` (node:console) printing to memory: what `console` would show in a terminal. */
export function consoleLogger(): { logger: ToolwrightLogger; text(): string } {
  const out = textSink();
  const logger = new Console({ stdout: out.stream, stderr: out.stream, colorMode: false });
  return { logger, text: out.text };
}

/** A logger whose every method throws: what toolwright must survive. */
export function throwingLogger(): ToolwrightLogger {
  const fail = (): never => {
    throw new Error('the logger is broken');
  };
  return { debug: fail, info: fail, warn: fail, error: fail };
}
