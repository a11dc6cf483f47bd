import { Tool, ToolParam, ToolService, userResult } from '../../../src';
import { UserContext } from './user-context';

/** A record of what the fake mail gateway accepted (the demo prints it). */
export const outbox: { to: string; subject: string; keyFingerprint: string }[] = [];

@ToolService({ group: 'email' })
export class EmailService {
  @Tool({ name: 'send_email', description: 'Send an email on behalf of the current user', risk: 'medium' })
  async sendEmail(
    @ToolParam({ name: 'to', description: 'Recipient address', schema: { format: 'email' } }) to: string,
    @ToolParam({ name: 'subject', description: 'Subject line', schema: { maxLength: 120 } }) subject: string,
    @ToolParam({ name: 'body', description: 'Plain-text body' }) body: string,
    @ToolParam({ name: 'apiKey', preset: true }) apiKey: string, // hidden: bound as a preset at registration
    user: UserContext,
  ) {
    if (!apiKey.startsWith('sk-')) throw new Error('the mail gateway rejected the API key');
    outbox.push({ to, subject, keyFingerprint: `${apiKey.slice(0, 3)}…(${apiKey.length} chars)` });
    return userResult(`Email "${subject}" sent to ${to} from ${user.name} (${body.length} characters).`);
  }
}
