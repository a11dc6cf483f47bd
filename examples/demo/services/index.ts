export { UserContext } from './user-context';
export { WeatherApi } from './http-client';
export { WeatherService, ForecastRequest, ForecastWindow } from './weather.service';
export { EmailService, outbox } from './email.service';
export { AccountService } from './account.service';
export { AdminService } from './admin.service';
export { NotesService } from './notes.service';
export type { Note, Priority } from './notes.service';
