import { Module } from '@nestjs/common';
import { ToolwrightModule } from 'toolwright/nestjs';
import { ChatController } from './chat.controller.js';
import { ConfigModule, ConfigService } from './config.js';
import { Models } from './model.js';
import { AdminTools, MailTools, WeatherApi, WeatherTools } from './tools.js';

@Module({
  imports: [
    ConfigModule,
    ToolwrightModule.forRootAsync({
      imports: [ConfigModule],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        groups: [{ name: 'admin', description: 'Operator tools', active: false }],
        // read at call time, so a rotated key is picked up; never shown to the model
        presets: { send_report: { apiKey: () => config.get('MAIL_API_KEY') } },
      }),
    }),
  ],
  providers: [WeatherApi, WeatherTools, MailTools, AdminTools, Models],
  controllers: [ChatController],
})
export class AppModule {}
