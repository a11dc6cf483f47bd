import { Container } from 'inversify';
import { ToolExecutionContext, Toolkit, type ToolManifest } from '../src';
import { AccountService, AdminService, EmailService, UserContext, WeatherApi, WeatherService } from './services';

/** The sample toolkit: weather (DTO), email (hidden API key preset), account (user context), admin (off). */
export function createSampleToolkit(manifest?: ToolManifest): Toolkit {
  const container = new Container();
  container.bind(WeatherApi).toSelf().inSingletonScope();

  const toolkit = new Toolkit({
    container,
    ...(manifest ? { manifest } : {}),
    context: ToolExecutionContext.builder().register(new UserContext('u-0', 'Guest', 'public')).build(),
    execution: { timeoutMs: 10_000 },
  });
  toolkit.createToolGroup('weather', 'Weather information', true);
  toolkit.createToolGroup('email', 'Sending email', true);
  toolkit.createToolGroup('admin', 'Tenant administration', false);

  toolkit.registerTool(WeatherService);
  toolkit.registerTool(AccountService);
  toolkit.registerTool(AdminService);
  toolkit
    .registration()
    .tool(EmailService)
    .presetParameters({ send_email: { apiKey: () => process.env.EMAIL_API_KEY ?? 'sk-demo-0123456789' } })
    .apply();
  return toolkit;
}
