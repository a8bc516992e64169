import { sessionStore } from '../commands/session-log.js';
import { auditPage } from './audit-page.js';
import { catalogPage } from './catalog-page.js';
import type { UiContext } from './context.js';
import type { EventStream, PageResult, UiRoutes } from './server.js';
import { sessionPage, sessionsPage } from './sessions-page.js';
import { skillPage, skillsPage } from './skills-page.js';

const SESSION = /^\/sessions\/([A-Za-z0-9][A-Za-z0-9_-]{0,127})$/;
const SESSION_EVENTS = /^\/sessions\/([A-Za-z0-9][A-Za-z0-9_-]{0,127})\/events$/;

/** How often an open session's file is looked at for new lines. */
export const LIVE_INTERVAL_MS = 500;

/** The pages, each made from the files as they are when it is asked for. */
export function uiRoutes(
  context: UiContext,
  timers: {
    readonly every: (ms: number, run: () => void) => () => void;
  },
): UiRoutes {
  return {
    page(path, query): PageResult | Promise<PageResult> {
      if (path === '/skills') return skillsPage(context);
      if (path === '/skill') {
        const address = query.get('address');
        return address === null
          ? { status: 400, message: 'Which skill? (address=NAME@SOURCE)' }
          : skillPage(context, address);
      }
      if (path === '/catalog') return catalogPage(context, query);
      if (path === '/sessions') return sessionsPage(context);
      const session = SESSION.exec(path);
      if (session !== null) return sessionPage(context, session[1] as string);
      if (path === '/audit') return auditPage(context, query);
      return { status: 404, message: `No page ${path}` };
    },
    events(path): EventStream | undefined {
      const match = SESSION_EVENTS.exec(path);
      const store = sessionStore(context.deps);
      if (match === null || store === undefined) return undefined;
      const id = match[1] as string;
      // Each change of the session's log is told; the page loads itself again.
      return (send) => {
        let size = store.read(id)?.length ?? 0;
        return timers.every(LIVE_INTERVAL_MS, () => {
          const now = store.read(id)?.length ?? 0;
          if (now === size) return;
          size = now;
          send('update', JSON.stringify({ session: id, size }));
        });
      };
    },
  };
}
