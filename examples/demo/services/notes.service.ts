import { Tool, ToolParam, ToolService } from '../../../src';
import { UserContext } from './user-context';

/** How urgent a note is. */
export type Priority = 'low' | 'normal' | 'high';

/** A saved note. */
export interface Note {
  id: number;
  title: string;
  priority: Priority;
  tags: string[];
  owner: string;
}

/**
 * Written in the plain-TypeScript style: no names, descriptions or schemas in the decorators.
 * `npm run build` runs toolwright-schema over this file, and the manifest it writes supplies the
 * parameter names, the `'low' | 'normal' | 'high'` enum, the optional array and the JSDoc text.
 */
@ToolService({ group: 'notes' })
export class NotesService {
  private readonly notes: Note[] = [];

  /**
   * Save a note for the current user.
   * @param title Short title of the note
   * @param priority How urgent the note is
   * @param tags Labels to file the note under, e.g. ["work"]
   */
  @Tool()
  saveNote(@ToolParam() title: string, @ToolParam() priority: Priority = 'normal', @ToolParam() tags?: string[], user?: UserContext): Note {
    const note: Note = { id: this.notes.length + 1, title, priority, tags: tags ?? [], owner: user?.name ?? 'unknown' };
    this.notes.push(note);
    return note;
  }

  /**
   * List the saved notes, most urgent first.
   * @param tag Only notes with this label
   */
  @Tool()
  listNotes(@ToolParam() tag?: string): Note[] {
    const rank: Record<Priority, number> = { high: 0, normal: 1, low: 2 };
    return this.notes.filter((n) => tag === undefined || n.tags.includes(tag)).sort((a, b) => rank[a.priority] - rank[b.priority]);
  }
}
