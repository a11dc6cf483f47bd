/**
 * `toolwright/nestjs`: toolwright as a NestJS (11 or 12) module. `ToolwrightModule.forRoot()` (or
 * `forRootAsync()`) provides `Toolkit` for injection and registers the `@Tool` methods of the
 * application's singleton providers at start. Loads `@nestjs/core` (an optional peer dependency)
 * when `forRoot` / `forRootAsync` runs, which is why it is an entry point of its own.
 *
 * @example
 * import { Module } from '@nestjs/common';
 * import { ToolwrightModule } from 'toolwright/nestjs';
 * @Module({ imports: [ToolwrightModule.forRoot()], providers: [WeatherTools] })
 * export class AppModule {}
 */
export { ToolwrightModule } from './toolwright-nest-module';
export type { ToolwrightNestAsyncOptions, ToolwrightNestOptions } from './toolwright-nest-module';
export type { NestCallerRequest, NestPrincipalSource } from './request-caller';
