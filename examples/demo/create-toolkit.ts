import * as path from 'node:path';
import { Container } from 'inversify';
import { ToolExecutionContext, Toolkit, loadManifest, type ToolManifest } from '../../src';
import { AccountService, AdminService, EmailService, NotesService, UserContext, WeatherApi, WeatherService } from './services';

/** The manifest `npm run build` writes from examples/demo/services (toolwright-schema). */
export const SAMPLE_MANIFEST_PATH = path.join(__dirname, 'tools.manifest.json');

/**
 * The sample toolkit: weather (DTO), email (hidden API key preset), account (user context),
 * notes (plain TypeScript types, described by the build-time manifest), admin (off).
 */
export function createSampleToolkit(manifest: ToolManifest = loadManifest(SAMPLE_MANIFEST_PATH)): Toolkit {
  const container = new Container();
  container.bind(WeatherApi).toSelf().inSingletonScope();

  const toolkit = new Toolkit({
    container,
    manifest,
    context: ToolExecutionContext.builder().register(new UserContext('u-0', 'Guest', 'public')).build(),
    execution: { timeoutMs: 10_000 },
  });
  toolkit.createToolGroup('weather', 'Weather information', true);
  toolkit.createToolGroup('email', 'Sending email', true);
  toolkit.createToolGroup('notes', 'Personal notes', true);
  toolkit.createToolGroup('admin', 'Tenant administration', false);

  toolkit.registerTool(WeatherService);
  toolkit.registerTool(AccountService);
  toolkit.registerTool(NotesService);
  toolkit.registerTool(AdminService);
  toolkit
    .registration()
    .tool(EmailService)
    .presetParameters({ send_email: { apiKey: () => process.env.EMAIL_API_KEY ?? 'sk-demo-0123456789' } })
    .apply();
  return toolkit;
}
