import { Injectable, Module } from '@nestjs/common';

/** A stand-in for @nestjs/config's ConfigService. */
@Injectable()
export class ConfigService {
  private readonly values: Record<string, string> = { MAIL_API_KEY: 'sk-demo-mail-key', OPERATORS: 'ops' };

  get(key: string): string {
    return this.values[key] ?? '';
  }
}

@Module({ providers: [ConfigService], exports: [ConfigService] })
export class ConfigModule {}
